/// `hmtx` / `vmtx` — per-glyph advance and side bearing. The long-metrics count (hhea.numberOfHMetrics,
/// vhea.numOfLongVerMetrics) is recomputed on save: trailing glyphs with the last advance share it.
public class MetricsTable: FontTable {
    public private(set) var advances: [Int]
    public private(set) var sideBearings: [Int]
    public private(set) var isEdited = false
    let tableName: String

    init(reader: BinaryReader, longCount: Int, glyphCount: Int, name: String) throws {
        tableName = name
        guard longCount >= 1 || glyphCount == 0 else {
            throw FontError(
                "\(name == "hmtx" ? "hhea.numberOfHMetrics" : "vhea.numOfLongVerMetrics") is 0; at least one long metric is required")
        }
        let long = min(longCount, glyphCount)
        let needed = long * 4 + (glyphCount - long) * 2
        guard reader.count >= needed else {
            throw reader.error("\(name) has \(reader.count) bytes; \(glyphCount) glyphs with \(long) long metrics need \(needed)", at: 0)
        }
        var r = reader
        // Filled as locals, then stored: appending to the class's own arrays would check
        // exclusive access on every element.
        var advances: [Int] = [], sideBearings: [Int] = []
        advances.reserveCapacity(glyphCount); sideBearings.reserveCapacity(glyphCount)
        for _ in 0..<long { advances.append(Int(try r.u16())); sideBearings.append(Int(try r.i16())) }
        let last = advances.last ?? 0
        for _ in long..<max(long, glyphCount) { advances.append(last); sideBearings.append(Int(try r.i16())) }
        self.advances = advances; self.sideBearings = sideBearings
    }

    public var glyphCount: Int { advances.count }

    func check(_ id: Int) throws {
        guard id >= 0, id < advances.count else { throw FontError("glyph id \(id) out of range (0..<\(advances.count))", table: tableName) }
    }

    public func advance(_ id: Int) throws -> Int { try check(id); return advances[id] }
    public func sideBearing(_ id: Int) throws -> Int { try check(id); return sideBearings[id] }

    public func setAdvance(_ id: Int, _ value: Int) throws {
        try check(id)
        guard Self.advanceRange.contains(value) else { throw FontError("\(tableName) advance is UInt16 (0...65535), got \(value)") }
        if advances[id] != value { advances[id] = value; isEdited = true }
    }

    public func setSideBearing(_ id: Int, _ value: Int) throws {
        try check(id)
        guard Self.sideBearingRange.contains(value) else {
            throw FontError("\(tableName) side bearing is Int16 (-32768...32767), got \(value)")
        }
        if sideBearings[id] != value { sideBearings[id] = value; isEdited = true }
    }

    /// What the table's fields hold: advances are UInt16, side bearings Int16.
    static let advanceRange = 0...0xFFFF, sideBearingRange = -32768...32767

    /// Every glyph's advance and side bearing at once (an instance's), checked as `setAdvance`
    /// and `setSideBearing` check them.
    public func setAll(advances newAdvances: [Int], sideBearings newBearings: [Int]) throws {
        guard newAdvances.count == advances.count, newBearings.count == sideBearings.count else {
            throw FontError(
                "\(tableName): \(newAdvances.count) advances and \(newBearings.count) side bearings for \(advances.count) glyphs")
        }
        if let i = newAdvances.firstIndex(where: { !Self.advanceRange.contains($0) }) {
            throw FontError("\(tableName) advance is UInt16 (0...65535), got \(newAdvances[i]) for glyph \(i)")
        }
        if let i = newBearings.firstIndex(where: { !Self.sideBearingRange.contains($0) }) {
            throw FontError("\(tableName) side bearing is Int16 (-32768...32767), got \(newBearings[i]) for glyph \(i)")
        }
        if newAdvances != advances { advances = newAdvances; isEdited = true }
        if newBearings != sideBearings { sideBearings = newBearings; isEdited = true }
    }

    /// How many glyphs need a full (advance, bearing) record: the rest repeat the last advance.
    public var longMetricsCount: Int {
        var n = advances.count
        while n > 1 && advances[n - 2] == advances[n - 1] { n -= 1 }
        return n
    }

    public func encode() throws -> [UInt8] {
        let long = longMetricsCount
        var w = BinaryWriter(capacity: long * 4 + (advances.count - long) * 2)
        for i in 0..<advances.count {
            if i < long { try w.u16(advances[i], "advance of glyph \(i)") }
            try w.i16(sideBearings[i], "side bearing of glyph \(i)")
        }
        return w.bytes
    }
}

public final class HmtxTable: MetricsTable, DecodableTable {
    public static let tableTag: Tag = "hmtx"
    public static func decode(_ reader: BinaryReader, face: Face) throws -> HmtxTable {
        try HmtxTable(reader: reader, longCount: face.hhea.numberOfHMetrics, glyphCount: face.glyphCount, name: "hmtx")
    }
}

public final class VmtxTable: MetricsTable, DecodableTable {
    public static let tableTag: Tag = "vmtx"
    public static func decode(_ reader: BinaryReader, face: Face) throws -> VmtxTable {
        guard let vhea = try face.vhea else { throw FontError("vmtx needs a vhea table", table: "vmtx") }
        return try VmtxTable(reader: reader, longCount: vhea.numOfLongVerMetrics, glyphCount: face.glyphCount, name: "vmtx")
    }
}

extension HmtxTable: GlyphDataTable {}

extension VmtxTable: GlyphDataTable {}
