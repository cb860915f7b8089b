/// `lcar` (Apple), ligature carets: where a text cursor may stop inside each ligature glyph, as
/// distances along the baseline (format 0) or as control points (format 1), in a record its
/// lookup value points at (from the table's start). fontTools spells the count
/// "DivsionPointCount", and so do we, so TTX interoperates. Described once; binary, TTX, Lua,
/// diff and validate follow.
public final class LigatureCaretsTable: StructuredTable {
    override public class var tableTag: Tag { "lcar" }
    override public class var shape: Shape { description }
    override public class var readsGlyphCount: Bool { true }

    // swift-format-ignore
    static func carets(_ name: String) -> Shape {
        .offset16(.record(Record(name, [
            Member("DivsionPointCount", .scalar(.uint16)),
            Member("DivisionPoint", .scalar(.int16), count: "DivsionPointCount"),
        ])))
    }

    // swift-format-ignore
    static let description: Shape = .record(Record("lcar", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("LigatureCarets", .formats(name: "LigatureCarets", [
            0: Record("LigatureCaretsFormat0", [Member("Carets", .aatLookup(carets("LigCaretDistances")))]),
            1: Record("LigatureCaretsFormat1", [Member("Carets", .aatLookup(carets("LigCaretPoints")))]),
        ])),
    ]))
}
