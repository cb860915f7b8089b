/// `opbd` (Apple), optical bounds: how far each glyph's left, top, right and bottom edges may
/// overhang a line's ends for optical alignment, as distances in font units (format 0) or as
/// control points (format 1). Each glyph's four values sit in a record its lookup value points
/// at (from the table's start). Described once; binary, TTX, Lua, diff and validate follow.
public final class OpticalBoundsTable: StructuredTable {
    override public class var tableTag: Tag { "opbd" }
    override public class var shape: Shape { description }
    override public class var readsGlyphCount: Bool { true }

    // swift-format-ignore
    static func bounds(_ name: String) -> Shape {
        .offset16(.record(Record(name, ["Left", "Top", "Right", "Bottom"].map { Member($0, .scalar(.int16)) })))
    }

    // swift-format-ignore
    static let description: Shape = .record(Record("opbd", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("OpticalBounds", .formats(name: "OpticalBounds", [
            0: Record("OpticalBoundsFormat0", [Member("OpticalBoundsDeltas", .aatLookup(bounds("OpticalBoundsDeltas")))]),
            1: Record("OpticalBoundsFormat1", [Member("OpticalBoundsPoints", .aatLookup(bounds("OpticalBoundsPoints")))]),
        ])),
    ]))
}
