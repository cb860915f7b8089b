/// Every kerned pair of a face, read straight from the table bytes: the `kern` feature's GPOS
/// pair lookups (formats 1 and 2, through extensions), or, when GPOS has no `kern` feature, the
/// `kern` table's horizontal subtables (formats 0 and 2), as HarfBuzz chooses. Nothing is
/// decoded into a tree and nothing is expanded ahead: the pairs of one first glyph (a row) are
/// worked out when asked for, so memory stays near the table's size however many pairs class
/// kerning spells out (Roboto's 67 KB GPOS holds 167,901 pairs).
///
/// The rules, HarfBuzz's: per lookup and first glyph, the subtables are tried in order; a glyph
/// pair subtable gives the pairs it lists (a listed 0 still counts), a class subtable that
/// covers the first glyph gives its class row and ends the lookup for that glyph; class 0 of
/// the second glyph ("every other glyph") is not spelled out. Lookups add up, and pairs that
/// add up to 0 are left out. Each `kern` table subtable counts as a lookup.
public final class KerningPairs {
    /// One horizontal pair-adjustment subtable, with offsets into `data`.
    enum Subtable {
        /// GPOS PairPos format 1: pair sets per covered glyph.
        case glyphPairs(start: Int, coverage: Int, value1: Int, recordSize: Int)
        /// GPOS PairPos format 2: a class matrix; `members` lists ClassDef2's glyphs by class.
        case classPairs(
            start: Int, coverage: Int, classDef1: Int, class2Count: Int, class1Count: Int,
            value1: Int, recordSize: Int, members: [[UInt16]])
        /// kern format 0: pairs sorted by (left, right).
        case kernPairs(start: Int, count: Int)
        /// kern format 2: class tables whose values are offsets into the array.
        case kernClasses(start: Int, left: Int, right: Int, array: Int, members: [Int: [UInt16]])
    }

    let data: [UInt8]
    /// Subtables per lookup (per `kern` subtable), in order.
    let lookups: [[Subtable]]
    /// Where the pairs come from: "GPOS", "kern" or "" (none).
    public let source: String
    /// First glyphs that have at least one pair, ascending, and where each one's pairs start
    /// in the list of all pairs (the last entry is the count). Worked out on first use.
    private var index: (lefts: [Int], rowStart: [Int])?
    /// Scratch for working out a row: per second glyph, the generation that last set it (empty
    /// when glyph ids are many for the table's size: rows are then worked out in dictionaries,
    /// so memory stays within twice the table's size).
    private var stamp: [Int32]
    private var sum: [Int32]
    private var given: [Int32]
    private var generation: Int32 = 0   // wraps after 2^31 rows; stamps are compared for equality only
    /// The row most recently worked out (sequential reads reuse it).
    private var cachedRow: (index: Int, rights: [Int], values: [Int])?

    /// The most pairs a face's kerning may expand to (Roboto has 167,901; noto-cjk 20,728).
    public static let maximumPairs = 50_000_000

    /// The number of pairs.
    public var count: Int { rows.rowStart.last ?? 0 }

    /// First glyphs that have at least one pair, ascending.
    public var lefts: [Int] { rows.lefts }

    private var rows: (lefts: [Int], rowStart: [Int]) {
        if let index { return index }
        var lefts: [Int] = [], rowStart = [0]
        // First glyphs with the same signature have the same row: each distinct row is worked
        // out once to count it (Roboto's 864 kerned first glyphs have 92 distinct rows).
        let reader = PairReader(data: data, table: source)
        var counted: [[Int]: Int] = [:]
        for left in firsts() {
            let signature = rowSignature(for: left, reader: reader)
            guard !signature.isEmpty else { continue }
            let n: Int
            if let known = counted[signature] {
                n = known
            } else {
                n = row(for: left).rights.count
                counted[signature] = n
            }
            if n > 0 { lefts.append(left); rowStart.append(rowStart[rowStart.count - 1] + n) }
        }
        index = (lefts, rowStart)
        return (lefts, rowStart)
    }

