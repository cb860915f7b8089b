/// `sbix`, Apple's colour bitmaps: strikes for a size (ppem) and resolution, each holding per
/// glyph an image (PNG, JPEG, TIFF …, by a four-letter type) with its origin offset, or a
/// reference to another glyph's image ('dupe'), or nothing.
public final class SbixTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "sbix"

    public struct Glyph: Equatable, Sendable {
        public var originOffsetX: Int16
        public var originOffsetY: Int16
        /// "png ", "jpg ", "tiff", "dupe", "flip" …
        public var graphicType: Tag
        /// The image bytes, or for 'dupe'/'flip' the referenced glyph's id (two bytes).
        public var data: [UInt8]
        public init(originOffsetX: Int16 = 0, originOffsetY: Int16 = 0, graphicType: Tag, data: [UInt8]) {
            self.originOffsetX = originOffsetX; self.originOffsetY = originOffsetY; self.graphicType = graphicType; self.data = data
        }
        public var isReference: Bool { graphicType == "dupe" || graphicType == "flip" }
        /// The glyph a reference points at.
        public var referencedGlyph: Int? { isReference && data.count >= 2 ? Int(data[0]) << 8 | Int(data[1]) : nil }
    }

    public struct Strike: Equatable, Sendable {
        public var ppem: UInt16
        public var resolution: UInt16
        /// By glyph id; nil where a glyph has no image.
        public var glyphs: [Glyph?]
        public init(ppem: UInt16, resolution: UInt16, glyphs: [Glyph?]) {
            self.ppem = ppem; self.resolution = resolution; self.glyphs = glyphs
        }
    }

    public let version: UInt16
    /// Bit 0 is always set; bit 1: draw outlines too.
    public let flags: UInt16
    public let strikes: [Strike]
    public let isEdited = false

    public static func == (a: SbixTable, b: SbixTable) -> Bool { a.version == b.version && a.flags == b.flags && a.strikes == b.strikes }

    public init(version: UInt16 = 1, flags: UInt16 = 1, strikes: [Strike]) {
        self.version = version; self.flags = flags; self.strikes = strikes
    }

    /// Whether any strike has an image for glyph `id`.
    public func hasImage(_ id: Int) -> Bool { strikes.contains { id >= 0 && id < $0.glyphs.count && $0.glyphs[id] != nil } }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> SbixTable {
        var r = reader
        let version = try r.u16(), flags = try r.u16(), count = Int(try r.u32())
        guard count <= r.remaining / 4 else { throw r.error("sbix claims \(count) strikes, more than the table holds", at: 4) }
        let strikes = try (0..<count).map { k -> Strike in
            let start = Int(try r.u32())
            var s = try reader.sub(from: start)
            let ppem = try s.u16(), resolution = try s.u16()
            // The glyph count follows from where the first glyph's data starts (as fontTools reads it).
            let first = Int(try s.u32(at: 4))
            let glyphCount = (first - 4) / 4 - 1
            guard first >= 8, glyphCount + 1 <= s.remaining / 4 else {
                throw reader.error("sbix strike \(k): its first glyph offset \(first) does not fit the strike's offsets", at: start + 4)
            }
            let offsets = try (0...glyphCount).map { _ in Int(try s.u32()) }
            let glyphs = try (0..<glyphCount).map { g -> Glyph? in
                let a = offsets[g], b = offsets[g + 1]
                guard a <= b else {
                    throw reader.error("sbix strike \(k) glyph \(g): its data ends (\(b)) before it starts (\(a))", at: start + 4 + 4 * g)
                }
                guard b > a else { return nil }
                var d = try reader.sub(start + a, b - a)
                guard d.count >= 8 else {
                    throw reader.error("sbix strike \(k) glyph \(g): \(d.count) bytes cannot hold a glyph header", at: start + a)
                }
                return Glyph(
                    originOffsetX: try d.i16(), originOffsetY: try d.i16(), graphicType: try d.tag(), data: try d.bytes(d.remaining))
            }
            return Strike(ppem: ppem, resolution: resolution, glyphs: glyphs)
        }
        return SbixTable(version: version, flags: flags, strikes: strikes)
    }

    /// Strikes by size, as fontTools writes them; each glyph's data after the strike's offsets.
    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u16(version); w.u16(flags); try w.u32(strikes.count, "sbix strike count")
        var bodies: [[UInt8]] = []
        var at = 8 + 4 * strikes.count
        for strike in strikes {
            var s = BinaryWriter()
            s.u16(strike.ppem); s.u16(strike.resolution)
            var offset = 4 + 4 * (strike.glyphs.count + 1)
            for g in strike.glyphs {
                try s.u32(offset, "sbix glyph offset")
                offset += g.map { 8 + $0.data.count } ?? 0
            }
            try s.u32(offset, "sbix glyph offset")
            for case let g? in strike.glyphs { s.i16(g.originOffsetX); s.i16(g.originOffsetY); s.tag(g.graphicType); s.append(g.data) }
            try w.u32(at, "sbix strike offset")
            at += s.count
            bodies.append(s.bytes)
        }
        for b in bodies { w.append(b) }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? SbixTable else { return nil }
        func items(_ t: SbixTable) -> [(String, String)] {
            var out = [("version", "\(t.version)"), ("flags", "\(t.flags)")]
            for s in t.strikes {
                out.append(("strike \(s.ppem)", "resolution \(s.resolution)"))
                for (g, glyph) in s.glyphs.enumerated() {
                    guard let glyph else { continue }
                    let content = glyph.referencedGlyph.map { "→ glyph \($0)" } ?? Difference.summary(ofBytes: glyph.data)
                    out.append(
                        (
                            "strike \(s.ppem) glyph \(g)",
                            "\(glyph.graphicType.description) at (\(glyph.originOffsetX), \(glyph.originOffsetY)): \(content)"
                        ))
                }
            }
            return out
        }
        return Difference.keyed(table: "sbix", items(self), items(other))
    }
}
