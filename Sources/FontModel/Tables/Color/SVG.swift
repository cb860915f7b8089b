/// `SVG `, colour glyphs as SVG documents: each document draws a range of glyphs (its
/// elements with id "glyphN"), and may be stored gzip-compressed. Documents shared by several
/// ranges are stored once.
public final class SVGTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "SVG "

    public struct Document: Equatable, Sendable {
        public var firstGlyph: UInt16
        public var lastGlyph: UInt16
        /// The document's text (UTF-8), uncompressed.
        public var text: String
        /// Stored gzip-compressed.
        public var compressed: Bool
        public init(firstGlyph: UInt16, lastGlyph: UInt16, text: String, compressed: Bool = false) {
            self.firstGlyph = firstGlyph; self.lastGlyph = lastGlyph; self.text = text; self.compressed = compressed
        }
    }

    public let version: UInt16
    public let documents: [Document]
    public let isEdited = false

    public static func == (a: SVGTable, b: SVGTable) -> Bool { a.version == b.version && a.documents == b.documents }

    public init(version: UInt16 = 0, documents: [Document]) { self.version = version; self.documents = documents }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> SVGTable {
        var r = reader
        let version = try r.u16()
        let indexAt = Int(try r.u32())
        var index = try reader.sub(from: indexAt)
        let count = Int(try index.u16())
        guard count <= index.remaining / 12 else { throw index.error("SVG claims \(count) documents, more than its index holds", at: 0) }
        var decoded: [Int: (String, Bool)] = [:]   // shared documents are inflated once
        let documents = try (0..<count).map { k -> Document in
            let first = try index.u16(), last = try index.u16(), offset = Int(try index.u32()), length = Int(try index.u32())
            guard first <= last else {
                throw index.error("SVG document \(k) covers glyphs \(first)–\(last), which runs backwards", at: index.offset - 12)
            }
            let start = indexAt + offset
            if let (text, compressed) = decoded[start << 32 | length] {
                return Document(firstGlyph: first, lastGlyph: last, text: text, compressed: compressed)
            }
            var bytes = Array(try reader.sub(start, length).bytes)
            let compressed = Gzip.isGzip(bytes)
            if compressed {
                do { bytes = try Gzip.decompress(bytes, what: "SVG document \(k)") } catch let e as FontError {
                    throw reader.error(e.message, at: start)
                }
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw reader.error("SVG document \(k) is not UTF-8 text", at: start)
            }
            decoded[start << 32 | length] = (text, compressed)
            return Document(firstGlyph: first, lastGlyph: last, text: text, compressed: compressed)
        }
        return SVGTable(version: version, documents: documents)
    }

    /// Laid out as fontTools lays it out: the index right after the header, then each distinct
    /// document once (compressed ones only when that is smaller).
    public func encode() throws -> [UInt8] {
        var stored: [[UInt8]] = []
        var offsetOf: [[UInt8]: Int] = [:]
        var entries: [(UInt16, UInt16, Int, Int)] = []
        var at = 2 + 12 * documents.count
        for d in documents {
            var bytes = Array(d.text.utf8)
            if d.compressed {
                let packed = try Gzip.compress(bytes)
                if packed.count < bytes.count { bytes = packed }
            }
            if let shared = offsetOf[bytes] { entries.append((d.firstGlyph, d.lastGlyph, shared, bytes.count)); continue }
            offsetOf[bytes] = at
            entries.append((d.firstGlyph, d.lastGlyph, at, bytes.count))
            stored.append(bytes)
            at += bytes.count
        }
        var w = BinaryWriter()
        w.u16(version); w.u32(10); w.u32(0)
        try w.u16(documents.count, "SVG document count")
        for (first, last, offset, length) in entries {
            w.u16(first); w.u16(last); try w.u32(offset, "SVG document offset"); try w.u32(length, "SVG document length")
        }
        for s in stored { w.append(s) }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? SVGTable else { return nil }
        func items(_ t: SVGTable) -> [(String, String)] {
            [("version", "\(t.version)")]
                + t.documents.map { d -> (String, String) in
                    // Short documents in full; long ones by size and checksum.
                    let text = d.text.utf8.count <= 80 ? d.text : Difference.summary(ofBytes: d.text.utf8)
                    return ("glyphs \(d.firstGlyph)–\(d.lastGlyph)", text + (d.compressed ? " (gzipped)" : ""))
                }
        }
        return Difference.keyed(table: "SVG", items(self), items(other))
    }
}