    /// What decides a first glyph's row: per lookup, each subtable that gives it pairs and which
    /// of its rows it gives (a pair set, a class), as HarfBuzz's rules pick them. Empty when no
    /// subtable covers the glyph.
    private func rowSignature(for left: Int, reader: PairReader) -> [Int] {
        var signature: [Int] = []
        for (l, lookup) in lookups.enumerated() {
            for (s, st) in lookup.enumerated() {
                guard let (key, ended) = reader.rowKey(st, left: left) else { continue }
                signature.append(l); signature.append(s); signature.append(key)
                if ended { break }
            }
        }
        return signature
    }

    /// Reads the face's kerning. Throws a FontError naming the table and offset when the bytes
    /// do not hold what they claim.
    public init(face: Face) throws {
        var lookups: [[Subtable]] = []
        var source = ""
        var data: [UInt8] = []
        var glyphLimit = (try? face.glyphCount) ?? 0
        if face.has("GPOS"), let gpos = try face.rawTable("GPOS") {
            let reader = PairReader(data: gpos, table: "GPOS")
            let found = try face.context("GPOS") { try reader.kernFeatureLookups(glyphLimit: &glyphLimit) }
            if let found { lookups = found; source = "GPOS"; data = gpos }
        }
        if source.isEmpty, face.has("kern"), let kern = try face.rawTable("kern") {
            let reader = PairReader(data: kern, table: "kern")
            lookups = try face.context("kern") { try reader.kernTableSubtables(glyphLimit: &glyphLimit) }
            source = "kern"; data = kern
        }
        // Class kerning can spell out far more pairs than its bytes: a 40-byte subtable may
        // claim 65,536 × 65,536. Real fonts stay far below the limit; a table above it is refused
        // before any work that grows with the pairs.
        let reader = PairReader(data: data, table: source)
        let most = lookups.joined().reduce(0) { $0 + reader.mostPairs($1) }
        guard most <= Self.maximumPairs else {
            throw FontError(
                "kerning would spell out up to \(most) pairs, more than the \(Self.maximumPairs) FontShell expands", table: source)
        }
        self.data = data
        self.lookups = lookups
        self.source = source
        let dense = glyphLimit * 12 <= max(2 * data.count, 1 << 16)
        stamp = Array(repeating: -1, count: dense ? glyphLimit : 0)
        sum = Array(repeating: 0, count: dense ? glyphLimit : 0)
        given = Array(repeating: 0, count: dense ? glyphLimit : 0)
    }

    /// A row worked out without scratch per glyph id: when one subtable gives the glyph's pairs
    /// (the usual case) they are sorted; when several do, the first to give a second glyph in
    /// each lookup wins and lookups add up, in a dictionary.
    private func sparseRow(for left: Int) -> (rights: [Int], values: [Int]) {
        let reader = PairReader(data: data, table: source)
        var parts: [(lookup: Int, pairs: [(right: Int, value: Int)])] = []
        for (l, lookup) in lookups.enumerated() {
            for st in lookup {
                var pairs: [(right: Int, value: Int)] = []
                let ended = reader.give(st, left: left) { pairs.append(($0, $1)) }
                if !pairs.isEmpty { parts.append((l, pairs)) }
                if ended { break }
            }
        }
        if parts.count == 1 {
            var seen = -1
            let sorted = parts[0].pairs.enumerated().sorted { ($0.element.right, $0.offset) < ($1.element.right, $1.offset) }
            var rights: [Int] = [], values: [Int] = []
            for (_, p) in sorted where p.right != seen {
                seen = p.right
                if p.value != 0 { rights.append(p.right); values.append(p.value) }
            }
            return (rights, values)
        }
        var total: [Int: Int32] = [:]
        var claimed = Set<Int>(), currentLookup = -1
        for part in parts {
            if part.lookup != currentLookup { claimed.removeAll(keepingCapacity: true); currentLookup = part.lookup }
            for p in part.pairs where claimed.insert(p.right).inserted { total[p.right, default: 0] &+= Int32(truncatingIfNeeded: p.value) }
        }
        let rights = total.filter { $0.value != 0 }.keys.sorted()
        return (rights, rights.map { Int(total[$0] ?? 0) })
    }

