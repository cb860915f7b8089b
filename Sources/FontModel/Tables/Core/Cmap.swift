/// One cmap subtable. Its bytes are kept; the mapping is decoded on first use. An edited
/// subtable is written as format 4 (BMP) or 12; others are written back unchanged.
public final class CmapSubtable {
    public let format: Int
    /// The subtable's bytes as read (or as last encoded).
    public private(set) var bytes: [UInt8]
    private var decoded: [UInt32: Int]?
    public private(set) var isEdited = false
    /// Format 14: default (base glyph) and non-default variation sequences per selector.
    public private(set) var variations: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])]?

    init(bytes: [UInt8], format: Int) {
        self.bytes = bytes
        self.format = format
    }

    /// A subtable given as its bytes (a format kept, not decoded: 2, 8, 10 from XML).
    public convenience init(keeping bytes: [UInt8], format: Int) { self.init(bytes: bytes, format: format) }

    /// A new subtable of `format` holding `mapping` (and for format 14 `variations`), encoded now.
    /// Formats 0, 4, 6, 10, 12, 13 and 14 can be built.
    public convenience init(
        format: Int, language: Int, mapping: [UInt32: Int],
        variations: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])] = [:]
    ) throws {
        let bytes: [UInt8]
        switch format {
        case 4: bytes = try CmapSubtable.encodeFormat4(mapping, language: language)
        case 12: bytes = CmapSubtable.encodeFormat12(mapping, language: language)
        case 0, 6, 10, 13: bytes = try CmapSubtable.encodeSimple(format, mapping, language: language)
        case 14: bytes = try CmapSubtable.encodeFormat14(variations)
        default: throw FontError("cmap format \(format) cannot be written", table: "cmap")
        }
        self.init(bytes: bytes, format: format)
        decoded = mapping
        if format == 14 { self.variations = variations }
    }

    /// Whether this format maps characters to glyphs in a way we can read.
    public var isMapping: Bool { [0, 2, 4, 6, 10, 12, 13].contains(format) }
    /// Whether edits can be written back in this format.
    public var isWritable: Bool { format == 4 || format == 12 }

    /// Character → glyph id. Empty for formats that are not mappings (2, 8, 14).
    public func mapping() throws -> [UInt32: Int] {
        if let decoded { return decoded }
        let m = try bytes.withUnsafeBytes { try CmapSubtable.decodeMapping(BinaryReader($0), format: format) }
        decoded = m
        if format == 14 { variations = try bytes.withUnsafeBytes { try CmapSubtable.decodeVariations(BinaryReader($0)) } }
        return m
    }

    func set(_ char: UInt32, _ glyph: Int?) throws {
        var m = try mapping()
        if format == 4 && char > 0xFFFF { return }
        if m[char] == glyph { return }
        m[char] = glyph
        decoded = m
        isEdited = true
    }

    func encode() throws -> [UInt8] {
        guard isEdited else { return bytes }
        let m = try mapping()
        return format == 4 ? try CmapSubtable.encodeFormat4(m, language: language) : CmapSubtable.encodeFormat12(m, language: language)
    }

    public var language: Int {
        bytes.withUnsafeBytes { b in
            let r = BinaryReader(b)
            switch format {
            case 0, 2, 4, 6: return Int((try? r.u16(at: 4)) ?? 0)
            case 8, 10, 12, 13: return Int((try? r.u32(at: 8)) ?? 0)
            default: return 0
            }
        }
    }

    // MARK: decoding

    static func decodeMapping(_ reader: BinaryReader, format: Int) throws -> [UInt32: Int] {
        var r = reader
        var m: [UInt32: Int] = [:]
        switch format {
        case 0:
            try r.seek(6)
            for c in 0..<256 { let g = Int(try r.u8()); if g != 0 { m[UInt32(c)] = g } }
        case 4:
            try r.seek(6)
            let segCount = Int(try r.u16()) / 2
            let ends = 14, starts = 16 + 2 * segCount, deltas = starts + 2 * segCount, rangeOffsets = deltas + 2 * segCount
            // Sized once for the codes the segments cover (growing rehashes every entry each time).
            var codes = 0
            for s in 0..<segCount { codes += max(0, Int(try r.u16(at: ends + 2 * s)) - Int(try r.u16(at: starts + 2 * s)) + 1) }
            m.reserveCapacity(min(codes, 0x10000))
            for s in 0..<segCount {
                let end = Int(try r.u16(at: ends + 2 * s)), start = Int(try r.u16(at: starts + 2 * s))
                let delta = Int(try r.u16(at: deltas + 2 * s))
                let rangeOffset = Int(try r.u16(at: rangeOffsets + 2 * s))
                guard start <= end else { continue }
                for c in start...end where c != 0xFFFF {
                    var g: Int
                    if rangeOffset == 0 {
                        g = (c + delta) & 0xFFFF
                    } else {
                        let at = rangeOffsets + 2 * s + rangeOffset + 2 * (c - start)
                        g = Int(try r.u16(at: at))
                        if g != 0 { g = (g + delta) & 0xFFFF }
                    }
                    if g != 0 { m[UInt32(c)] = g }
                }
            }
        case 2:
            // High-byte mapping (legacy CJK encodings): a subheader per first byte; subheader 0
            // maps single-byte codes, the others the second bytes of two-byte codes.
            var keys: [Int] = []
            for k in 0..<256 { keys.append(Int(try r.u16(at: 6 + 2 * k)) / 8) }
            for first in 0..<256 {
                let header = 518 + 8 * keys[first]
                let firstCode = Int(try r.u16(at: header)), entryCount = Int(try r.u16(at: header + 2))
                let delta = Int(try r.u16(at: header + 4)), rangeOffset = Int(try r.u16(at: header + 6))
                let glyphs = header + 6 + rangeOffset
                for k in 0..<entryCount {
                    let code = keys[first] == 0 ? firstCode + k : first << 8 | (firstCode + k)
                    if keys[first] == 0 && code != first { continue }
                    var g = Int(try r.u16(at: glyphs + 2 * k))
                    if g != 0 { g = (g + delta) & 0xFFFF }
                    if g != 0 { m[UInt32(code)] = g }
                }
            }
        case 6:
            try r.seek(6)
            let first = Int(try r.u16()), count = Int(try r.u16())
            for i in 0..<count { let g = Int(try r.u16()); if g != 0 { m[UInt32(first + i)] = g } }
        case 10:
            try r.seek(12)
            let first = try r.u32(), count = Int(try r.u32())
            guard count <= r.remaining / 2 else { throw r.error("format 10 claims \(count) glyphs, more than the data holds") }
            for i in 0..<count { let g = Int(try r.u16()); if g != 0 { m[first + UInt32(i)] = g } }
        case 12, 13:
            try r.seek(12)
            let groups = Int(try r.u32())
            guard groups <= r.remaining / 12 else { throw r.error("format \(format) claims \(groups) groups, more than the data holds") }
            var codes = 0
            for k in 0..<groups {
                let start = Int(try r.u32(at: 16 + 12 * k)), end = Int(try r.u32(at: 20 + 12 * k))
                codes += min(max(0, end - start + 1), 0x110000)
            }
            m.reserveCapacity(min(codes, 0x110000))
            for _ in 0..<groups {
                let start = try r.u32(), end = try r.u32(), glyph = Int(try r.u32())
                guard start <= end, end <= 0x10FFFF else { throw r.error("bad group \(start)...\(end)", at: r.offset - 12) }
                for c in start...end {
                    let g = format == 12 ? glyph + Int(c - start) : glyph
                    if g != 0 { m[c] = g }
                }
            }
        default:
            break
        }
        return m
    }

    static func decodeVariations(_ reader: BinaryReader) throws -> [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])] {
        var r = reader
        try r.seek(6)
        let count = Int(try r.u32())
        var result: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])] = [:]
        for _ in 0..<count {
            let selector = try r.u24()
            let defaultOffset = Int(try r.u32()), nonDefaultOffset = Int(try r.u32())
            var defaults: [ClosedRange<UInt32>] = [], glyphs: [UInt32: Int] = [:]
            if defaultOffset != 0 {
                var d = try reader.sub(from: defaultOffset)
                for _ in 0..<Int(try d.u32()) {
                    let start = try d.u24(), more = UInt32(try d.u8())
                    defaults.append(start...start + more)
                }
            }
            if nonDefaultOffset != 0 {
                var n = try reader.sub(from: nonDefaultOffset)
                for _ in 0..<Int(try n.u32()) { glyphs[try n.u24()] = Int(try n.u16()) }
            }
            result[selector] = (defaults, glyphs)
        }
        return result
    }

    // MARK: encoding

    /// Runs of consecutive characters mapped to consecutive glyphs.
    static func runs(_ m: [UInt32: Int]) -> [(start: UInt32, end: UInt32, glyph: Int)] {
        var runs: [(start: UInt32, end: UInt32, glyph: Int)] = []
        for c in m.keys.sorted() {
            let g = m[c] ?? 0
            if let last = runs.last, c == last.end + 1, g == last.glyph + Int(c - last.start) {
                runs[runs.count - 1].end = c
            } else {
                runs.append((c, c, g))
            }
        }
        return runs
    }

    /// A format 4 segment: codes start...end, either mapped by idDelta (glyph = code + delta) or,
    /// when `glyphs` is set, through the glyph id array (idRangeOffset).
    struct Format4Segment {
        var start: Int, end: Int, delta: Int
        var glyphs: [Int]?
    }

    /// Segments as small as format 4 allows: within each stretch of consecutive codes, runs whose
    /// glyphs also follow on are idDelta segments (8 bytes each); neighbouring short runs are merged
    /// into one idRangeOffset segment (8 bytes + 2 per code) where that is smaller. Chosen by a
    /// linear-time minimum over the runs of each stretch.
    static func format4Segments(_ m: [UInt32: Int]) -> [Format4Segment] {
        let all = runs(m.filter { $0.key < 0xFFFF && $0.value != 0 })
        var segments: [Format4Segment] = []
        var i = 0
        while i < all.count {
            // One stretch of consecutive codes: runs i..<j.
            var j = i + 1
            while j < all.count && all[j].start == all[j - 1].end + 1 { j += 1 }
            let stretch = Array(all[i..<j])
            let n = stretch.count
            // best[k]: smallest size of the first k runs; from[k]: where the last segment starts
            // (negative: run k-1 alone as an idDelta segment).
            var best = [Int](repeating: 0, count: n + 1), from = [Int](repeating: 0, count: n + 1)
            var codesBefore = 0   // codes in runs 0..<k
            var bestMergeStart = 0, bestMergeValue = 0   // min over s of best[s] - 2 * codes in runs 0..<s
            for k in 1...n {
                let run = stretch[k - 1]
                codesBefore += Int(run.end - run.start) + 1
                let alone = best[k - 1] + 8
                let merged = bestMergeValue + 8 + 2 * codesBefore
                if merged < alone { best[k] = merged; from[k] = bestMergeStart } else { best[k] = alone; from[k] = -1 }
                if best[k] - 2 * codesBefore < bestMergeValue { bestMergeValue = best[k] - 2 * codesBefore; bestMergeStart = k }
            }
            var pieces: [Format4Segment] = []
            var k = n
            while k > 0 {
                if from[k] < 0 {
                    let run = stretch[k - 1]
                    pieces.append(Format4Segment(start: Int(run.start), end: Int(run.end), delta: run.glyph - Int(run.start)))
                    k -= 1
                } else {
                    let first = from[k]
                    var glyphs: [Int] = []
                    for run in stretch[first..<k] { for c in run.start...run.end { glyphs.append(run.glyph + Int(c - run.start)) } }
                    pieces.append(Format4Segment(start: Int(stretch[first].start), end: Int(stretch[k - 1].end), delta: 0, glyphs: glyphs))
                    k = first
                }
            }
            segments += pieces.reversed()
            i = j
        }
        segments.append(Format4Segment(start: 0xFFFF, end: 0xFFFF, delta: 1))
        return segments
    }

    static func encodeFormat4(_ m: [UInt32: Int], language: Int) throws -> [UInt8] {
        let segments = format4Segments(m)
        let segCount = segments.count
        let arrayCount = segments.reduce(0) { $0 + ($1.glyphs?.count ?? 0) }
        let length = 16 + 8 * segCount + 2 * arrayCount
        guard length <= 0xFFFF else {
            throw FontError(
                "cmap format 4 subtable would be \(length) bytes, over its 64 KB limit, even with idRangeOffset segments; the BMP mapping is too fragmented (keep only format 12 for it)",
                table: "cmap")
        }
        var w = BinaryWriter(capacity: length)
        var searchRange = 1, entrySelector = 0
        while searchRange * 2 <= segCount { searchRange *= 2; entrySelector += 1 }
        searchRange *= 2
        w.u16(4); w.u16(UInt16(length)); w.u16(UInt16(truncatingIfNeeded: language))
        try w.u16(segCount * 2, "cmap format 4 segCountX2"); try w.u16(searchRange, "cmap format 4 searchRange")
        w.u16(UInt16(entrySelector)); try w.u16(segCount * 2 - searchRange, "cmap format 4 rangeShift")
        for s in segments { w.u16(UInt16(s.end)) }
        w.u16(0)
        for s in segments { w.u16(UInt16(s.start)) }
        for s in segments { w.u16(UInt16(truncatingIfNeeded: s.delta)) }
        // idRangeOffset counts bytes from the entry itself to the segment's first glyph in the array.
        var arrayPosition = 0
        for (index, s) in segments.enumerated() {
            guard let glyphs = s.glyphs else { w.u16(0); continue }
            try w.u16(2 * (segCount - index) + 2 * arrayPosition, "cmap format 4 idRangeOffset")
            arrayPosition += glyphs.count
        }
        for s in segments { for g in s.glyphs ?? [] { try w.u16(g, "cmap glyph id") } }
        return w.bytes
    }

    /// Formats 0 (256 byte codes), 6 and 10 (one range of codes), 13 (groups sharing a glyph).
    static func encodeSimple(_ format: Int, _ m: [UInt32: Int], language: Int) throws -> [UInt8] {
        var w = BinaryWriter()
        let codes = m.keys.sorted()
        switch format {
        case 0:
            guard codes.allSatisfy({ $0 < 256 }), m.values.allSatisfy({ $0 < 256 }) else {
                throw FontError("cmap format 0 holds codes and glyphs below 256", table: "cmap")
            }
            w.u16(0); w.u16(262); w.u16(UInt16(truncatingIfNeeded: language))
            for c in 0..<256 { w.u8(UInt8(m[UInt32(c)] ?? 0)) }
        case 6, 10:
            let first = codes.first ?? 0, count = codes.isEmpty ? 0 : Int((codes.last ?? 0) - first) + 1
            // Format 6 holds one range of BMP codes in at most 64 KB; format 10 one range of 32-bit codes.
            guard format == 10 ? count <= 0x7FFF_FFF0 : ((codes.last ?? 0) <= 0xFFFF && 10 + 2 * count <= 0xFFFF) else {
                throw FontError(
                    "cmap format \(format) cannot hold codes U+\(String(first, radix: 16, uppercase: true))…U+\(String(codes.last ?? 0, radix: 16, uppercase: true)) (one range, at most 64 KB)",
                    table: "cmap")
            }
            if format == 6 {
                w.u16(6); w.u16(UInt16(10 + 2 * count)); w.u16(UInt16(truncatingIfNeeded: language)); w.u16(UInt16(first));
                w.u16(UInt16(count))
            } else {
                w.u16(10); w.u16(0); w.u32(UInt32(20 + 2 * count)); w.u32(UInt32(truncatingIfNeeded: language)); w.u32(first);
                w.u32(UInt32(count))
            }
            for i in 0..<count { w.u16(UInt16(truncatingIfNeeded: m[first + UInt32(i)] ?? 0)) }
        default:   // 13: runs of consecutive codes mapped to one glyph
            var groups: [(start: UInt32, end: UInt32, glyph: Int)] = []
            for c in codes {
                let g = m[c] ?? 0
                if let last = groups.last, c == last.end + 1, g == last.glyph {
                    groups[groups.count - 1].end = c
                } else {
                    groups.append((c, c, g))
                }
            }
            w.u16(13); w.u16(0); w.u32(UInt32(16 + 12 * groups.count)); w.u32(UInt32(truncatingIfNeeded: language));
            w.u32(UInt32(groups.count))
            for g in groups { w.u32(g.start); w.u32(g.end); w.u32(UInt32(g.glyph)) }
        }
        return w.bytes
    }

    /// Format 14: per variation selector, default ranges (use the cmap's glyph) and explicit glyphs.
    static func encodeFormat14(_ variations: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])]) throws -> [UInt8] {
        let selectors = variations.keys.sorted()
        var records = BinaryWriter(), data = BinaryWriter()
        let headerSize = 10 + 11 * selectors.count
        for selector in selectors {
            guard let v = variations[selector] else { continue }
            var defaultOffset = 0, nonDefaultOffset = 0
            if !v.defaults.isEmpty {
                defaultOffset = headerSize + data.count
                data.u32(UInt32(v.defaults.count))
                for r in v.defaults.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                    data.u24(r.lowerBound); data.u8(UInt8(truncatingIfNeeded: r.upperBound - r.lowerBound))
                }
            }
            if !v.glyphs.isEmpty {
                nonDefaultOffset = headerSize + data.count
                data.u32(UInt32(v.glyphs.count))
                for c in v.glyphs.keys.sorted() { data.u24(c); data.u16(UInt16(truncatingIfNeeded: v.glyphs[c] ?? 0)) }
            }
            records.u24(selector); records.u32(UInt32(defaultOffset)); records.u32(UInt32(nonDefaultOffset))
        }
        var w = BinaryWriter()
        w.u16(14); try w.u32(headerSize + data.count, "cmap format 14 length"); try w.u32(selectors.count, "cmap format 14 selector count")
        w.append(records.bytes); w.append(data.bytes)
        return w.bytes
    }

    static func encodeFormat12(_ m: [UInt32: Int], language: Int) -> [UInt8] {
        let groups = runs(m)
        var w = BinaryWriter(capacity: 16 + 12 * groups.count)
        w.u16(12); w.u16(0); w.u32(UInt32(16 + 12 * groups.count)); w.u32(UInt32(truncatingIfNeeded: language)); w.u32(UInt32(groups.count))
        for g in groups { w.u32(g.start); w.u32(g.end); w.u32(UInt32(g.glyph)) }
        return w.bytes
    }
}

