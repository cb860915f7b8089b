/// An AAT lookup table: a map from glyph to a 16-bit value (a class, or a glyph), in one of
/// five formats (0: a value per glyph; 2: segments of one value; 4: segments of value arrays;
/// 6: single glyphs; 8: a trimmed array). morx's class tables, its contextual substitutions
/// and its non-contextual substitutions are lookups.
public enum AATLookup {
    /// Glyph → value pairs by glyph. A glyph a later segment repeats takes the later value, as
    /// fontTools and HarfBuzz read them. `glyphCount` sizes format 0. Segments may repeat
    /// glyphs, so the work is bounded by `budget` (glyph values read, shared by a table's
    /// lookups), not by the bytes they take.
    public static func decode(_ reader: BinaryReader, glyphCount: Int, what: String, budget: inout Int) throws -> [(
        glyph: UInt16, value: UInt16
    )] {
        var r = reader
        let format = try r.u16()
        func spend(_ n: Int, at: Int) throws {
            budget -= n
            guard budget >= 0 else { throw reader.error("\(what): lookups map more glyphs than the table could describe", at: at) }
        }
        var out: [(glyph: UInt16, value: UInt16)] = []
        switch format {
        case 0:
            guard glyphCount <= r.remaining / 2 else {
                throw reader.error("\(what): format 0 lookup holds fewer than the font's \(glyphCount) glyphs", at: 2)
            }
            try spend(glyphCount, at: 0)
            out = try (0..<min(glyphCount, 0xFFFF)).map { g in (UInt16(g), try r.u16()) }
            return out
        case 8:
            let first = Int(try r.u16()), count = Int(try r.u16())
            guard first + count <= 0xFFFF, count <= r.remaining / 2 else {
                throw reader.error("\(what): format 8 lookup of \(count) values from glyph \(first) runs past its end", at: 4)
            }
            try spend(count, at: 0)
            return try (first..<(first + count)).map { g in (UInt16(g), try r.u16()) }
        case 2, 4, 6:
            var values: [UInt16: UInt16] = [:]
            let unitSize = Int(try r.u16()), units = Int(try r.u16())
            let least = format == 6 ? 4 : 6
            guard unitSize >= least else {
                throw reader.error("\(what): lookup format \(format) units of \(unitSize) bytes (at least \(least))", at: 2)
            }
            guard units <= (reader.count - 12) / unitSize else {
                throw reader.error("\(what): lookup claims \(units) units of \(unitSize) bytes, more than it holds", at: 4)
            }
            for k in 0..<units {
                var u = try reader.sub(12 + k * unitSize, unitSize)
                if format == 6 {
                    let glyph = try u.u16(), value = try u.u16()
                    if glyph != 0xFFFF { values[glyph] = value }
                    continue
                }
                let last = Int(try u.u16()), first = Int(try u.u16()), value = try u.u16()
                guard last != 0xFFFF else { continue }
                guard first <= last else {
                    throw reader.error("\(what): lookup segment \(k) runs from glyph \(first) back to \(last)", at: 12 + k * unitSize)
                }
                try spend(last - first + 1, at: 12 + k * unitSize)
                if format == 2 {
                    for g in first...last { values[UInt16(g)] = value }
                } else {
                    var array = try reader.sub(Int(value), 2 * (last - first + 1))
                    for g in first...last { values[UInt16(g)] = try array.u16() }
                }
            }
            out = values.map { ($0.key, $0.value) }
            out.sort { $0.glyph < $1.glyph }
            return out
        default:
            throw reader.error("\(what): lookup format \(format) is not one morx uses (0, 2, 4, 6, 8)", at: 0)
        }
    }

    /// How many bytes the lookup at the reader's start takes (format 4's value arrays lie
    /// elsewhere and are not counted).
    public static func length(_ reader: BinaryReader, glyphCount: Int) throws -> Int {
        var r = reader
        switch try r.u16() {
        case 0: return 2 + 2 * glyphCount
        case 8: _ = try r.u16(); return 6 + 2 * Int(try r.u16())
        default: let unitSize = Int(try r.u16()), units = Int(try r.u16()); return 12 + unitSize * units
        }
    }

    /// The smallest of formats 0, 2, 6 and 8 (the lower format on a tie), as fontTools
    /// chooses. `pairs` must be sorted by glyph, each glyph once, none 0xFFFF (the end mark).
    public static func encode(_ pairs: [(glyph: UInt16, value: UInt16)], glyphCount: Int) -> [UInt8] {
        var segments: [(first: UInt16, last: UInt16, value: UInt16)] = []
        for p in pairs {
            if let s = segments.last, Int(s.last) + 1 == Int(p.glyph), s.value == p.value {
                segments[segments.count - 1].last = p.glyph
            } else {
                segments.append((p.glyph, p.glyph, p.value))
            }
        }
        var candidates: [(size: Int, format: Int)] = [(12 + 6 * (segments.count + 1), 2), (12 + 4 * (pairs.count + 1), 6)]
        if pairs.count == glyphCount, pairs.last.map({ Int($0.glyph) == glyphCount - 1 }) ?? true {
            candidates.append((2 + 2 * glyphCount, 0))
        }
        if let first = pairs.first, let last = pairs.last, Int(last.glyph - first.glyph) + 1 == pairs.count {
            candidates.append((6 + 2 * pairs.count, 8))
        }
        let format = candidates.min { ($0.size, $0.format) < ($1.size, $1.format) }?.format ?? 6
        var w = BinaryWriter()
        w.u16(UInt16(format))
        func searchHeader(unitSize: Int, units: Int) {
            var exponent = 0
            while units >> (exponent + 1) > 0 { exponent += 1 }
            let range = unitSize << exponent
            w.u16(UInt16(unitSize)); w.u16(UInt16(truncatingIfNeeded: units)); w.u16(UInt16(truncatingIfNeeded: range));
            w.u16(UInt16(exponent)); w.u16(UInt16(truncatingIfNeeded: max(0, units * unitSize - range)))
        }
        switch format {
        case 0: for p in pairs { w.u16(p.value) }
        case 2:
            searchHeader(unitSize: 6, units: segments.count)
            for s in segments { w.u16(s.last); w.u16(s.first); w.u16(s.value) }
            w.u16(0xFFFF); w.u16(0xFFFF); w.u16(0)
        case 8:
            w.u16(pairs[0].glyph); w.u16(UInt16(truncatingIfNeeded: pairs.count))
            for p in pairs { w.u16(p.value) }
        default:
            searchHeader(unitSize: 4, units: pairs.count)
            for p in pairs { w.u16(p.glyph); w.u16(p.value) }
            w.u16(0xFFFF); w.u16(0)
        }
        return w.bytes
    }
}