    /// Every glyph a subtable covers as a first glyph, ascending (some may have no pairs).
    private func firsts() -> [Int] {
        let reader = PairReader(data: data, table: source)
        var seen = Set<Int>()
        for lookup in lookups { for st in lookup { reader.forEachFirst(of: st) { seen.insert($0) } } }
        return seen.sorted()
    }

    /// The pairs whose first glyph is `left`, ascending by second glyph, with their values.
    public func row(for left: Int) -> (rights: [Int], values: [Int]) {
        if stamp.isEmpty && !lookups.isEmpty { return sparseRow(for: left) }
        let reader = PairReader(data: data, table: source)
        var rights: [Int] = []
        var generation = self.generation &+ 1
        let total = generation
        // The scratch arrays as buffers for the walk: no copy-on-write checks per pair.
        let lookups = self.lookups
        stamp.withUnsafeMutableBufferPointer { stamp in
            sum.withUnsafeMutableBufferPointer { sum in
                given.withUnsafeMutableBufferPointer { given in
                    for lookup in lookups {
                        generation &+= 1
                        let current = generation
                        for st in lookup {
                            let ended = reader.give(st, left: left) { right, value in
                                guard right < stamp.count, stamp[right] != current else { return }
                                stamp[right] = current
                                if given[right] != total { given[right] = total; sum[right] = 0; rights.append(right) }
                                sum[right] &+= Int32(truncatingIfNeeded: value)
                            }
                            if ended { break }
                        }
                    }
                    if rights.count * 16 > given.count {   // a long row: a scan in glyph order beats sorting
                        rights.removeAll(keepingCapacity: true)
                        for g in 0..<given.count where given[g] == total && sum[g] != 0 { rights.append(g) }
                    } else {
                        rights.sort()
                        rights.removeAll { sum[$0] == 0 }
                    }
                }
            }
        }
        self.generation = generation
        return (rights, rights.map { Int(sum[$0]) })
    }

    /// Pair `index` (0-based, ordered by first then second glyph).
    public subscript(index: Int) -> (left: Int, right: Int, value: Int) {
        precondition(index >= 0 && index < count, "kerning pair \(index) out of 0..<\(count)")
        let (lefts, rowStart) = rows
        var lo = 0, hi = lefts.count - 1
        while lo < hi {   // the last row starting at or before index
            let mid = (lo + hi + 1) / 2
            if rowStart[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        if cachedRow?.index != lo {
            let r = row(for: lefts[lo])
            cachedRow = (lo, r.rights, r.values)
        }
        let k = index - rowStart[lo]
        return (lefts[lo], cachedRow!.rights[k], cachedRow!.values[k])
    }

    /// The value for one pair (0 when it is not kerned).
    public func value(_ left: Int, _ right: Int) -> Int {
        let r = row(for: left)
        guard let k = binarySearch(r.rights, right) else { return 0 }
        return r.values[k]
    }

    /// Every pair, in order.
    public func all() -> [(left: Int, right: Int, value: Int)] {
        var out: [(left: Int, right: Int, value: Int)] = []
        for left in firsts() {
            let r = row(for: left)
            for (right, v) in zip(r.rights, r.values) { out.append((left, right, v)) }
        }
        return out
    }
}

private func binarySearch(_ sorted: [Int], _ x: Int) -> Int? {
    var lo = 0, hi = sorted.count
    while lo < hi {
        let mid = (lo + hi) / 2
        if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    return lo < sorted.count && sorted[lo] == x ? lo : nil
}

/// Big-endian reads from a table's bytes. `checked` reads throw a FontError naming the table and
/// offset; the unchecked ones are only used on ranges `checked` reads have already bounded.
struct PairReader {
    typealias Subtable = KerningPairs.Subtable
    let data: [UInt8]
    let table: String

    func fail(_ message: String, at offset: Int) -> FontError { FontError(message, table: table, offset: offset) }

    // What is checked is described lazily (an autoclosure): the description is only made for
    // the error, not for each of the thousands of pair sets a table may have.
    func need(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, length >= 0, offset <= data.count, length <= data.count - offset else {
            throw fail(
                "\(what()) (\(length) bytes at \(offset)) runs past the end of the table (\(data.count) bytes)",
                at: max(0, min(offset, data.count)))
        }
    }

    @inline(__always) func u16(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
    @inline(__always) func i16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(data[at]) << 8 | UInt16(data[at + 1]))) }
    func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }

