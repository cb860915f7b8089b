/// `Glat` and `Gloc`, Graphite's glyph attributes. Glat holds, per glyph, runs of numbered
/// attribute values (16-bit), and in version 3 an optional octabox (a glyph's outline as
/// subboxes on a 4×4 grid plus diagonals, for collision avoidance); Gloc says where each
/// glyph's entry starts in Glat. Glat version 3 may be compressed (LZ4).
public final class GlocTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "Gloc"

    public let version: UInt32
    /// numGlyphs + 1 offsets into Glat.
    public let locations: [UInt32]
    public let attributeCount: UInt16
    /// Attribute name IDs (flag bit 1), one per attribute; empty without.
    public let attributeNames: [UInt16]
    public let isEdited = false

    public static func == (a: GlocTable, b: GlocTable) -> Bool {
        a.version == b.version && a.locations == b.locations && a.attributeCount == b.attributeCount && a.attributeNames == b.attributeNames
    }

    public init(version: UInt32 = 0x0001_0000, locations: [UInt32], attributeCount: UInt16, attributeNames: [UInt16] = []) {
        self.version = version; self.locations = locations; self.attributeCount = attributeCount; self.attributeNames = attributeNames
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> GlocTable {
        var r = reader
        let version = try r.u32(), flags = try r.u16(), attributeCount = try r.u16()
        let wide = flags & 1 != 0, named = flags & 2 != 0
        let namesSize = named ? 2 * Int(attributeCount) : 0
        guard namesSize <= r.remaining else {
            throw r.error("Gloc's \(attributeCount) attribute names do not fit the table (\(reader.count) bytes)")
        }
        let count = (r.remaining - namesSize) / (wide ? 4 : 2)
        let locations = try (0..<count).map { _ in wide ? try r.u32() : UInt32(try r.u16()) }
        var n = try reader.sub(reader.count - namesSize, namesSize)
        let names = try (0..<namesSize / 2).map { _ in try n.u16() }
        return GlocTable(version: version, locations: locations, attributeCount: attributeCount, attributeNames: names)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        // Long offsets when any needs them (a damaged index need not ascend).
        let wide = locations.contains { $0 > 0xFFFF }
        w.u32(version); w.u16((wide ? 1 : 0) | (attributeNames.isEmpty ? 0 : 2)); w.u16(attributeCount)
        for l in locations { if wide { w.u32(l) } else { w.u16(UInt16(l)) } }
        for n in attributeNames { w.u16(n) }
        return w.bytes
    }

    /// The same index with new locations (after Glat was rewritten).
    public func with(locations: [UInt32]) -> GlocTable {
        GlocTable(version: version, locations: locations, attributeCount: attributeCount, attributeNames: attributeNames)
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? GlocTable else { return nil }
        func items(_ t: GlocTable) -> [(String, String)] {
            [
                ("version", Graphite.versionText(t.version)), ("attributes", "\(t.attributeCount)"),
                ("attribute names", t.attributeNames.map(String.init).joined(separator: " ")),
                ("glyphs", "\(max(t.locations.count - 1, 0))"),
            ]
        }
        return Difference.keyed(table: "Gloc", items(self), items(other))
    }
}