/// `cmap` — character to glyph mapping: encoding records pointing at subtables (several records
/// may share one subtable, and keep sharing it when written).
public final class CmapTable: DecodableTable {
    public static let tableTag: Tag = "cmap"

    public struct EncodingRecord {
        public let platformID: Int
        public let encodingID: Int
        public let subtable: CmapSubtable
        public init(platformID: Int, encodingID: Int, subtable: CmapSubtable) {
            self.platformID = platformID; self.encodingID = encodingID; self.subtable = subtable
        }
    }

    public let version: Int
    public private(set) var records: [EncodingRecord]

    init(version: Int, records: [EncodingRecord]) {
        self.version = version
        self.records = records
    }

    public var isEdited: Bool { replaced || records.contains { $0.subtable.isEdited } }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> CmapTable {
        var r = reader
        let version = Int(try r.u16())
        let count = Int(try r.u16())
        var byOffset: [Int: CmapSubtable] = [:]
        var records: [EncodingRecord] = []
        for _ in 0..<count {
            let platform = Int(try r.u16()), encoding = Int(try r.u16()), offset = Int(try r.u32())
            if let shared = byOffset[offset] {
                records.append(EncodingRecord(platformID: platform, encodingID: encoding, subtable: shared)); continue
            }
            var s = try reader.sub(from: offset)
            let format = Int(try s.u16())
            let length: Int
            switch format {
            case 0, 2, 4, 6: length = Int(try s.u16())
            case 8, 10, 12, 13: try s.skip(2); length = Int(try s.u32())
            case 14: length = Int(try s.u32())
            default: throw s.error("unknown cmap subtable format \(format)", at: 0)
            }
            // Some fonts' format 4 length field is wrong by a little; clamp to the table.
            let bytes = try reader.sub(offset, min(length, reader.count - offset)).bytes
            let subtable = CmapSubtable(bytes: Array(bytes), format: format)
            byOffset[offset] = subtable
            records.append(EncodingRecord(platformID: platform, encodingID: encoding, subtable: subtable))
        }
        return CmapTable(version: version, records: records)
    }