    func checkedU16(_ at: Int, _ what: @autoclosure () -> String) throws -> Int { try need(at, 2, what()); return u16(at) }

    /// An offset from `base`, checked to land inside the table.
    func target(_ base: Int, _ offsetAt: Int, size: Int = 2, _ what: @autoclosure () -> String) throws -> Int {
        try need(offsetAt, size, what() + " offset")
        let offset = size == 2 ? u16(offsetAt) : u32(offsetAt)
        guard base + offset < data.count else {
            throw fail("\(what()) offset \(offset) points past the end of the table (\(data.count) bytes)", at: offsetAt)
        }
        return base + offset
    }

    // MARK: GPOS

    /// The pair subtables of the lookups the `kern` feature lists for any script and language
    /// (ascending, once each); nil when no language system has a `kern` feature.
    func kernFeatureLookups(glyphLimit: inout Int) throws -> [[Subtable]]? {
        try need(0, 10, "GPOS header")
        let scriptList = try target(0, 4, "ScriptList"), featureList = try target(0, 6, "FeatureList"),
            lookupList = try target(0, 8, "LookupList")
        let featureCount = try checkedU16(featureList, "FeatureList")
        try need(featureList + 2, featureCount * 6, "FeatureRecords")
        // Features a language system names.
        var used = Set<Int>()
        let scriptCount = try checkedU16(scriptList, "ScriptList")
        try need(scriptList + 2, scriptCount * 6, "ScriptRecords")
        for s in 0..<scriptCount {
            let script = try target(scriptList, scriptList + 2 + s * 6 + 4, "Script")
            var systems: [Int] = []
            if try checkedU16(script, "Script") != 0 { systems.append(try target(script, script, "DefaultLangSys")) }
            let langCount = try checkedU16(script + 2, "LangSysCount")
            try need(script + 4, langCount * 6, "LangSysRecords")
            for l in 0..<langCount { systems.append(try target(script, script + 4 + l * 6 + 4, "LangSys")) }
            for system in systems {
                try need(system, 6, "LangSys")
                let required = u16(system + 2)
                if required != 0xFFFF { used.insert(required) }
                let n = u16(system + 4)
                try need(system + 6, n * 2, "FeatureIndex")
                for k in 0..<n { used.insert(u16(system + 6 + k * 2)) }
            }
        }
        var wanted = Set<Int>()
        var any = false
        for f in used.sorted() where f < featureCount {
            let record = featureList + 2 + f * 6
            // 'kern'
            guard data[record] == 0x6B, data[record + 1] == 0x65, data[record + 2] == 0x72, data[record + 3] == 0x6E else { continue }
            any = true
            let feature = try target(featureList, record + 4, "Feature")
            let n = try checkedU16(feature + 2, "LookupListIndex count")
            try need(feature + 4, n * 2, "LookupListIndex")
            for k in 0..<n { wanted.insert(u16(feature + 4 + k * 2)) }
        }
        guard any else { return nil }
        let lookupCount = try checkedU16(lookupList, "LookupList")
        try need(lookupList + 2, lookupCount * 2, "Lookup offsets")
        var lookups: [[Subtable]] = []
        for index in wanted.sorted() where index < lookupCount {
            let lookup = try target(lookupList, lookupList + 2 + index * 2, "Lookup[\(index)]")
            try need(lookup, 6, "Lookup[\(index)]")
            let type = u16(lookup)
            let n = u16(lookup + 4)
            try need(lookup + 6, n * 2, "Lookup[\(index)] subtable offsets")
            var subtables: [Subtable] = []
            for k in 0..<n {
                var start = try target(lookup, lookup + 6 + k * 2, "Lookup[\(index)].SubTable[\(k)]")
                var realType = type
                if type == 9 {
                    try need(start, 8, "ExtensionPos")
                    realType = u16(start + 2)
                    start = try target(start, start + 4, size: 4, "ExtensionPos")
                }
                guard realType == 2 else { continue }
                subtables.append(try pairPos(at: start, glyphLimit: &glyphLimit, "Lookup[\(index)].SubTable[\(k)]"))
            }
            lookups.append(subtables)
        }
        return lookups
    }

