/// `hdmx`, horizontal device metrics: for a few sizes (ppem), each glyph's hinted advance width
/// in pixels, so a rasterizer need not run the glyph's instructions to lay out text. Each
/// record holds a width per glyph (maxp's count) and is padded to four bytes.
public final class HdmxTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "hdmx"

    public struct Record: Equatable, Sendable {
        public var ppem: UInt8
        /// The largest width (written back as the maximum of `widths`).
        public var maxWidth: UInt8
        public var widths: [UInt8]
        public init(ppem: UInt8, maxWidth: UInt8, widths: [UInt8]) { self.ppem = ppem; self.maxWidth = maxWidth; self.widths = widths }
    }

    public let version: UInt16
    public let records: [Record]
    public let isEdited = false

    public static func == (a: HdmxTable, b: HdmxTable) -> Bool { a.version == b.version && a.records == b.records }

    public init(version: UInt16 = 0, records: [Record]) { self.version = version; self.records = records }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> HdmxTable {
        var r = reader
        let version = try r.u16(), count = Int(try r.u16()), size = Int(try r.i32())
        let glyphs = try face.glyphCount
        guard size >= 2 + glyphs else { throw r.error("hdmx records of \(size) bytes cannot hold \(glyphs) widths", at: 4) }
        guard count <= r.remaining / size else {
            throw r.error("hdmx claims \(count) records of \(size) bytes, more than the table holds", at: 2)
        }
        let records = try (0..<count).map { k -> Record in
            var rec = try reader.sub(8 + k * size, size)
            return Record(ppem: try rec.u8(), maxWidth: try rec.u8(), widths: try rec.bytes(glyphs))
        }
        return HdmxTable(version: version, records: records)
    }

    public func encode() throws -> [UInt8] {
        let glyphs = records.first?.widths.count ?? 0
        guard records.allSatisfy({ $0.widths.count == glyphs }) else {
            throw FontError("hdmx records need a width for each of the same glyphs", table: "hdmx")
        }
        let size = (2 + glyphs + 3) / 4 * 4
        var w = BinaryWriter()
        w.u16(version); try w.u16(records.count, "hdmx record count"); try w.u32(size, "hdmx record size")
        for rec in records {
            w.u8(rec.ppem); w.u8(rec.maxWidth); w.append(rec.widths)
            w.append(repeatElement(0, count: size - 2 - glyphs))
        }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? HdmxTable else { return nil }
        func items(_ t: HdmxTable) -> [(String, String)] {
            [("version", "\(t.version)")]
                + t.records.flatMap { rec in
                    [("ppem \(rec.ppem) maximum", "\(rec.maxWidth)")]
                        + rec.widths.enumerated().map { ("ppem \(rec.ppem) glyph \($0.offset)", "\($0.element)") }
                }
        }
        return Difference.keyed(table: "hdmx", items(self), items(other))
    }
}
