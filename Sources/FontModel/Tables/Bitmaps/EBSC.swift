/// `EBSC`, embedded bitmap scaling: sizes with no strike of their own, each drawn by scaling the
/// strike of another size (substitutePpemX/Y), with its own line metrics.
public final class EBSCTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "EBSC"

    public struct Scale: Equatable, Sendable {
        public var hori: EmbeddedBitmaps.ByteRecord
        public var vert: EmbeddedBitmaps.ByteRecord
        /// ppemX, ppemY, substitutePpemX, substitutePpemY.
        public static let sizeNames = ["ppemX", "ppemY", "substitutePpemX", "substitutePpemY"]
        public var sizes: [UInt8]
        public init(hori: EmbeddedBitmaps.ByteRecord, vert: EmbeddedBitmaps.ByteRecord, sizes: [UInt8]) {
            self.hori = hori; self.vert = vert; self.sizes = sizes
        }
    }

    /// 16.16 (0x00020000).
    public let version: UInt32
    public let scales: [Scale]
    public let isEdited = false

    public static func == (a: EBSCTable, b: EBSCTable) -> Bool { a.version == b.version && a.scales == b.scales }

    public init(version: UInt32 = 0x0002_0000, scales: [Scale]) { self.version = version; self.scales = scales }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> EBSCTable {
        var r = reader
        let version = try r.u32(), count = Int(try r.u32())
        guard count <= r.remaining / 28 else { throw r.error("EBSC claims \(count) sizes, more than the table holds", at: 4) }
        let scales = try (0..<count).map { _ in
            Scale(hori: try .read(.lineMetrics, &r), vert: try .read(.lineMetrics, &r), sizes: try r.bytes(4))
        }
        return EBSCTable(version: version, scales: scales)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u32(version); try w.u32(scales.count, "EBSC size count")
        for s in scales {
            guard s.sizes.count == 4 else {
                throw FontError("an EBSC size needs ppemX, ppemY, substitutePpemX and substitutePpemY", table: "EBSC")
            }
            try s.hori.write(&w); try s.vert.write(&w); w.append(s.sizes)
        }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? EBSCTable else { return nil }
        func items(_ t: EBSCTable) -> [(String, String)] {
            [("version", "\(shortestDecimal(Int64(t.version), scale: Fixed.scale))")]
                + t.scales.enumerated().map { k, s in
                    (
                        "size \(k)",
                        "\(s.sizes[0])×\(s.sizes[1]) from \(s.sizes[2])×\(s.sizes[3]), hori \(s.hori.values), vert \(s.vert.values)"
                    )
                }
        }
        return Difference.keyed(table: "EBSC", items(self), items(other))
    }
}