    /// The subtable used for lookups: full-repertoire Unicode first, then BMP Unicode.
    public func bestUnicodeSubtable() -> CmapSubtable? {
        let order: [(Int, Int)] = [(3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0)]
        for (p, e) in order {
            if let r = records.first(where: { $0.platformID == p && $0.encodingID == e && $0.subtable.isMapping }) { return r.subtable }
        }
        return nil
    }

    public func glyph(for char: UInt32) throws -> Int? {
        try bestUnicodeSubtable()?.mapping()[char]
    }

    /// Every character the best Unicode subtable maps to `glyph`, sorted.
    public func characters(for glyph: Int) throws -> [UInt32] {
        guard let m = try bestUnicodeSubtable()?.mapping() else { return [] }
        return m.filter { $0.value == glyph }.map(\.key).sorted()
    }

    /// Maps (or with nil unmaps) a character in every Unicode subtable we can write (formats 4 and 12).
    /// `glyphCount`, when known, bounds the glyph id: a mapping to a glyph the font lacks is refused.
    public func set(_ char: UInt32, glyph: Int?, glyphCount: Int? = nil) throws {
        if let glyph {
            let limit = (glyphCount ?? 0x10000) - 1
            guard (0...limit).contains(glyph) else {
                throw FontError(
                    "glyph id \(glyph) does not exist (0...\(limit)\(glyphCount.map { ": the face has \($0) glyphs" } ?? ""))",
                    table: "cmap")
            }
        }
        guard char <= 0x10FFFF else { throw FontError("U+\(String(char, radix: 16, uppercase: true)) is beyond Unicode", table: "cmap") }
        var done = false
        for r in records where r.platformID == 0 || (r.platformID == 3 && (r.encodingID == 1 || r.encodingID == 10)) {
            if r.subtable.isWritable { try r.subtable.set(char, glyph); done = true }
        }
        guard done else { throw FontError("the font has no Unicode cmap subtable in format 4 or 12 to edit", table: "cmap") }
    }

