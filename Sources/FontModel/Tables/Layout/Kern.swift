/// `kern` — the older pair-kerning table (Microsoft's version 0, Apple's version 1.0). Format 0
/// subtables (sorted glyph pairs) are decoded and can be edited; other formats (2: class
/// tables, 1 and 3: Apple's) are kept as their bytes, and format 2 can be read as pairs
/// (`classPairs`). Unedited, the table is saved as the bytes it came from.
public final class KernTable: DecodableTable {
    public static let tableTag: Tag = "kern"

    public struct Subtable: Equatable, Sendable {
        /// 0 (pairs), 2 (classes) …
        public var format: Int
        /// The coverage flags: for version 0 the low byte (1 horizontal, 2 minimum, 4 cross-stream,
        /// 8 override); for Apple's the high byte (0x80 vertical, 0x40 cross-stream, 0x20 variation).
        public var coverage: Int
        /// Apple's tuple index (nil in version 0 tables).
        public var tupleIndex: Int?
        /// Format 0: the pairs, sorted by left then right glyph id.
        public var pairs: [KernPair]
        /// Any other format: the subtable's bytes after its header, kept as they are.
        public var body: [UInt8]

        public init(format: Int = 0, coverage: Int = 1, tupleIndex: Int? = nil, pairs: [KernPair] = [], body: [UInt8] = []) {
            self.format = format; self.coverage = coverage; self.tupleIndex = tupleIndex; self.pairs = pairs; self.body = body
        }

        /// Whether HarfBuzz applies it to horizontal text as plain kerning.
        public func isHorizontalKerning(apple: Bool) -> Bool {
            apple ? coverage & 0xE0 == 0 : coverage & 1 != 0 && coverage & 6 == 0
        }
    }

    public struct KernPair: Equatable, Sendable {
        public var left: Int
        public var right: Int
        public var value: Int
        public init(_ left: Int, _ right: Int, _ value: Int) { self.left = left; self.right = right; self.value = value }
    }

    /// 0, or 1 for Apple's header (version 1.0 as 16.16).
    public private(set) var version: Int
    public private(set) var subtables: [Subtable]
    public private(set) var isEdited = false
    /// Counts changes (see `StructuredTable.editCount`).
    public private(set) var editCount = 0

    public init(version: Int = 0, subtables: [Subtable]) {
        self.version = version
        self.subtables = subtables
    }

    public var isApple: Bool { version == 1 }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> KernTable {
        var r = reader
        let first = try r.u16()
        let apple = first == 1 && reader.count >= 8
        let count: Int
        if apple {
            r.offset = 0
            guard try r.u32() == 0x0001_0000 else { throw reader.error("kern: Apple header version is not 1.0", at: 0) }
            count = Int(try r.u32())
        } else {
            guard first == 0 else { throw reader.error("kern: unknown version \(first)", at: 0) }
            count = Int(try r.u16())
        }
        var subtables: [Subtable] = []
        for k in 0..<count {
            let start = r.offset
            guard r.remaining > 0 else { throw reader.error("kern: \(count) subtables claimed, the table holds \(k)", at: start) }
            let length: Int, format: Int, coverage: Int, tupleIndex: Int?
            if apple {
                length = Int(try r.u32())
                coverage = Int(try r.u8())
                format = Int(try r.u8())
                tupleIndex = Int(try r.u16())
            } else {
                let subVersion = try r.u16()
                guard subVersion == 0 else { throw reader.error("kern subtable \(k): unknown version \(subVersion)", at: start) }
                length = Int(try r.u16())
                format = Int(try r.u8())
                coverage = Int(try r.u8())
                tupleIndex = nil
            }
            let headerSize = r.offset - start
            if format == 0 {
                let n = Int(try r.u16())
                try r.skip(6)   // searchRange, entrySelector, rangeShift: derived, rewritten on save
                guard n * 6 <= r.remaining else {
                    throw reader.error("kern subtable \(k): \(n) pairs do not fit in the table", at: start + headerSize)
                }
                var pairs: [KernPair] = []
                pairs.reserveCapacity(n)
                for _ in 0..<n { pairs.append(KernPair(Int(try r.u16()), Int(try r.u16()), Int(try r.i16()))) }
                subtables.append(Subtable(format: 0, coverage: coverage, tupleIndex: tupleIndex, pairs: pairs))
                // A version 0 subtable of more than 10,921 pairs overflows its 16-bit length: the
                // pairs say where it ends (as fontTools and HarfBuzz read it); a longer length
                // that fits (padding) is followed.
                let used = r.offset - start
                if length > used, length - used <= r.remaining { try r.seek(start + length) }
            } else {
                guard length >= headerSize, length - headerSize <= r.remaining else {
                    throw reader.error("kern subtable \(k): length \(length) does not fit in the table", at: start)
                }
                subtables.append(
                    Subtable(format: format, coverage: coverage, tupleIndex: tupleIndex, body: try r.bytes(length - headerSize)))
            }
        }
        return KernTable(version: apple ? 1 : 0, subtables: subtables)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        if isApple { w.u32(0x0001_0000); w.u32(UInt32(subtables.count)) } else { w.u16(0); w.u16(UInt16(subtables.count)) }
        for (k, st) in subtables.enumerated() {
            var body = BinaryWriter()
            if st.format == 0 {
                guard st.pairs.count <= 0xFFFF else {
                    throw FontError("kern subtable \(k) has \(st.pairs.count) pairs; a subtable holds at most 65,535", table: "kern")
                }
                let n = st.pairs.count
                var power = 1, log = 0
                while power * 2 <= n { power *= 2; log += 1 }
                body.u16(UInt16(n)); body.u16(UInt16(truncatingIfNeeded: n == 0 ? 0 : power * 6)); body.u16(UInt16(log))
                body.u16(UInt16(truncatingIfNeeded: n * 6 - (n == 0 ? 0 : power * 6)))
                for p in st.pairs {
                    try body.u16(p.left, "kern pair glyph"); try body.u16(p.right, "kern pair glyph");
                    try body.i16(p.value, "kern pair value")
                }
            } else {
                body.append(st.body)
            }
            if isApple {
                try w.u32(body.bytes.count + 8, "kern subtable length"); try w.u8(st.coverage, "kern subtable coverage")
                try w.u8(st.format, "kern subtable format"); try w.u16(st.tupleIndex ?? 0, "kern tuple index")
            } else {
                // Overflowing lengths are written wrapped, as fontTools does; readers use nPairs.
                w.u16(0); w.u16(UInt16(truncatingIfNeeded: body.bytes.count + 6))
                try w.u8(st.format, "kern subtable format"); try w.u8(st.coverage, "kern subtable coverage")
            }
            w.append(body.bytes)
        }
        return w.bytes
    }

