/// `bsln` (Apple), baselines: the default baseline class, where each of the 32 baselines lies
/// (distances, formats 0 and 1, or control points of a standard glyph, formats 2 and 3), and in
/// formats 1 and 3 each glyph's own baseline class. Described once; binary, TTX, Lua, diff and
/// validate follow.
public final class BaselineTable: StructuredTable {
    override public class var tableTag: Tag { "bsln" }
    override public class var shape: Shape { description }
    override public class var readsGlyphCount: Bool { true }

    static let deltas = Member("Delta", .scalar(.uint16), count: "32")
    static let points = Member("ControlPoint", .scalar(.uint16), count: "32")
    static let perGlyph = Member("BaselineValues", .aatLookup(.scalar(.uint16)))

    // swift-format-ignore
    static let description: Shape = .record(Record("bsln", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("Baseline", .formats(name: "Baseline", [
            0: Record("BaselineFormat0", [Member("DefaultBaseline", .scalar(.uint16)), deltas]),
            1: Record("BaselineFormat1", [Member("DefaultBaseline", .scalar(.uint16)), deltas, perGlyph]),
            2: Record("BaselineFormat2", [Member("DefaultBaseline", .scalar(.uint16)), Member("StandardGlyph", .glyph), points]),
            3: Record("BaselineFormat3", [Member("DefaultBaseline", .scalar(.uint16)), Member("StandardGlyph", .glyph), points, perGlyph]),
        ])),
    ]))
}