    /// Bytes of a ValueRecord, and where XAdvance sits in it (nil when the format has none).
    static func valueLayout(_ format: Int) -> (size: Int, xAdvance: Int?) {
        let size = (format & 0xFF).nonzeroBitCount * 2
        return (size, format & 4 != 0 ? (format & 3).nonzeroBitCount * 2 : nil)
    }

    func pairPos(at start: Int, glyphLimit: inout Int, _ where_: String) throws -> Subtable {
        let format = try checkedU16(start, where_ + " PairPos format")
        try need(start, 10, where_ + " PairPos")
        let coverage = try target(start, start + 2, where_ + " Coverage")
        try checkCoverage(coverage, where_ + " Coverage")
        let (size1, x1) = Self.valueLayout(u16(start + 4)), (size2, _) = Self.valueLayout(u16(start + 6))
        let recordSize = size1 + size2
        let value1 = x1 ?? -1
        switch format {
        case 1:
            let setCount = u16(start + 8)
            try need(start + 10, setCount * 2, where_ + " PairSet offsets")
            for k in 0..<setCount {
                let set = try target(start, start + 10 + k * 2, where_ + " PairSet[\(k)]")
                let n = try checkedU16(set, where_ + " PairSet[\(k)]")
                try need(set + 2, n * (2 + recordSize), where_ + " PairSet[\(k)] records")
                for r in 0..<n { glyphLimit = max(glyphLimit, u16(set + 2 + r * (2 + recordSize)) + 1) }
            }
            return .glyphPairs(start: start, coverage: coverage, value1: value1, recordSize: recordSize)
        case 2:
            try need(start, 16, where_ + " PairPos format 2")
            let classDef1 = try target(start, start + 8, where_ + " ClassDef1")
            let classDef2 = try target(start, start + 10, where_ + " ClassDef2")
            let class1Count = u16(start + 12), class2Count = u16(start + 14)
            try need(start + 16, class1Count * class2Count * recordSize, where_ + " Class1Records")
            try checkClassDef(classDef1, where_ + " ClassDef1")
            var members = Array(repeating: [UInt16](), count: class2Count)
            var limit = glyphLimit
            try forEachClass(classDef2, where_ + " ClassDef2") { glyph, c in
                if c > 0 && c < class2Count { members[c].append(UInt16(glyph)) }
                limit = max(limit, glyph + 1)
            }
            glyphLimit = limit
            return .classPairs(
                start: start, coverage: coverage, classDef1: classDef1, class2Count: class2Count,
                class1Count: class1Count, value1: value1, recordSize: recordSize, members: members)
        default:
            throw fail(where_ + ": unknown PairPos format \(format)", at: start)
        }
    }

