/// `HVAR` and `VVAR`, metrics variations: how each glyph's advance (and side bearings, and in
/// VVAR its vertical origin) moves across the design space, as items of an ItemVariationStore.
/// Without an advance map, glyph i is item (0, i). Read-only; instancing drops them.
public class MetricsVariationsTable: FontTable {
    public let store: ItemVariationStore
    public let advanceMap: DeltaSetIndexMap?
    public var isEdited: Bool { false }
    let bytes: [UInt8]

    init(_ reader: BinaryReader, face: Face, tag: String) throws {
        var r = reader
        let major = try r.u16()
        _ = try r.u16()
        guard major == 1 else { throw r.error("\(tag) major version \(major) is not 1", at: 0) }
        let storeOffset = Int(try r.u32()), advanceOffset = Int(try r.u32())
        let axisCount = try face.table(FvarTable.self)?.axes.count ?? 0
        store = try ItemVariationStore(reader, at: storeOffset, axisCount: axisCount, what: tag)
        advanceMap = advanceOffset == 0 ? nil : try DeltaSetIndexMap(reader, at: advanceOffset, what: tag)
        bytes = Array(reader.bytes)
    }

    /// Glyph `glyph`'s advance delta at a location whose region scalars are given, unrounded.
    public func advanceDelta(_ glyph: Int, scalars: [Double]) -> Double {
        let (outer, inner) = advanceMap?.index(glyph) ?? (0, glyph)
        return store.delta(outer: outer, inner: inner, scalars: scalars)
    }

    public func encode() throws -> [UInt8] { bytes }
}

public final class HvarTable: MetricsVariationsTable, DecodableTable {
    public static let tableTag: Tag = "HVAR"
    public static func decode(_ reader: BinaryReader, face: Face) throws -> HvarTable { try HvarTable(reader, face: face, tag: "HVAR") }
}

public final class VvarTable: MetricsVariationsTable, DecodableTable {
    public static let tableTag: Tag = "VVAR"
    public static func decode(_ reader: BinaryReader, face: Face) throws -> VvarTable { try VvarTable(reader, face: face, tag: "VVAR") }
}

extension MetricsVariationsTable {
    /// As fontTools' otData describes HVAR and VVAR: the variation store, then the glyph →
    /// delta-set maps named.
    static func description(_ name: String, maps: [String]) -> Shape {
        .record(Record(name, [
            Member("Version", .scalar(.version32), ttx: .hex8),
            Member("VarStore", .offset32(.record(GDEFTable.variationStore))),
        ] + maps.map { Member($0, .offset32(.glyphIndexMap)) }))
    }
}

extension HvarTable: ShapeDescribed {
    public static let shape = description("HVAR", maps: ["AdvWidthMap", "LsbMap", "RsbMap"])
}

extension VvarTable: ShapeDescribed {
    public static let shape = description("VVAR", maps: ["AdvHeightMap", "TsbMap", "BsbMap", "VOrgMap"])
}