    // MARK: editing

    /// Replaces the subtables (checked: format and coverage are bytes, a tuple index 16 bits,
    /// glyph ids 0–65535, values Int16; pairs are sorted).
    public func setSubtables(_ new: [Subtable]) throws {
        var checked = new
        for (k, st) in new.enumerated() {
            guard (0...255).contains(st.format) else {
                throw FontError("kern subtable \(k): format is a byte (0...255), got \(st.format)", table: "kern")
            }
            guard (0...255).contains(st.coverage) else {
                throw FontError("kern subtable \(k): coverage is a byte (0...255), got \(st.coverage)", table: "kern")
            }
            if let t = st.tupleIndex, !(0...0xFFFF).contains(t) {
                throw FontError("kern subtable \(k): tupleIndex is UInt16, got \(t)", table: "kern")
            }
            for p in st.pairs {
                guard (0...0xFFFF).contains(p.left), (0...0xFFFF).contains(p.right) else {
                    throw FontError("kern subtable \(k): glyph id out of range in pair \(p.left), \(p.right)", table: "kern")
                }
                guard (-32768...32767).contains(p.value) else {
                    throw FontError("kern subtable \(k): value is Int16 (-32768...32767), got \(p.value)", table: "kern")
                }
            }
            checked[k].pairs.sort { ($0.left, $0.right) < ($1.left, $1.right) }
        }
        guard checked != subtables else { return }
        subtables = checked
        isEdited = true
        editCount += 1
    }

    /// Sets (or with nil removes) one pair in the first horizontal format 0 subtable, adding
    /// one when there is none.
    public func setPair(_ left: Int, _ right: Int, _ value: Int?) throws {
        var new = subtables
        var k = new.firstIndex { $0.format == 0 && $0.isHorizontalKerning(apple: isApple) }
        if k == nil {
            guard value != nil else { return }
            new.append(Subtable(format: 0, coverage: isApple ? 0 : 1, tupleIndex: isApple ? 0 : nil))
            k = new.count - 1
        }
        new[k!].pairs.removeAll { $0.left == left && $0.right == right }
        if let value { new[k!].pairs.append(KernPair(left, right, value)) }
        try setSubtables(new)
    }