    func checkCoverage(_ at: Int, _ what: String) throws {
        let format = try checkedU16(at, what)
        let n = try checkedU16(at + 2, what)
        switch format {
        case 1: try need(at + 4, n * 2, what + " glyphs")
        case 2: try need(at + 4, n * 6, what + " ranges")
        default: throw fail("\(what): unknown format \(format)", at: at)
        }
    }

    func checkClassDef(_ at: Int, _ what: String) throws { try forEachClass(at, what, nil) }

    /// Checks a ClassDef and, given a body, calls it per classed glyph.
    func forEachClass(_ at: Int, _ what: String, _ body: ((Int, Int) -> Void)?) throws {
        let format = try checkedU16(at, what)
        switch format {
        case 1:
            try need(at, 6, what)
            let first = u16(at + 2), n = u16(at + 4)
            try need(at + 6, n * 2, what + " classes")
            // Glyph ids stop at 65,535; classes listed past them are not read.
            if let body { for k in 0..<min(n, 0x10000 - first) { body(first + k, u16(at + 6 + k * 2)) } }
        case 2:
            let n = try checkedU16(at + 2, what)
            try need(at + 4, n * 6, what + " ranges")
            if let body {
                for k in 0..<n {
                    let r = at + 4 + k * 6
                    let first = u16(r), last = u16(r + 2), c = u16(r + 4)
                    if first <= last { for g in first...last { body(g, c) } }
                }
            }
        default: throw fail("\(what): unknown format \(format)", at: at)
        }
    }

