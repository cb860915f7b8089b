/// `ankr` (Apple), anchor points: for each glyph that needs them, a list of points (x, y in
/// font units) that kerx's attachment subtables (format 4) name by index, independent of the
/// outline's points. Described once, as fontTools' otData describes it; binary, TTX, Lua
/// (`face.ankr.AnchorPoints.Anchors.A.AnchorPoint[1].XCoordinate`) and diff follow.
public final class AnchorPointsTable: StructuredTable {
    override public class var tableTag: Tag { "ankr" }
    override public class var shape: Shape { description }
    override public class var readsGlyphCount: Bool { true }

    // swift-format-ignore
    static let description: Shape = .record(Record("ankr", [
        Member("AnchorPoints", .formats(name: "AnchorPoints", [
            0: Record("AnchorPointsFormat0", [
                Member("Flags", .scalar(.uint16)),
                Member("Anchors", .aatLookupWithData(.offset16(.record(Record("AnchorGlyphData", [
                    Member("AnchorPointCount", .scalar(.uint32)),
                    Member("AnchorPoint", .record(Record("AnchorPoint", [
                        Member("XCoordinate", .scalar(.int16)),
                        Member("YCoordinate", .scalar(.int16)),
                    ])), count: "AnchorPointCount"),
                ]))))),
            ]),
        ])),
    ]))
}
