/// `VORG`, vertical origins (CFF fonts set vertically): the y of each glyph's vertical origin,
/// a default and the glyphs that differ from it. Version 2 numbers glyphs in 24 bits.
public final class VORGTable: DecodableTable, DiffableTable {
    public static let tableTag: Tag = "VORG"

    public private(set) var majorVersion: Int
    public private(set) var minorVersion: Int
    public private(set) var defaultVertOriginY: Int
    /// Glyph id → vertical origin y, for the glyphs that have their own.
    public private(set) var origins: [Int: Int]
    public private(set) var isEdited = false

    public init(majorVersion: Int = 1, minorVersion: Int = 0, defaultVertOriginY: Int, origins: [Int: Int]) {
        self.majorVersion = majorVersion; self.minorVersion = minorVersion
        self.defaultVertOriginY = defaultVertOriginY; self.origins = origins
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> VORGTable {
        var r = reader
        let major = Int(try r.u16()), minor = Int(try r.u16())
        guard major == 1 || major == 2 else { throw r.error("VORG major version \(major) is not 1 or 2", at: 0) }
        let defaultY = Int(try r.i16())
        let wide = major == 2
        let count = wide ? Int(try r.u24()) : Int(try r.u16())
        guard count <= r.remaining / (wide ? 5 : 4) else { throw r.error("VORG claims \(count) origins, more than the table holds", at: 6) }
        var origins: [Int: Int] = [:]
        for _ in 0..<count {
            let glyph = wide ? Int(try r.u24()) : Int(try r.u16())
            origins[glyph] = Int(try r.i16())
        }
        return VORGTable(majorVersion: major, minorVersion: minor, defaultVertOriginY: defaultY, origins: origins)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        let wide = majorVersion == 2
        try w.u16(majorVersion, "VORG major version"); try w.u16(minorVersion, "VORG minor version")
        try w.i16(defaultVertOriginY, "VORG defaultVertOriginY")
        if wide { try w.u24(origins.count, "VORG count") } else { try w.u16(origins.count, "VORG count") }
        for (glyph, y) in origins.sorted(by: { $0.key < $1.key }) {
            if wide { try w.u24(glyph, "VORG glyph id") } else { try w.u16(glyph, "VORG glyph id") }
            try w.i16(y, "VORG vertical origin")
        }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? VORGTable else { return nil }
        var out: [Difference] = []
        if defaultVertOriginY != other.defaultVertOriginY {
            out.append(
                Difference(
                    kind: .changed, table: "VORG", item: "defaultVertOriginY", old: String(defaultVertOriginY),
                    new: String(other.defaultVertOriginY)))
        }
        for g in Set(origins.keys).union(other.origins.keys).sorted() where origins[g] != other.origins[g] {
            let a = origins[g], b = other.origins[g]
            out.append(
                Difference(
                    kind: a == nil ? .added : b == nil ? .removed : .changed, table: "VORG", item: "glyph \(g)", old: a.map(String.init),
                    new: b.map(String.init)))
        }
        return out
    }
}

extension VORGTable: ShapeDescribed {
    /// Version 1 described, for Lua's read-only view (`face.VORG.VertOriginYMetrics`).
    // swift-format-ignore
    public static let shape: Shape = .record(Record("VORG", [
        Member("MajorVersion", .scalar(.uint16)), Member("MinorVersion", .scalar(.uint16)),
        Member("DefaultVertOriginY", .scalar(.int16)),
        Member("NumVertOriginYMetrics", .scalar(.uint16)),
        Member("VertOriginYMetrics", .record(Record("VertOriginYMetrics", [
            Member("GlyphIndex", .glyph), Member("VertOriginY", .scalar(.int16)),
        ])), count: "NumVertOriginYMetrics"),
    ]))

    public static func isDescribable(_ reader: BinaryReader) -> Bool { (try? reader.u16(at: 0)) == 1 }
}