public final class GlatTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "Glat"

    /// An attribute and its value.
    public struct Attribute: Equatable, Sendable {
        public var index: UInt16
        public var value: Int16
        public init(index: UInt16, value: Int16) { self.index = index; self.value = value }
    }

    /// Eight extents in 1/255 of the glyph's bounding box: a box and its two diagonals.
    public struct Box: Equatable, Sendable {
        public var values: [UInt8]
        public init(values: [UInt8]) { self.values = values }
    }

    /// Glat 3's collision outline: which of the 16 grid cells have subboxes, the glyph's
    /// diagonal extents (four values), and one eight-value box per subbox.
    public struct Octabox: Equatable, Sendable {
        public var subboxBitmap: UInt16
        public var diagonals: [UInt8]
        public var subboxes: [Box]
        public init(subboxBitmap: UInt16, diagonals: [UInt8], subboxes: [Box]) {
            self.subboxBitmap = subboxBitmap; self.diagonals = diagonals; self.subboxes = subboxes
        }
    }

    public struct Glyph: Equatable, Sendable {
        public var octabox: Octabox?
        /// Sorted by index, each index once.
        public var attributes: [Attribute]
        public init(octabox: Octabox? = nil, attributes: [Attribute]) { self.octabox = octabox; self.attributes = attributes }
    }

    public let version: UInt32
    /// 0: stored as is; 1: LZ4 (version 3 only).
    public let compression: Int
    /// Version 3: every glyph has an octabox.
    public let hasOctaboxes: Bool
    public let glyphs: [Glyph]
    public let isEdited = false

    public static func == (a: GlatTable, b: GlatTable) -> Bool {
        a.version == b.version && a.compression == b.compression && a.hasOctaboxes == b.hasOctaboxes && a.glyphs == b.glyphs
    }

    public init(version: UInt32, compression: Int = 0, hasOctaboxes: Bool = false, glyphs: [Glyph]) {
        self.version = version; self.compression = compression; self.hasOctaboxes = hasOctaboxes; self.glyphs = glyphs
    }

    /// Format 1 (version 1.x) numbers attributes with bytes, formats 2 and 3 with 16 bits.
    var major: UInt32 { version >> 16 }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> GlatTable {
        guard let gloc = try face.table(GlocTable.self) else {
            throw reader.error("Glat needs its Gloc table, which says where each glyph's attributes start", at: 0)
        }
        let version = try reader.u32(at: 0)
        let (bytes, compression) = version >> 16 >= 3 ? try Graphite.expand(reader, tableTag) : (Array(reader.bytes), 0)
        return try bytes.withUnsafeBytes { raw in
            let data = BinaryReader(raw, base: compression == 0 ? reader.base : 0)
            let hasOctaboxes = try version >> 16 >= 3 && data.u32(at: 4) & 1 != 0
            let locations = gloc.locations
            var glyphs: [Glyph] = []
            glyphs.reserveCapacity(max(locations.count - 1, 0))
            for g in 0..<max(locations.count - 1, 0) {
                let start = Int(locations[g]), end = Int(locations[g + 1])
                guard start <= end, end <= data.count else {
                    throw data.error(
                        "Glat glyph \(g): Gloc places its attributes at \(start)..<\(end), outside the table (\(data.count) bytes)",
                        at: min(start, data.count))
                }
                var r = try data.sub(start, end - start)
                glyphs.append(try readGlyph(&r, major: version >> 16, octabox: hasOctaboxes, glyph: g))
            }
            return GlatTable(version: version, compression: compression, hasOctaboxes: hasOctaboxes, glyphs: glyphs)
        }
    }

    static func readGlyph(_ r: inout BinaryReader, major: UInt32, octabox: Bool, glyph: Int) throws -> Glyph {
        var box: Octabox?
        if octabox {
            let bitmap = try r.u16()
            let diagonals = try r.bytes(4)
            let subboxes = try (0..<bitmap.nonzeroBitCount).map { _ in Box(values: try r.bytes(8)) }
            box = Octabox(subboxBitmap: bitmap, diagonals: diagonals, subboxes: subboxes)
        }
        var values: [UInt16: Int16] = [:]
        // Runs of (first attribute, count, values); a few trailing bytes are padding.
        while r.remaining > 3 {
            let first = major < 2 ? UInt16(try r.u8()) : try r.u16()
            let count = major < 2 ? Int(try r.u8()) : Int(try r.u16())
            guard 2 * count <= r.remaining else {
                throw r.error("Glat glyph \(glyph): a run of \(count) attributes does not fit its \(r.count) bytes")
            }
            for k in 0..<count { values[first &+ UInt16(truncatingIfNeeded: k)] = try r.i16() }
        }
        return Glyph(octabox: box, attributes: values.sorted { $0.key < $1.key }.map { Attribute(index: $0.key, value: $0.value) })
    }

    /// The Glat bytes and the Gloc locations that index them.
    public func encodeWithLocations() throws -> (glat: [UInt8], locations: [UInt32]) {
        var w = BinaryWriter()
        w.u32(version)
        if major >= 3 { w.u32(hasOctaboxes ? 1 : 0) }
        var locations: [UInt32] = []
        locations.reserveCapacity(glyphs.count + 1)
        for (g, glyph) in glyphs.enumerated() {
            locations.append(UInt32(w.count))
            if major >= 3 && hasOctaboxes {
                let box = glyph.octabox ?? Octabox(subboxBitmap: 0, diagonals: [0, 0, 0, 0], subboxes: [])
                guard box.subboxes.count == box.subboxBitmap.nonzeroBitCount else {
                    throw FontError(
                        "Glat glyph \(g): its octabox bitmap names \(box.subboxBitmap.nonzeroBitCount) subboxes but has \(box.subboxes.count)",
                        table: "Glat")
                }
                w.u16(box.subboxBitmap); w.append(box.diagonals)
                for s in box.subboxes { w.append(s.values) }
            }
            // Runs of consecutive attribute numbers.
            var k = 0
            let attributes = glyph.attributes
            while k < attributes.count {
                var end = k + 1
                while end < attributes.count && attributes[end].index == attributes[end - 1].index &+ 1 && (major >= 2 || end - k < 255) {
                    end += 1
                }
                if major < 2 {
                    try w.u8(Int(attributes[k].index), "Glat version 1 attribute number (Glat 2 numbers attributes past 255)");
                    w.u8(UInt8(end - k))
                } else {
                    w.u16(attributes[k].index); try w.u16(end - k, "Glat attribute run")
                }
                for a in attributes[k..<end] { w.i16(a.value) }
                k = end
            }
        }
        locations.append(UInt32(w.count))
        return (try Graphite.compress(w.bytes, scheme: compression, "Glat"), locations)
    }

    public func encode() throws -> [UInt8] { try encodeWithLocations().glat }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? GlatTable else { return nil }
        func items(_ t: GlatTable) -> [(String, String)] {
            var out = [("version", Graphite.versionText(t.version)), ("compression", "\(t.compression)")]
            for (g, glyph) in t.glyphs.enumerated() {
                if let box = glyph.octabox {
                    out.append(
                        (
                            "glyph \(g) octabox",
                            "\(String(box.subboxBitmap, radix: 16, uppercase: true)) \(box.diagonals) \(box.subboxes.map(\.values))"
                        ))
                }
                for a in glyph.attributes { out.append(("glyph \(g) attribute \(a.index)", "\(a.value)")) }
            }
            return out
        }
        return Difference.keyed(table: "Glat", items(self), items(other))
    }
}
