/// `cvar`, control value variations: tuple variations whose deltas move the `cvt ` values
/// (hinting) across the design space. Read-only; instancing applies them and drops it.
public final class CvarTable: DecodableTable, DiffableTable {
    public static let tableTag: Tag = "cvar"

    public let variations: [TupleVariation]
    public var isEdited: Bool { false }
    let bytes: [UInt8]

    init(variations: [TupleVariation], bytes: [UInt8]) { self.variations = variations; self.bytes = bytes }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> CvarTable {
        var r = reader
        let major = try r.u16()
        _ = try r.u16()
        guard major == 1 else { throw r.error("cvar major version \(major) is not 1", at: 0) }
        let axisCount = try face.table(FvarTable.self)?.axes.count ?? 0
        let cvtCount = (face.storedLength("cvt ") ?? 0) / 2
        let variations = try TupleVariation.decodeStore(
            reader, headerAt: 4, axisCount: axisCount, sharedTuples: [],
            pointCount: cvtCount, hasY: false, what: "cvar")
        return CvarTable(variations: variations, bytes: Array(reader.bytes))
    }

    public func encode() throws -> [UInt8] { bytes }

    /// A version 1.0 table of these variations (what a TTX `<cvar>` says).
    public static func encoded(_ variations: [TupleVariation]) throws -> [UInt8] {
        let store = try TupleVariation.encodeStore(variations, sharedPeaks: [:], hasY: false, dataOffsetBase: 4, what: "cvar")
        return [0, 1, 0, 0] + (store.isEmpty ? [0, 0, 0, 8] : store)
    }
}

extension CvarTable {
    /// Tuples by index: a changed region, or control values whose deltas changed (by cvt index).
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? CvarTable else { return nil }
        var out: [Difference] = []
        func region(_ t: TupleVariation) -> String {
            t.peak.indices.map { i in
                let peak = F2Dot14(clamping: t.peak[i]).shortest
                guard let s = t.start?[i], let e = t.end?[i] else { return "\(peak)" }
                return "\(F2Dot14(clamping: s).shortest)…\(peak)…\(F2Dot14(clamping: e).shortest)"
            }.joined(separator: ", ")
        }
        func deltas(_ t: TupleVariation) -> [Int: Int] {
            Dictionary(zip(t.points ?? Array(t.x.indices), t.x).map { ($0, $1) }, uniquingKeysWith: { a, b in a + b })
        }
        for k in 0..<max(variations.count, other.variations.count) {
            let item = "tuple \(k)"
            guard k < variations.count else {
                out.append(Difference(kind: .added, table: "cvar", item: item, old: nil, new: region(other.variations[k]))); continue
            }
            guard k < other.variations.count else {
                out.append(Difference(kind: .removed, table: "cvar", item: item, old: region(variations[k]), new: nil)); continue
            }
            let a = variations[k], b = other.variations[k]
            if region(a) != region(b) {
                out.append(Difference(kind: .changed, table: "cvar", item: "\(item) region", old: region(a), new: region(b)))
            }
            let da = deltas(a), db = deltas(b)
            for index in Set(da.keys).union(db.keys).sorted() where da[index] != db[index] {
                out.append(
                    Difference(
                        kind: .changed, table: "cvar", item: "\(item) cvt \(index)", old: da[index].map(String.init) ?? "0",
                        new: db[index].map(String.init) ?? "0"))
            }
        }
        return out
    }
}
