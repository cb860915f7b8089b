/// `avar`, axis variations: per axis, a piecewise-linear map that bends normalized coordinates
/// (so wght=500 can sit nearer Bold than the straight line would put it). Version 2 adds an
/// ItemVariationStore over the axes themselves: after the segment maps, each axis moves by a
/// delta that depends on the whole location (one axis can steer others). Both are applied
/// (`Face.location`); version 2's data is kept as bytes when the table is saved.
public final class AvarTable: DecodableTable, DiffableTable {
    public static let tableTag: Tag = "avar"

    /// One axis's map: (from, to) pairs in normalized coordinates, ascending.
    public typealias SegmentMap = [(from: Double, to: Double)]

    public private(set) var maps: [SegmentMap]
    public let majorVersion: Int
    /// What follows the segment maps in version 2 (offsets and data), as read.
    let version2Tail: [UInt8]
    /// Version 2: the axis index map (axis i → store item; nil: item i of data 0) and the store.
    let axisIndexMap: DeltaSetIndexMap?
    let axisStore: ItemVariationStore?
    public private(set) var isEdited = false

    public var hasVersion2Mappings: Bool { majorVersion >= 2 }

    /// A version 1 table of these maps, one per fvar axis.
    public convenience init(maps: [SegmentMap]) { self.init(maps: maps, majorVersion: 1, version2Tail: []) }

    /// A version 2 table: the maps, then an axis index map and a store (their encoded bytes,
    /// either may be absent), laid out after the maps in that order.
    public static func version2(maps: [SegmentMap], indexMap: [UInt8]?, store: [UInt8]?) throws -> AvarTable {
        let start = 8 + maps.reduce(0) { $0 + 2 + 4 * $1.count } + 8
        var tail = BinaryWriter()
        try tail.u32(indexMap == nil ? 0 : start, "avar axis index map offset")
        try tail.u32(store == nil ? 0 : start + (indexMap?.count ?? 0), "avar variation store offset")
        if let indexMap { tail.append(indexMap) }
        if let store { tail.append(store) }
        return AvarTable(maps: maps, majorVersion: 2, version2Tail: tail.bytes)
    }