    /// Replaces every encoding record (a fused cmap). Subtables equal to the current ones should be
    /// passed as those objects, so their bytes are kept.
    public func replaceRecords(_ new: [EncodingRecord]) {
        records = new
        replaced = true
    }
    private var replaced = false

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        try w.u16(version, "cmap version"); try w.u16(records.count, "number of cmap encoding records")
        let sorted = records.sorted { ($0.platformID, $0.encodingID) < ($1.platformID, $1.encodingID) }
        // Records pointing at one subtable, or at subtables with identical bytes, share its data.
        var offsets: [ObjectIdentifier: Int] = [:]
        var offsetOfBytes: [[UInt8]: Int] = [:]
        var data: [UInt8] = []
        var position = 4 + 8 * records.count
        for r in sorted {
            let id = ObjectIdentifier(r.subtable)
            if offsets[id] == nil {
                let bytes = try r.subtable.encode()
                if let same = offsetOfBytes[bytes] {
                    offsets[id] = same
                } else {
                    offsets[id] = position
                    offsetOfBytes[bytes] = position
                    data.append(contentsOf: bytes)
                    position += bytes.count
                }
            }
            try w.u16(r.platformID, "cmap platformID"); try w.u16(r.encodingID, "cmap encodingID");
            try w.u32(offsets[id] ?? 0, "cmap subtable offset")
        }
        w.append(data)
        return w.bytes
    }
}