    /// The coverage index of a glyph (a checked Coverage).
    func coverageIndex(_ at: Int, _ glyph: Int) -> Int? {
        let n = u16(at + 2)
        if u16(at) == 1 {
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                let g = u16(at + 4 + mid * 2)
                if g == glyph { return mid }
                if g < glyph { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2, r = at + 4 + mid * 6
            if glyph < u16(r) { hi = mid } else if glyph > u16(r + 2) { lo = mid + 1 } else { return u16(r + 4) + glyph - u16(r) }
        }
        return nil
    }

    /// The class of a glyph in a checked ClassDef (0 when unlisted).
    func classOf(_ at: Int, _ glyph: Int) -> Int {
        if u16(at) == 1 {
            let first = u16(at + 2), n = u16(at + 4)
            return glyph >= first && glyph < first + n ? u16(at + 6 + (glyph - first) * 2) : 0
        }
        var lo = 0, hi = u16(at + 2)
        while lo < hi {
            let mid = (lo + hi) / 2, r = at + 4 + mid * 6
            if glyph < u16(r) { hi = mid } else if glyph > u16(r + 2) { lo = mid + 1 } else { return u16(r + 4) }
        }
        return 0
    }

    func forEachCovered(_ at: Int, _ body: (Int) -> Void) {
        let n = u16(at + 2)
        if u16(at) == 1 { for k in 0..<n { body(u16(at + 4 + k * 2)) }; return }
        for k in 0..<n {
            let r = at + 4 + k * 6
            let first = u16(r), last = u16(r + 2)
            if first <= last { for g in first...last { body(g) } }
        }
    }

    // MARK: kern table

    /// The horizontal, non-cross-stream, non-minimum subtables of a `kern` table (Microsoft's
    /// version 0 header or Apple's version 1), formats 0 and 2, each as its own lookup.
    func kernTableSubtables(glyphLimit: inout Int) throws -> [[Subtable]] {
        try need(0, 4, "kern header")
        var out: [[Subtable]] = []
        let apple = u16(0) == 1
        if apple { try need(0, 8, "kern header") }
        let count = apple ? u32(4) : u16(2)
        var position = apple ? 8 : 4
        for k in 0..<count {
            let headerSize = apple ? 8 : 6
            try need(position, headerSize, "kern subtable \(k) header")
            let length = apple ? u32(position) : u16(position + 2)
            let coverage = u16(position + 4)
            let format: Int, horizontal: Bool
            if apple {
                format = coverage & 0xFF
                horizontal = coverage & 0xE000 == 0   // not vertical, cross-stream or variation
            } else {
                format = coverage >> 8
                horizontal = coverage & 1 != 0 && coverage & 6 == 0   // horizontal, not minimum or cross-stream
            }
            let body = position + headerSize
            var end = position + length
            if horizontal && format == 0 {
                let n = try checkedU16(body, "kern subtable \(k) nPairs")
                try need(body + 8, n * 6, "kern subtable \(k) pairs")
                for p in 0..<n { glyphLimit = max(glyphLimit, u16(body + 8 + p * 6 + 2) + 1) }
                out.append([.kernPairs(start: body + 8, count: n)])
                // Big format 0 subtables overflow their 16-bit length: nPairs says where they end.
                if !apple { end = body + 8 + n * 6 }
            } else if horizontal && format == 2 {
                let st = position   // class table offsets are from the subtable's start
                try need(body, 8, "kern subtable \(k) format 2 header")
                let left = try target(st, body + 2, "kern subtable \(k) left class table")
                let right = try target(st, body + 4, "kern subtable \(k) right class table")
                let array = try target(st, body + 6, "kern subtable \(k) kerning array")
                try need(left, 4, "kern subtable \(k) left class table")
                try need(left + 4, u16(left + 2) * 2, "kern subtable \(k) left classes")
                try need(right, 4, "kern subtable \(k) right class table")
                let firstRight = u16(right), rightCount = u16(right + 2)
                try need(right + 4, rightCount * 2, "kern subtable \(k) right classes")
                var members: [Int: [UInt16]] = [:]
                // Glyph ids stop at 65,535; a class table that runs past them is cut there.
                for g in 0..<min(rightCount, 0x10000 - firstRight) {
                    let c = u16(right + 4 + g * 2)
                    members[c, default: []].append(UInt16(firstRight + g))
                    glyphLimit = max(glyphLimit, firstRight + g + 1)
                }
                // Values are read at left + right class offsets from the subtable start; check them now.
                for l in 0..<u16(left + 2) {
                    for c in members.keys { try need(st + u16(left + 4 + l * 2) + c, 2, "kern subtable \(k) kerning value") }
                }
                out.append([.kernClasses(start: st, left: left, right: right, array: array, members: members)])
            }
            guard length >= headerSize || (!apple && format == 0) else {
                throw fail("kern subtable \(k): length \(length) is shorter than its header", at: position)
            }
            guard end > position else { break }
            position = end
        }
        return out
    }

    // MARK: walking

    /// An upper bound on the pairs a subtable gives, from its headers.
    func mostPairs(_ st: Subtable) -> Int {
        switch st {
        case .glyphPairs(let start, _, _, _):
            return (0..<u16(start + 8)).reduce(0) { $0 + u16(start + u16(start + 10 + $1 * 2)) }
        case .classPairs(_, let coverage, _, _, _, _, _, let members):
            return coveredCount(coverage) * members.reduce(0) { $0 + $1.count }
        case .kernPairs(_, let count):
            return count
        case .kernClasses(_, let left, _, _, let members):
            return u16(left + 2) * members.values.reduce(0) { $0 + $1.count }
        }
    }

    func coveredCount(_ at: Int) -> Int {
        let n = u16(at + 2)
        if u16(at) == 1 { return n }
        return (0..<n).reduce(0) { total, k in
            let r = at + 4 + k * 6
            return total + max(0, u16(r + 2) - u16(r) + 1)
        }
    }

    func forEachFirst(of st: Subtable, _ body: (Int) -> Void) {
        switch st {
        case .glyphPairs(_, let coverage, _, _), .classPairs(_, let coverage, _, _, _, _, _, _):
            forEachCovered(coverage, body)
        case .kernPairs(let start, let count):
            var previous = -1
            for p in 0..<count { let l = u16(start + p * 6); if l != previous { body(l); previous = l } }
        case .kernClasses(_, let left, _, _, _):
            let first = u16(left)
            for g in 0..<u16(left + 2) { body(first + g) }
        }
    }

    /// Which of a subtable's rows `give` would walk for `left` (nil when it gives nothing), and
    /// whether it ends the lookup for that glyph, without walking it.
    func rowKey(_ st: Subtable, left: Int) -> (key: Int, ended: Bool)? {
        switch st {
        case .glyphPairs(let start, let coverage, _, _):
            guard let k = coverageIndex(coverage, left), k < u16(start + 8) else { return nil }
            return (start + u16(start + 10 + k * 2), false)
        case .classPairs(_, let coverage, let classDef1, _, _, _, _, _):
            guard coverageIndex(coverage, left) != nil else { return nil }
            return (classOf(classDef1, left), true)
        case .kernPairs:
            return (left, false)
        case .kernClasses(_, let leftTable, _, _, _):
            let first = u16(leftTable)
            guard left >= first, left < first + u16(leftTable + 2) else { return nil }
            return (u16(leftTable + 4 + (left - first) * 2), false)
        }
    }

    /// Gives the pairs a subtable has for `left`; returns whether the lookup ends here for it.
    @inline(__always) func give(_ st: Subtable, left: Int, _ body: (Int, Int) -> Void) -> Bool {
        switch st {
        case .glyphPairs(let start, let coverage, let value1, let recordSize):
            guard let k = coverageIndex(coverage, left), k < u16(start + 8) else { return false }
            let set = start + u16(start + 10 + k * 2)
            let n = u16(set)
            for r in 0..<n {
                let record = set + 2 + r * (2 + recordSize)
                body(u16(record), value1 >= 0 ? i16(record + 2 + value1) : 0)
            }
            return false
        case .classPairs(let start, let coverage, let classDef1, let class2Count, let class1Count, let value1, let recordSize, let members):
            guard coverageIndex(coverage, left) != nil else { return false }
            let c1 = classOf(classDef1, left)
            guard c1 < class1Count, value1 >= 0 else { return true }
            for c2 in 1..<max(class2Count, 1) {
                let v = i16(start + 16 + (c1 * class2Count + c2) * recordSize + value1)
                if v != 0 { for right in members[c2] { body(Int(right), v) } }
            }
            return true
        case .kernPairs(let start, let count):
            var lo = 0, hi = count
            while lo < hi { let mid = (lo + hi) / 2; if u16(start + mid * 6) < left { lo = mid + 1 } else { hi = mid } }
            while lo < count, u16(start + lo * 6) == left { body(u16(start + lo * 6 + 2), i16(start + lo * 6 + 4)); lo += 1 }
            return false
        case .kernClasses(let st, let leftTable, _, _, let members):
            let first = u16(leftTable)
            guard left >= first, left < first + u16(leftTable + 2) else { return false }
            let row = u16(leftTable + 4 + (left - first) * 2)
            for (c, glyphs) in members {
                let v = i16(st + row + c)
                if v != 0 { for right in glyphs { body(Int(right), v) } }
            }
            return false
        }
    }
}

/// What a face's kerning is read from: the GPOS, kern and maxp slots (held, so a replaced slot
/// is never mistaken for a new one at the same address) and how often their tables changed.
struct KerningSource: Equatable {
    let slots: [TableSlot?]
    let edits: [Int]
    let glyphCount: Int?

    init(_ face: Face) {
        slots = ["GPOS", "kern", "maxp"].map { face.slots[$0] }
        edits = slots.map { slot in
            switch slot?.decoded {
            case let t as StructuredTable: t.editCount
            case let t as KernTable: t.editCount
            default: 0
            }
        }
        glyphCount = try? face.glyphCount
    }

    static func == (a: KerningSource, b: KerningSource) -> Bool {
        a.edits == b.edits && a.glyphCount == b.glyphCount && zip(a.slots, b.slots).allSatisfy { $0 === $1 }
    }
}