    /// Target glyphs take their sources' pairs (format 0), dropping their own.
    func copyGlyphBehaviour(_ copies: [(source: Int, target: Int)]) throws -> Bool {
        var map: [Int: Int] = [:]
        for c in copies where c.source != c.target { map[c.source] = c.target }
        let targets = Set(map.values)
        var new = subtables
        for k in new.indices where new[k].format == 0 {
            let kept = new[k].pairs.filter { !targets.contains($0.left) && !targets.contains($0.right) }
            // Each pair of untouched glyphs again with its sources replaced by their targets, on
            // either side or both ("A" "V" gives "a" "V", "A" "v" and "a" "v").
            var added: [KernPair] = []
            for p in kept where map[p.left] != nil || map[p.right] != nil {
                for l in [p.left] + [map[p.left]].compactMap({ $0 }) {
                    for r in [p.right] + [map[p.right]].compactMap({ $0 }) where l != p.left || r != p.right {
                        added.append(KernPair(l, r, p.value))
                    }
                }
            }
            var seen = Set<Int>()
            new[k].pairs = (kept + added).filter { seen.insert($0.left << 16 | $0.right).inserted }
        }
        let before = subtables
        try setSubtables(new)
        return before != subtables
    }

    /// A format 2 subtable's pairs (left, right, value), non-zero values only, read from its bytes.
    public func classPairs(_ k: Int) throws -> [KernPair] {
        let st = subtables[k]
        guard st.format == 2 else { return st.pairs }
        let headerSize = isApple ? 8 : 6
        // Offsets in the body count from the subtable's start, header included.
        let data = [UInt8](repeating: 0, count: headerSize) + st.body
        func u16(_ at: Int) throws -> Int {
            guard at >= 0, at + 2 <= data.count else {
                throw FontError("kern subtable \(k): offset \(at) runs past the subtable (\(data.count) bytes)", table: "kern")
            }
            return Int(data[at]) << 8 | Int(data[at + 1])
        }
        let leftTable = try u16(headerSize + 2), rightTable = try u16(headerSize + 4)
        let firstLeft = try u16(leftTable), leftCount = try u16(leftTable + 2)
        let firstRight = try u16(rightTable), rightCount = try u16(rightTable + 2)
        // The class tables may claim far more pairs than their bytes (Apple's format 2 tables
        // hold thousands): a list beyond this is refused rather than built.
        guard leftCount * rightCount <= 4_000_000 else {
            throw FontError(
                "kern subtable \(k): \(leftCount) × \(rightCount) class pairs, more than the 4,000,000 FontShell lists", table: "kern")
        }
        var out: [KernPair] = []
        for l in 0..<leftCount {
            let row = try u16(leftTable + 4 + l * 2)
            for r in 0..<rightCount {
                let raw = try u16(row + (try u16(rightTable + 4 + r * 2)))
                let v = raw >= 0x8000 ? raw - 0x10000 : raw
                if v != 0 { out.append(KernPair(firstLeft + l, firstRight + r, v)) }
            }
        }
        return out
    }
}

extension KernTable: DiffableTable {
    /// kern pairs added, removed or changed (by glyph names), per subtable; other changes to a
    /// subtable (format, coverage, kept bytes) as one line.
    public func differences(to other: FontTable) -> [Difference]? { nil }

    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? {
        guard let b = other as? KernTable else { return nil }
        let a = self
        var out: [Difference] = []
        let many = max(a.subtables.count, b.subtables.count) > 1
        for k in 0..<max(a.subtables.count, b.subtables.count) {
            let label = many ? "subtable \(k) " : ""
            guard k < a.subtables.count else {
                out.append(Difference(kind: .added, table: "kern", item: "subtable \(k)", old: nil, new: nil)); continue
            }
            guard k < b.subtables.count else {
                out.append(Difference(kind: .removed, table: "kern", item: "subtable \(k)", old: nil, new: nil)); continue
            }
            let sa = a.subtables[k], sb = b.subtables[k]
            if sa.format != sb.format || sa.coverage != sb.coverage || sa.body != sb.body {
                out.append(
                    Difference(
                        kind: .changed, table: "kern", item: "subtable \(k)", old: "format \(sa.format), coverage \(sa.coverage)",
                        new: "format \(sb.format), coverage \(sb.coverage)"))
            }
            var pa: [String: Int] = [:], pb: [String: Int] = [:]
            for p in sa.pairs { pa[glyphName(p.left, in: namesA) + " " + glyphName(p.right, in: namesA)] = p.value }
            for p in sb.pairs { pb[glyphName(p.left, in: namesB) + " " + glyphName(p.right, in: namesB)] = p.value }
            for key in Set(pa.keys).union(pb.keys).sorted() where pa[key] != pb[key] {
                out.append(
                    Difference(
                        kind: pa[key] == nil ? .added : pb[key] == nil ? .removed : .changed, table: "kern",
                        item: label + key, old: pa[key].map(String.init), new: pb[key].map(String.init)))
            }
        }
        return out
    }
}
