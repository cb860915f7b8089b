/// GDEF, the glyph definition table: which glyphs are bases, ligatures, marks and components,
/// attachment points, ligature caret positions, mark attachment classes and mark glyph sets.
/// Described once; binary, TTX XML, Lua (`face.GDEF.GlyphClassDef`) and diff follow from it.
/// Member names are fontTools' (its otData), so dumps interoperate.
public final class GDEFTable: StructuredTable {
    override public class var tableTag: Tag { "GDEF" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let description: Shape = .record(Record("GDEF", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("GlyphClassDef", .offset16(.classDef)),
        Member("AttachList", .offset16(.record(attachList))),
        Member("LigCaretList", .offset16(.record(ligCaretList))),
        Member("MarkAttachClassDef", .offset16(.classDef)),
        Member("MarkGlyphSetsDef", .offset16(.record(markGlyphSets)), since: 0x0001_0002),
        Member("VarStore", .offset32(.record(variationStore)), since: 0x0001_0003),
    ]))

    /// The ItemVariationStore (variable fonts): regions of the design space, and rows of deltas
    /// that the VariationIndex Device tables of GDEF and GPOS point at (outer index: the
    /// VarData, inner: its Item). Names are fontTools'.
    // swift-format-ignore
    static let variationStore = Record("VarStore", [
        Member("Format", .scalar(.uint16)),
        Member("VarRegionList", .offset32(.record(Record("VarRegionList", [
            Member("RegionAxisCount", .scalar(.uint16)),
            Member("RegionCount", .scalar(.uint16)),
            Member("Region", .record(Record("Region", [
                Member("VarRegionAxis", .record(Record("VarRegionAxis", [
                    Member("StartCoord", .scalar(.f2dot14)),
                    Member("PeakCoord", .scalar(.f2dot14)),
                    Member("EndCoord", .scalar(.f2dot14)),
                ])), count: "RegionAxisCount"),
            ])), count: "RegionCount"),
        ])))),
        Member("VarDataCount", .scalar(.uint16)),
        Member("VarData", .offset32(.record(Record("VarData", [
            Member("ItemCount", .scalar(.uint16)),
            Member("NumShorts", .scalar(.uint16)),
            Member("VarRegionCount", .scalar(.uint16)),
            Member("VarRegionIndex", .scalar(.uint16), count: "VarRegionCount"),
            Member("Item", .deltaRow(shorts: "NumShorts", columns: "VarRegionCount"), count: "ItemCount"),
        ]))), count: "VarDataCount"),
    ], formatAttribute: "Format")

    // swift-format-ignore
    static let attachList = Record("AttachList", [
        Member("Coverage", .offset16(.coverage), parallel: ["AttachPoint"]),
        Member("GlyphCount", .scalar(.uint16)),
        Member("AttachPoint", .offset16(.record(Record("AttachPoint", [
            Member("PointCount", .scalar(.uint16)),
            Member("PointIndex", .scalar(.uint16), count: "PointCount"),
        ]))), count: "GlyphCount"),
    ])

    // swift-format-ignore
    static let ligCaretList = Record("LigCaretList", [
        Member("Coverage", .offset16(.coverage), parallel: ["LigGlyph"]),
        Member("LigGlyphCount", .scalar(.uint16)),
        Member("LigGlyph", .offset16(.record(Record("LigGlyph", [
            Member("CaretCount", .scalar(.uint16)),
            Member("CaretValue", .offset16(caretValue), count: "CaretCount"),
        ]))), count: "LigGlyphCount"),
    ])

    /// A caret as a coordinate, a contour point, or a coordinate with a Device table.
    // swift-format-ignore
    static let caretValue: Shape = .formats(name: "CaretValue", [
        1: Record("CaretValueFormat1", [Member("Coordinate", .scalar(.int16))]),
        2: Record("CaretValueFormat2", [Member("CaretValuePoint", .scalar(.uint16))]),
        3: Record("CaretValueFormat3", [Member("Coordinate", .scalar(.int16)), Member("DeviceTable", .offset16(.device))]),
    ])

    // swift-format-ignore
    static let markGlyphSets = Record("MarkGlyphSetsDef", [
        Member("MarkSetTableFormat", .scalar(.uint16)),
        Member("MarkSetCount", .scalar(.uint16)),
        Member("Coverage", .offset32(.coverage), count: "MarkSetCount"),
    ])
}

extension Face {
    /// GDEF's ItemVariationStore (GDEF 1.3), which the VariationIndex Devices of GDEF and GPOS
    /// point into; nil when the face has none.
    func gdefVariationStore() throws -> ItemVariationStore? {
        guard let raw = try rawTable("GDEF"), raw.count >= 18 else { return nil }
        let version = UInt32(raw[0]) << 24 | UInt32(raw[1]) << 16 | UInt32(raw[2]) << 8 | UInt32(raw[3])
        let storeOffset = Int(UInt32(raw[14]) << 24 | UInt32(raw[15]) << 16 | UInt32(raw[16]) << 8 | UInt32(raw[17]))
        guard version >= 0x0001_0003, storeOffset != 0 else { return nil }
        let axisCount = try variationAxes.count
        return try context("GDEF") {
            try raw.withUnsafeBytes { try ItemVariationStore(BinaryReader($0), at: storeOffset, axisCount: axisCount, what: "GDEF") }
        }
    }
}