extension CmapTable: DiffableTable {
    /// Characters mapped, unmapped or mapped to another glyph (by name) in the best Unicode
    /// subtable; subtables added or removed (by platform and encoding).
    public func differences(to other: FontTable) -> [Difference]? { nil }

    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? {
        guard let other = other as? CmapTable else { return nil }
        return try? mappingDifferences(to: other, namesA: namesA, namesB: namesB)
    }

    func mappingDifferences(to b: CmapTable, namesA: [String], namesB: [String]) throws -> [Difference] {
        let a = self
        var out: [Difference] = []
        let keysA = Set(a.records.map { "\($0.platformID)/\($0.encodingID) format \($0.subtable.format)" })
        let keysB = Set(b.records.map { "\($0.platformID)/\($0.encodingID) format \($0.subtable.format)" })
        for k in keysA.subtracting(keysB).sorted() {
            out.append(Difference(kind: .removed, table: "cmap", item: "subtable \(k)", old: nil, new: nil))
        }
        for k in keysB.subtracting(keysA).sorted() {
            out.append(Difference(kind: .added, table: "cmap", item: "subtable \(k)", old: nil, new: nil))
        }
        let ma = try a.bestUnicodeSubtable()?.mapping() ?? [:], mb = try b.bestUnicodeSubtable()?.mapping() ?? [:]
        for code in Set(ma.keys).union(mb.keys).sorted() {
            let x = ma[code].map { glyphName($0, in: namesA) }, y = mb[code].map { glyphName($0, in: namesB) }
            guard x != y else { continue }
            let hex = String(code, radix: 16, uppercase: true)
            out.append(
                Difference(
                    kind: x == nil ? .added : y == nil ? .removed : .changed, table: "cmap",
                    item: "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex, old: x, new: y))
        }
        return out
    }
}
