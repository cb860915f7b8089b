/// `cvar`, control value variations: tuple variations whose deltas move the `cvt ` values
/// (hinting) across the design space. Read-only; instancing applies them and drops it.
public final class CvarTable: DecodableTable {
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
        let variations = try TupleVariation.decodeStore(reader, headerAt: 4, axisCount: axisCount, sharedTuples: [],
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
