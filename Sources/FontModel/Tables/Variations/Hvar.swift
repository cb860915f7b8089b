/// `HVAR` and `VVAR`, metrics variations: how each glyph's advance (and side bearings, and in
/// VVAR its vertical origin) moves across the design space, as items of an ItemVariationStore.
/// Without an advance map, glyph i is item (0, i). A glyph copy (`copyVariations`) gives the
/// target the source's items; saved as read until then. Instancing drops them.
public class MetricsVariationsTable: FontTable {
    public private(set) var store: ItemVariationStore
    /// The delta-set maps in the table's order (HVAR: advance, left, right side bearing; VVAR:
    /// advance, top, bottom side bearing, vertical origin); nil where the table has none.
    public private(set) var maps: [DeltaSetIndexMap?]
    public var advanceMap: DeltaSetIndexMap? { maps[0] }
    public private(set) var isEdited = false
    let bytes: [UInt8]
    let axisCount: Int

    init(_ reader: BinaryReader, face: Face, tag: String, mapCount: Int) throws {
        var r = reader
        let major = try r.u16()
        _ = try r.u16()
        guard major == 1 else { throw r.error("\(tag) major version \(major) is not 1", at: 0) }
        let storeOffset = Int(try r.u32())
        let mapOffsets = try (0..<mapCount).map { _ in Int(try r.u32()) }
        axisCount = try face.table(FvarTable.self)?.axes.count ?? 0
        store = try ItemVariationStore(reader, at: storeOffset, axisCount: axisCount, what: tag)
        maps = try mapOffsets.map { $0 == 0 ? nil : try DeltaSetIndexMap(reader, at: $0, what: tag) }
        bytes = Array(reader.bytes)
    }

    /// Glyph `glyph`'s advance delta at a location whose region scalars are given, unrounded.
    public func advanceDelta(_ glyph: Int, scalars: [Double]) -> Double {
        let (outer, inner) = advanceMap?.index(glyph) ?? (0, glyph)
        return store.delta(outer: outer, inner: inner, scalars: scalars)
    }

    /// Glyph `target` varies its metrics as glyph `source` does: through the maps, it takes the
    /// source's entries; without an advance map (glyph i is item (0, i)), the target's row of
    /// deltas becomes a copy of the source's.
    public func copyVariations(from source: Int, to target: Int) throws {
        for k in maps.indices {
            guard var map = maps[k], let entry = map.index(source) else { continue }
            map.set(target, entry)
            maps[k] = map
        }
        if advanceMap == nil {
            guard var data = store.data.first, source < data.itemCount, target < data.itemCount else {
                throw FontError(
                    "without an advance map, glyphs \(source) and \(target) need rows in the first variation data (it has \(store.data.first?.itemCount ?? 0))"
                )
            }
            let n = data.regionIndexes.count
            for k in 0..<n { data.deltas[target * n + k] = data.deltas[source * n + k] }
            store.data[0] = data
        }
        isEdited = true
    }

    /// Glyph `glyph`'s metrics no longer vary: its map entries point at an item of zeros (one
    /// found in the store, or added to its last variation data); without an advance map its
    /// row becomes zeros.
    public func removeVariations(_ glyph: Int) throws {
        if maps.contains(where: { $0 != nil }) {
            let zero = try zeroItem()
            for k in maps.indices {
                if var map = maps[k], map.index(glyph).map({ $0 != zero }) ?? false { map.set(glyph, zero); maps[k] = map }
            }
        }
        if advanceMap == nil, var data = store.data.first, glyph < data.itemCount {
            let n = data.regionIndexes.count
            for k in 0..<n { data.deltas[glyph * n + k] = 0 }
            store.data[0] = data
        }
        isEdited = true
    }

    /// An item whose deltas are all zero, added when the store has none.
    func zeroItem() throws -> (outer: Int, inner: Int) {
        for (outer, d) in store.data.enumerated() {
            let n = d.regionIndexes.count
            if let inner = (0..<d.itemCount).first(where: { i in (0..<n).allSatisfy { d.deltas[i * n + $0] == 0 } }) {
                return (outer, inner)
            }
        }
        guard var last = store.data.last, last.itemCount < 0xFFFF else {
            throw FontError("the variation store has no room for an item of zeros")
        }
        last.deltas += repeatElement(0, count: last.regionIndexes.count)
        last.itemCount += 1
        store.data[store.data.count - 1] = last
        return (store.data.count - 1, last.itemCount - 1)
    }

    /// Header, the store, then the maps (as fontTools lays the table out).
    public func encode() throws -> [UInt8] {
        guard isEdited else { return bytes }
        let storeBytes = try store.encode(axisCount: axisCount)
        let mapBytes = try maps.map { try $0?.encode() }
        var w = BinaryWriter()
        w.u16(1); w.u16(0)
        var offset = 8 + 4 * maps.count
        try w.u32(offset, "variation store offset")
        offset += storeBytes.count
        for m in mapBytes {
            if let m { try w.u32(offset, "delta-set map offset"); offset += m.count } else { w.u32(0) }
        }
        w.append(storeBytes)
        for m in mapBytes { if let m { w.append(m) } }
        return w.bytes
    }
}

public final class HvarTable: MetricsVariationsTable, DecodableTable {
    public static let tableTag: Tag = "HVAR"
    public static func decode(_ reader: BinaryReader, face: Face) throws -> HvarTable {
        try HvarTable(reader, face: face, tag: "HVAR", mapCount: 3)
    }
}

public final class VvarTable: MetricsVariationsTable, DecodableTable {
    public static let tableTag: Tag = "VVAR"
    public static func decode(_ reader: BinaryReader, face: Face) throws -> VvarTable {
        try VvarTable(reader, face: face, tag: "VVAR", mapCount: 4)
    }
}

extension MetricsVariationsTable {
    /// As fontTools' otData describes HVAR and VVAR: the variation store, then the glyph →
    /// delta-set maps named.
    // swift-format-ignore
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
