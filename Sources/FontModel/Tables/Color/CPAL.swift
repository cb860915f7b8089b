/// `CPAL`, colour palettes for COLR glyphs: palettes of the same number of colours (sRGB with
/// alpha), and in version 1 each palette's type (1 usable on light backgrounds, 2 on dark) and
/// name, and each colour slot's name.
public final class CPALTable: DecodableTable, DiffableTable {
    public static let tableTag: Tag = "CPAL"
    public static let noName = 0xFFFF

    public struct Color: Equatable, Sendable {
        public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        }
        /// "#RRGGBBAA", as fontTools writes colours.
        public var hex: String {
            "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        }
    }

    public private(set) var version: Int
    public private(set) var entryCount: Int
    public private(set) var palettes: [[Color]]
    /// Version 1: per palette its type flags and name id; per entry its name id (0xFFFF: none).
    public private(set) var paletteTypes: [UInt32]
    public private(set) var paletteLabels: [Int]
    public private(set) var entryLabels: [Int]
    public private(set) var isEdited = false

    public init(
        version: Int, entryCount: Int, palettes: [[Color]], paletteTypes: [UInt32] = [], paletteLabels: [Int] = [], entryLabels: [Int] = []
    ) throws {
        guard palettes.allSatisfy({ $0.count == entryCount }) else {
            throw FontError("CPAL: every palette needs \(entryCount) colours", table: "CPAL")
        }
        self.version = version; self.entryCount = entryCount; self.palettes = palettes
        self.paletteTypes = paletteTypes.count == palettes.count ? paletteTypes : Array(repeating: 0, count: palettes.count)
        self.paletteLabels = paletteLabels.count == palettes.count ? paletteLabels : Array(repeating: Self.noName, count: palettes.count)
        self.entryLabels = entryLabels.count == entryCount ? entryLabels : Array(repeating: Self.noName, count: entryCount)
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> CPALTable {
        var r = reader
        let version = Int(try r.u16()), entries = Int(try r.u16()), count = Int(try r.u16()), records = Int(try r.u16())
        let recordsAt = Int(try r.u32())
        guard version <= 1 else { throw r.error("CPAL version \(version) is not 0 or 1", at: 0) }
        guard records <= (reader.count - min(recordsAt, reader.count)) / 4 else {
            throw r.error("CPAL claims \(records) colours, more than the table holds", at: 6)
        }
        var starts: [Int] = []
        for k in 0..<count {
            let start = Int(try r.u16())
            guard start + entries <= records else {
                throw r.error("CPAL palette \(k) runs past the \(records) colour records", at: r.offset - 2)
            }
            starts.append(start)
        }
        let palettes: [[Color]] = try starts.map { start in
            try (0..<entries).map { e in
                var c = try reader.sub(recordsAt + 4 * (start + e), 4)
                let b = try c.u8(), g = try c.u8(), red = try c.u8(), a = try c.u8()
                return Color(red: red, green: g, blue: b, alpha: a)
            }
        }
        var types: [UInt32] = [], labels: [Int] = [], entryLabels: [Int] = []
        if version >= 1 {
            let typesAt = Int(try r.u32()), labelsAt = Int(try r.u32()), entryLabelsAt = Int(try r.u32())
            if typesAt != 0 { var t = try reader.sub(typesAt, 4 * count); types = try (0..<count).map { _ in try t.u32() } }
            if labelsAt != 0 { var t = try reader.sub(labelsAt, 2 * count); labels = try (0..<count).map { _ in Int(try t.u16()) } }
            if entryLabelsAt != 0 {
                var t = try reader.sub(entryLabelsAt, 2 * entries); entryLabels = try (0..<entries).map { _ in Int(try t.u16()) }
            }
        }
        return try CPALTable(
            version: version, entryCount: entries, palettes: palettes, paletteTypes: types, paletteLabels: labels, entryLabels: entryLabels)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        let header = 12 + 2 * palettes.count + (version >= 1 ? 12 : 0)
        try w.u16(version, "CPAL version"); try w.u16(entryCount, "CPAL palette size")
        try w.u16(palettes.count, "CPAL palette count"); try w.u16(palettes.count * entryCount, "CPAL colour count")
        try w.u32(header, "CPAL colour records offset")
        for k in palettes.indices { try w.u16(k * entryCount, "CPAL palette start") }
        let colorsEnd = header + 4 * palettes.count * entryCount
        if version >= 1 {
            let hasTypes = paletteTypes.contains { $0 != 0 }, hasLabels = paletteLabels.contains { $0 != Self.noName }
            let hasEntryLabels = entryLabels.contains { $0 != Self.noName }
            var at = colorsEnd
            func place(_ used: Bool, _ size: Int) -> Int { guard used else { return 0 }; defer { at += size }; return at }
            try w.u32(place(hasTypes, 4 * palettes.count), "CPAL offset")
            try w.u32(place(hasLabels, 2 * palettes.count), "CPAL offset")
            try w.u32(place(hasEntryLabels, 2 * entryCount), "CPAL offset")
            for p in palettes { for c in p { w.u8(c.blue); w.u8(c.green); w.u8(c.red); w.u8(c.alpha) } }
            if hasTypes { for t in paletteTypes { w.u32(t) } }
            if hasLabels { for l in paletteLabels { try w.u16(l, "CPAL palette label") } }
            if hasEntryLabels { for l in entryLabels { try w.u16(l, "CPAL entry label") } }
        } else {
            for p in palettes { for c in p { w.u8(c.blue); w.u8(c.green); w.u8(c.red); w.u8(c.alpha) } }
        }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? CPALTable else { return nil }
        var out: [Difference] = []
        for p in 0..<max(palettes.count, other.palettes.count) {
            guard p < palettes.count else {
                out.append(Difference(kind: .added, table: "CPAL", item: "palette \(p)", old: nil, new: nil)); continue
            }
            guard p < other.palettes.count else {
                out.append(Difference(kind: .removed, table: "CPAL", item: "palette \(p)", old: nil, new: nil)); continue
            }
            for e in 0..<max(palettes[p].count, other.palettes[p].count) {
                let a = e < palettes[p].count ? palettes[p][e].hex : nil, b = e < other.palettes[p].count ? other.palettes[p][e].hex : nil
                if a != b {
                    out.append(
                        Difference(
                            kind: a == nil ? .added : b == nil ? .removed : .changed, table: "CPAL", item: "palette \(p) colour \(e)",
                            old: a, new: b))
                }
            }
        }
        return out
    }
}
