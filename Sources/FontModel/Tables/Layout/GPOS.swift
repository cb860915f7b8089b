/// GPOS, glyph positioning: kerning, mark attachment, cursive joins, contextual adjustments.
/// Every lookup type (1–9) is described structure by structure, in `LayoutCommon`'s terms and
/// fontTools' names; binary, TTX, Lua (`face.GPOS.LookupList`) and diff follow.
public final class GPOSTable: StructuredTable {
    override public class var tableTag: Tag { "GPOS" }
    override public class var shape: Shape { description }

    /// An anchor point: coordinates, a contour point, or coordinates with Device tables.
    // swift-format-ignore
    static let anchor: Shape = .offset16(.formats(name: "Anchor", [
        1: Record("AnchorFormat1", [Member("XCoordinate", .scalar(.int16)), Member("YCoordinate", .scalar(.int16))]),
        2: Record("AnchorFormat2", [Member("XCoordinate", .scalar(.int16)), Member("YCoordinate", .scalar(.int16)), Member("AnchorPoint", .scalar(.uint16))]),
        3: Record("AnchorFormat3", [Member("XCoordinate", .scalar(.int16)), Member("YCoordinate", .scalar(.int16)),
                                   Member("XDeviceTable", .offset16(.device)), Member("YDeviceTable", .offset16(.device))]),
    ]))

    // swift-format-ignore
    static let markArray = Record("MarkArray", [
        Member("MarkCount", .scalar(.uint16)),
        Member("MarkRecord", .record(Record("MarkRecord", [Member("Class", .scalar(.uint16)), Member("MarkAnchor", anchor)])), count: "MarkCount"),
    ])

    /// Mark attachment (types 4 and 6): marks with their classes, and per base (or mark) one
    /// anchor per class; `ClassCount` counts those anchors.
    // swift-format-ignore
    static func markAttachment(_ name: String, mark: String, base: String, array: String, record: String, count: String, anchorName: String) -> Shape {
        .formats(name: name, [1: Record("\(name)Format1", [
            Member(mark + "Coverage", .offset16(.coverage), parallel: [mark == "Mark" ? "MarkArray" : "Mark1Array", "MarkRecord"]),
            Member(base + "Coverage", .offset16(.coverage), parallel: [array, record]),
            Member("ClassCount", .scalar(.uint16)),
            Member(mark == "Mark" ? "MarkArray" : "Mark1Array", .offset16(.record(markArray))),
            Member(array, .offset16(.record(Record(array, [
                Member(count, .scalar(.uint16)),
                Member(record, .record(Record(record, [Member(anchorName, anchor, count: "ClassCount")])), count: count),
            ])))),
        ])])
    }

    // swift-format-ignore
    static let subtables: [Int: SwitchCase] = [
        1: SwitchCase("SinglePos", .formats(name: "SinglePos", [
            1: Record("SinglePosFormat1", [Member("Coverage", .offset16(.coverage)), Member("ValueFormat", .scalar(.uint16)),
                                           Member("Value", .valueRecord(format: "ValueFormat"))]),
            2: Record("SinglePosFormat2", [Member("Coverage", .offset16(.coverage), parallel: ["Value"]), Member("ValueFormat", .scalar(.uint16)),
                                           Member("ValueCount", .scalar(.uint16)), Member("Value", .valueRecord(format: "ValueFormat"), count: "ValueCount")]),
        ])),
        2: SwitchCase("PairPos", .formats(name: "PairPos", [
            1: Record("PairPosFormat1", [
                Member("Coverage", .offset16(.coverage), parallel: ["PairSet"]),
                Member("ValueFormat1", .scalar(.uint16)), Member("ValueFormat2", .scalar(.uint16)),
                Member("PairSetCount", .scalar(.uint16)),
                Member("PairSet", .offset16(.record(Record("PairSet", [
                    Member("PairValueCount", .scalar(.uint16)),
                    Member("PairValueRecord", .record(Record("PairValueRecord", [
                        Member("SecondGlyph", .glyph),
                        Member("Value1", .valueRecord(format: "ValueFormat1")),
                        Member("Value2", .valueRecord(format: "ValueFormat2")),
                    ])), count: "PairValueCount"),
                ]))), count: "PairSetCount"),
            ]),
            2: Record("PairPosFormat2", [
                Member("Coverage", .offset16(.coverage)),
                Member("ValueFormat1", .scalar(.uint16)), Member("ValueFormat2", .scalar(.uint16)),
                Member("ClassDef1", .offset16(.classDef)), Member("ClassDef2", .offset16(.classDef)),
                Member("Class1Count", .scalar(.uint16)), Member("Class2Count", .scalar(.uint16)),
                Member("Class1Record", .record(Record("Class1Record", [
                    Member("Class2Record", .record(Record("Class2Record", [
                        Member("Value1", .valueRecord(format: "ValueFormat1")),
                        Member("Value2", .valueRecord(format: "ValueFormat2")),
                    ])), count: "Class2Count"),
                ])), count: "Class1Count"),
            ]),
        ])),
        3: SwitchCase("CursivePos", .formats(name: "CursivePos", [1: Record("CursivePosFormat1", [
            Member("Coverage", .offset16(.coverage), parallel: ["EntryExitRecord"]),
            Member("EntryExitCount", .scalar(.uint16)),
            Member("EntryExitRecord", .record(Record("EntryExitRecord", [Member("EntryAnchor", anchor), Member("ExitAnchor", anchor)])), count: "EntryExitCount"),
        ])])),
        4: SwitchCase("MarkBasePos", markAttachment("MarkBasePos", mark: "Mark", base: "Base", array: "BaseArray", record: "BaseRecord", count: "BaseCount", anchorName: "BaseAnchor")),
        5: SwitchCase("MarkLigPos", .formats(name: "MarkLigPos", [1: Record("MarkLigPosFormat1", [
            Member("MarkCoverage", .offset16(.coverage), parallel: ["MarkArray", "MarkRecord"]),
            Member("LigatureCoverage", .offset16(.coverage), parallel: ["LigatureArray", "LigatureAttach"]),
            Member("ClassCount", .scalar(.uint16)),
            Member("MarkArray", .offset16(.record(markArray))),
            Member("LigatureArray", .offset16(.record(Record("LigatureArray", [
                Member("LigatureCount", .scalar(.uint16)),
                Member("LigatureAttach", .offset16(.record(Record("LigatureAttach", [
                    Member("ComponentCount", .scalar(.uint16)),
                    Member("ComponentRecord", .record(Record("ComponentRecord", [Member("LigatureAnchor", anchor, count: "ClassCount")])), count: "ComponentCount"),
                ]))), count: "LigatureCount"),
            ])))),
        ])])),
        6: SwitchCase("MarkMarkPos", markAttachment("MarkMarkPos", mark: "Mark1", base: "Mark2", array: "Mark2Array", record: "Mark2Record", count: "Mark2Count", anchorName: "Mark2Anchor")),
        7: SwitchCase("ContextPos", LayoutCommon.context("Pos")),
        8: SwitchCase("ChainContextPos", LayoutCommon.chainContext("Pos")),
    ]

    /// Offset overflows are resolved as font compilers do: lookups move behind extension
    /// subtables, then subtables still too big are split (`LayoutCommon.encodeFitting`).
    override public func encode() throws -> [UInt8] {
        try LayoutCommon.encodeFitting(self, extensionType: 9, subtables: Self.subtables)
    }

    static let description: Shape = {
        var types = subtables
        types[9] = SwitchCase("ExtensionPos", LayoutCommon.extensionSubtable(subtables))
        return LayoutCommon.header("GPOS", lookups: types)
    }()
}