    /// Version 2: the axis index map's format (0 or 1) and entries as outer << 16 | inner,
    /// and the store's bytes, as stored (for TTX).
    public var version2Parts: (indexMap: (format: Int, entries: [Int])?, store: [UInt8]?) {
        guard majorVersion >= 2, version2Tail.count >= 8 else { return (nil, nil) }
        let headerSize = 8 + maps.reduce(0) { $0 + 2 + 4 * $1.count }
        func u32(_ at: Int) -> Int { version2Tail[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let mapOffset = u32(0), storeOffset = u32(4)
        var indexMap: (Int, [Int])?
        if let map = axisIndexMap, mapOffset >= headerSize, mapOffset - headerSize < version2Tail.count {
            indexMap = (Int(version2Tail[mapOffset - headerSize]), map.entries.map { $0.outer << 16 | $0.inner })
        }
        var store: [UInt8]?
        if axisStore != nil, storeOffset >= headerSize, storeOffset - headerSize < version2Tail.count {
            // The store runs to the end of the table, or to the index map when that follows it.
            let end = mapOffset > storeOffset ? mapOffset - headerSize : version2Tail.count
            store = Array(version2Tail[(storeOffset - headerSize)..<max(storeOffset - headerSize, min(end, version2Tail.count))])
        }
        return (indexMap, store)
    }

    init(
        maps: [SegmentMap], majorVersion: Int, version2Tail: [UInt8], axisIndexMap: DeltaSetIndexMap? = nil,
        axisStore: ItemVariationStore? = nil
    ) {
        self.maps = maps; self.majorVersion = majorVersion; self.version2Tail = version2Tail
        self.axisIndexMap = axisIndexMap; self.axisStore = axisStore
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> AvarTable {
        var r = reader
        let major = Int(try r.u16())
        _ = try r.u16()
        guard major == 1 || major == 2 else { throw r.error("avar major version \(major) is not 1 or 2", at: 0) }
        try r.skip(2)
        let axisCount = Int(try r.u16())
        if let fvar = try face.table(FvarTable.self), fvar.axes.count != axisCount {
            throw r.error("avar has maps for \(axisCount) axes but fvar has \(fvar.axes.count)", at: 6)
        }
        var maps: [SegmentMap] = []
        for axis in 0..<axisCount {
            let count = Int(try r.u16())
            guard count * 4 <= r.remaining else {
                throw r.error("avar map of axis \(axis) claims \(count) pairs, more than the table holds")
            }
            var map: SegmentMap = []
            for _ in 0..<count {
                let at = r.offset
                let from = try r.f2dot14().value, to = try r.f2dot14().value
                if let last = map.last, from <= last.from || to < last.to {
                    throw r.error("avar map of axis \(axis) is not monotonic: (\(from) → \(to)) after (\(last.from) → \(last.to))", at: at)
                }
                map.append((from, to))
            }
            maps.append(map)
        }
        guard major >= 2 else { return AvarTable(maps: maps, majorVersion: major, version2Tail: []) }
        let tail = Array(try reader.sub(from: r.offset).bytes)
        let mapOffset = Int(try r.u32()), storeOffset = Int(try r.u32())
        let indexMap = mapOffset == 0 ? nil : try DeltaSetIndexMap(reader, at: mapOffset, what: "avar")
        let store = storeOffset == 0 ? nil : try ItemVariationStore(reader, at: storeOffset, axisCount: axisCount, what: "avar")
        return AvarTable(maps: maps, majorVersion: major, version2Tail: tail, axisIndexMap: indexMap, axisStore: store)
    }

    /// Version 2's step: `mapped` holds every axis's coordinate after its segment map (not yet
    /// quantized); each moves by its delta from the store evaluated there, in F2Dot14 units,
    /// and is clamped to -1…1. Returns the final coordinates, quantized. As fontTools'
    /// `renormalizeLocation` computes it (the store sees the unquantized coordinates).
    public func applyVersion2(_ mapped: [Double]) -> [Double] {
        let quantized = mapped.map { Int(($0 * F2Dot14.scale).otRounded) }
        guard majorVersion >= 2, let store = axisStore else { return quantized.map { Double($0) / F2Dot14.scale } }
        let scalars = store.scalars(at: mapped)
        return quantized.enumerated().map { axis, v in
            let item = axisIndexMap?.index(axis) ?? (outer: 0, inner: axis)
            let moved = v + store.delta(outer: item.outer, inner: item.inner, scalars: scalars).otRoundedInt
            return Double(min(max(moved, -16384), 16384)) / F2Dot14.scale
        }
    }

    /// A normalized coordinate of axis `axis` through its map (unchanged when it has none).
    public func map(_ value: Double, axis: Int) -> Double {
        guard axis < maps.count else { return value }
        return Self.piecewiseLinear(value, maps[axis])
    }

    static func piecewiseLinear(_ v: Double, _ map: SegmentMap) -> Double {
        guard let first = map.first, let last = map.last else { return v }
        if v <= first.from { return v + first.to - first.from }
        if v >= last.from { return v + last.to - last.from }
        var i = 1
        while map[i].from < v { i += 1 }
        let a = map[i - 1], b = map[i]
        if v == b.from { return b.to }
        return a.to + (b.to - a.to) * (v - a.from) / (b.from - a.from)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        try w.u16(majorVersion, "avar version"); w.u16(0); w.u16(0)
        try w.u16(maps.count, "avar axis count")
        for map in maps {
            try w.u16(map.count, "avar map length")
            for p in map {
                w.f2dot14(F2Dot14(clamping: p.from))
                w.f2dot14(F2Dot14(clamping: p.to))
            }
        }
        w.append(version2Tail)
        return w.bytes
    }
}

extension AvarTable {
    /// Each axis's map (by axis index: avar does not name its axes), and version 2's axis store.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? AvarTable else { return nil }
        var out: [Difference] = []
        if majorVersion != other.majorVersion {
            out.append(Difference(kind: .changed, table: "avar", item: "version", old: "\(majorVersion)", new: "\(other.majorVersion)"))
        }
        func text(_ map: SegmentMap) -> String {
            map.map { "\(F2Dot14(clamping: $0.from).shortest)→\(F2Dot14(clamping: $0.to).shortest)" }.joined(separator: " ")
        }
        for k in 0..<max(maps.count, other.maps.count) {
            let a = k < maps.count ? text(maps[k]) : nil, b = k < other.maps.count ? text(other.maps[k]) : nil
            if a != b {
                out.append(
                    Difference(kind: a == nil ? .added : b == nil ? .removed : .changed, table: "avar", item: "axis \(k)", old: a, new: b))
            }
        }
        let (mapA, storeA) = version2Parts, (mapB, storeB) = other.version2Parts
        if mapA?.entries != mapB?.entries {
            out.append(
                Difference(
                    kind: .changed, table: "avar", item: "axis index map", old: "\(mapA?.entries.count ?? 0) entries",
                    new: "\(mapB?.entries.count ?? 0) entries"))
        }
        if storeA != storeB {
            out.append(
                Difference(
                    kind: .changed, table: "avar", item: "axis variation store", old: "\(storeA?.count ?? 0) bytes",
                    new: "\(storeB?.count ?? 0) bytes"))
        }
        return out
    }
}
