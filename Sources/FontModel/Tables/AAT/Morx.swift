/// `morx`, AAT's extended glyph metamorphosis: Apple's layout table (what GSUB is to OpenType).
/// Chains of subtables, each switched on by feature flags; a subtable is a finite state
/// machine over glyph classes (rearrangement, contextual substitution, ligatures, insertion) or
/// a plain glyph → glyph map (non-contextual). Read as fontTools reads it, so TTX interoperates;
/// written as fontTools compiles it (entries shared, ligature actions sharing suffixes).
/// Version 3's per-subtable glyph coverage tables are not read, and not written back.
public final class MorxTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "morx"

    public struct Feature: Equatable, Sendable {
        public var type: UInt16, setting: UInt16, enableFlags: UInt32, disableFlags: UInt32
        public init(type: UInt16, setting: UInt16, enableFlags: UInt32, disableFlags: UInt32) {
            self.type = type; self.setting = setting; self.enableFlags = enableFlags; self.disableFlags = disableFlags
        }
    }

    /// One action of a ligature entry: pop a glyph, add `delta` to its id to index the
    /// component table; `store` keeps the ligature so far. (The "last" bit is derived.)
    public struct LigatureAction: Hashable, Sendable {
        public var delta: Int32, store: Bool
        public init(delta: Int32, store: Bool) { self.delta = delta; self.store = store }
    }

    /// A state machine's entry: where to go and what to do. Which members count depends on the
    /// subtable's type; `flags` is the entry's flags word without the bits the others give (the
    /// ligature's perform-action bit, the insertion counts).
    public struct Entry: Hashable, Sendable {
        public var newState: UInt16
        public var flags: UInt16
        /// Contextual: the per-glyph lookups applied to the marked and the current glyph (0xFFFF none).
        public var markIndex: UInt16 = 0xFFFF, currentIndex: UInt16 = 0xFFFF
        public var ligatureActions: [LigatureAction] = []
        /// Insertion: glyphs inserted at the current and at the marked glyph.
        public var currentInsertion: [UInt16] = [], markedInsertion: [UInt16] = []
        public init(newState: UInt16, flags: UInt16) { self.newState = newState; self.flags = flags }
    }

    /// The state machine of subtable types 0, 1, 2 and 5: glyph classes (0–3 are end of text,
    /// out of bounds, deleted glyph, end of line), and per state one entry per class.
    public struct StateMachine: Equatable, Sendable {
        public var classCount: Int
        /// Glyph → class, by glyph.
        public var classes: [(glyph: UInt16, value: UInt16)]
        public var states: [[Entry]]
        /// Contextual: the substitutions its entries name by index (glyph → glyph, by glyph).
        public var perGlyphLookups: [[(glyph: UInt16, value: UInt16)]] = []
        /// Ligature: the component table actions index, and the ligature glyphs it leads to.
        public var components: [UInt16] = [], ligatures: [UInt16] = []
        /// mort's ligatures only: the components stored with the ligature table's word offset
        /// added (sorted), as fontTools reads them; nil works them out from the actions.
        public var ligatureRebase: [Int]? = nil
        public init(classCount: Int, classes: [(glyph: UInt16, value: UInt16)], states: [[Entry]]) {
            self.classCount = classCount; self.classes = classes; self.states = states
        }
        public static func == (a: StateMachine, b: StateMachine) -> Bool {
            a.classCount == b.classCount && pairsEqual(a.classes, b.classes) && a.states == b.states
                && a.perGlyphLookups.count == b.perGlyphLookups.count
                && zip(a.perGlyphLookups, b.perGlyphLookups).allSatisfy { pairsEqual($0, $1) }
                && a.components == b.components && a.ligatures == b.ligatures && a.ligatureRebase == b.ligatureRebase
        }
    }

    public enum Kind: Int, Sendable, CaseIterable {
        case rearrangement = 0, contextual = 1, ligature = 2, noncontextual = 4, insertion = 5
        /// fontTools' element name.
        public var name: String {
            switch self {
            case .rearrangement: "RearrangementMorph"
            case .contextual: "ContextualMorph"
            case .ligature: "LigatureMorph"
            case .noncontextual: "NoncontextualMorph"
            case .insertion: "InsertionMorph"
            }
        }
        /// The flag bits fontTools names, highest first, and the bits it keeps as ReservedFlags.
        public var flagNames: [(String, UInt16)] {
            switch self {
            case .rearrangement: [("MarkFirst", 0x8000), ("DontAdvance", 0x4000), ("MarkLast", 0x2000)]
            case .contextual: [("SetMark", 0x8000), ("DontAdvance", 0x4000)]
            case .ligature: [("SetComponent", 0x8000), ("DontAdvance", 0x4000)]
            case .noncontextual: []
            case .insertion:
                [
                    ("SetMark", 0x8000), ("DontAdvance", 0x4000), ("CurrentIsKashidaLike", 0x2000),
                    ("MarkedIsKashidaLike", 0x1000), ("CurrentInsertBefore", 0x0800), ("MarkedInsertBefore", 0x0400),
                ]
            }
        }
        public var reservedMask: UInt16 {
            switch self {
            case .rearrangement: 0x1FF0
            case .contextual: 0x3FFF
            case .ligature: 0x1FFF
            case .noncontextual, .insertion: 0
            }
        }
    }

    public struct Subtable: Equatable, Sendable {
        /// The coverage byte: 0x80 vertical, 0x40 descending order, 0x20 both directions, 0x10
        /// logical order; its low four bits are reserved.
        public var coverage: UInt8
        public var reserved: UInt16
        public var kind: Kind
        public var subFeatureFlags: UInt32
        /// Types 0, 1, 2, 5.
        public var machine: StateMachine?
        /// Type 4: glyph → glyph.
        public var substitutions: [(glyph: UInt16, value: UInt16)] = []
        /// The length the font gave (informative; written from the content).
        public var storedLength: Int = 0
        public init(coverage: UInt8, reserved: UInt16, kind: Kind, subFeatureFlags: UInt32) {
            self.coverage = coverage; self.reserved = reserved; self.kind = kind; self.subFeatureFlags = subFeatureFlags
        }
        public static func == (a: Subtable, b: Subtable) -> Bool {
            a.coverage == b.coverage && a.reserved == b.reserved && a.kind == b.kind && a.subFeatureFlags == b.subFeatureFlags
                && a.machine == b.machine && pairsEqual(a.substitutions, b.substitutions)
        }
    }

    public struct Chain: Equatable, Sendable {
        public var defaultFlags: UInt32
        public var features: [Feature]
        public var subtables: [Subtable]
        public var storedLength: Int = 0
        public init(defaultFlags: UInt32, features: [Feature], subtables: [Subtable]) {
            self.defaultFlags = defaultFlags; self.features = features; self.subtables = subtables
        }
        public static func == (a: Chain, b: Chain) -> Bool {
            a.defaultFlags == b.defaultFlags && a.features == b.features && a.subtables == b.subtables
        }
    }

    public let version: UInt16
    public let reserved: UInt16
    public let chains: [Chain]
    /// The font's glyph count: a lookup giving every glyph a value is written in format 0.
    public let glyphCount: Int
    public let isEdited = false

    public init(version: UInt16, reserved: UInt16, chains: [Chain], glyphCount: Int) {
        self.version = version; self.reserved = reserved; self.chains = chains; self.glyphCount = glyphCount
    }

    public static func == (a: MorxTable, b: MorxTable) -> Bool {
        a.version == b.version && a.reserved == b.reserved && a.chains == b.chains
    }

    static func pairsEqual(_ a: [(glyph: UInt16, value: UInt16)], _ b: [(glyph: UInt16, value: UInt16)]) -> Bool {
        a.elementsEqual(b) { $0.glyph == $1.glyph && $0.value == $1.value }
    }

    // MARK: reading

    public static func decode(_ reader: BinaryReader, face: Face) throws -> MorxTable {
        var r = reader
        let version = try r.u16(), reserved = try r.u16(), chainCount = Int(try r.u32())
        guard version == 2 || version == 3 else { throw r.error("morx version \(version) is not 2 or 3", at: 0) }
        guard chainCount <= r.remaining / 16 else { throw r.error("morx claims \(chainCount) chains, more than the table holds", at: 4) }
        let glyphCount = try face.glyphCount
        var budget = max(1 << 22, 16 * reader.count)
        var chains: [Chain] = []
        for c in 0..<chainCount {
            let start = r.offset
            let defaultFlags = try r.u32(), length = Int(try r.u32()), featureCount = Int(try r.u32()), subtableCount = Int(try r.u32())
            guard length >= 16, length <= reader.count - start else {
                throw r.error("morx chain \(c): length \(length) runs past the table's end", at: start + 4)
            }
            var cr = try reader.sub(start, length)
            try cr.seek(16)
            guard featureCount <= cr.remaining / 12 else {
                throw cr.error("morx chain \(c): \(featureCount) features do not fit its \(length) bytes", at: 8)
            }
            let features = try (0..<featureCount).map { _ in
                Feature(type: try cr.u16(), setting: try cr.u16(), enableFlags: try cr.u32(), disableFlags: try cr.u32())
            }
            guard subtableCount <= cr.remaining / 12 else {
                throw cr.error("morx chain \(c): \(subtableCount) subtables do not fit its \(length) bytes", at: 12)
            }
            var subtables: [Subtable] = []
            for s in 0..<subtableCount {
                let at = cr.offset
                let what = "morx chain \(c) subtable \(s)"
                let subLength = Int(try cr.u32()), coverage = try cr.u8(), subReserved = try cr.u16(), type = try cr.u8(),
                    subFlags = try cr.u32()
                guard subLength >= 12, subLength <= length - at else {
                    throw cr.error("\(what): length \(subLength) runs past its chain", at: at)
                }
                guard let kind = Kind(rawValue: Int(type)) else {
                    throw cr.error("\(what): type \(type) is not a morx subtable type (0, 1, 2, 4, 5)", at: at + 7)
                }
                var sub = Subtable(coverage: coverage, reserved: subReserved, kind: kind, subFeatureFlags: subFlags)
                sub.storedLength = subLength
                let body = try cr.sub(at + 12, subLength - 12)
                if kind == .noncontextual {
                    sub.substitutions = try AATLookup.decode(body, glyphCount: glyphCount, what: what, budget: &budget)
                } else {
                    sub.machine = try readMachine(body, kind: kind, glyphCount: glyphCount, what: what, budget: &budget)
                }
                subtables.append(sub)
                try cr.seek(at + subLength)
            }
            var chain = Chain(defaultFlags: defaultFlags, features: features, subtables: subtables)
            chain.storedLength = length
            chains.append(chain)
            try r.seek(start + length)
        }
        return MorxTable(version: version, reserved: reserved, chains: chains, glyphCount: glyphCount)
    }

    static func readMachine(_ reader: BinaryReader, kind: Kind, glyphCount: Int, what: String, budget: inout Int) throws -> StateMachine {
        var r = reader
        let classCount = Int(try r.u32())
        let classTable = Int(try r.u32()), stateArray = Int(try r.u32()), entryTable = Int(try r.u32())
        let perGlyph = kind == .contextual ? Int(try r.u32()) : 0
        let actions = kind == .ligature || kind == .insertion ? Int(try r.u32()) : 0
        let components = kind == .ligature ? Int(try r.u32()) : 0, ligatures = kind == .ligature ? Int(try r.u32()) : 0
        guard classCount >= 1, classCount <= 0xFFFF else { throw r.error("\(what): \(classCount) glyph classes", at: 0) }
        for (name, offset) in [("class table", classTable), ("state array", stateArray), ("entry table", entryTable)]
        where offset > reader.count {
            throw r.error("\(what): its \(name) offset \(offset) is past the subtable's \(reader.count) bytes")
        }
        let classes = try AATLookup.decode(
            try reader.sub(from: classTable), glyphCount: glyphCount, what: "\(what) class table", budget: &budget)
        // As fontTools: the states are the rows between the state array and the entry table.
        let stateCount = max(0, entryTable - stateArray) / (2 * classCount)
        let entrySize = kind == .ligature ? 6 : kind == .rearrangement ? 4 : 8
        var rows = try reader.sub(stateArray, 2 * classCount * stateCount)
        var machine = StateMachine(classCount: classCount, classes: classes, states: [])
        var cache: [Int: Entry] = [:]
        machine.states.reserveCapacity(stateCount)
        for _ in 0..<stateCount {
            // Rows are small in the file (two bytes an entry) but not in memory: they count too.
            budget -= classCount
            guard budget >= 0 else { throw reader.error("\(what): more states than the table could describe", at: stateArray) }
            var row: [Entry] = []
            row.reserveCapacity(classCount)
            for _ in 0..<classCount {
                let index = Int(try rows.u16())
                if let e = cache[index] { row.append(e); continue }
                var e = try reader.sub(entryTable + index * entrySize, entrySize)
                var entry = Entry(newState: try e.u16(), flags: try e.u16())
                switch kind {
                case .rearrangement, .noncontextual: break
                case .contextual:
                    entry.markIndex = try e.u16(); entry.currentIndex = try e.u16()
                case .ligature:
                    let actionIndex = Int(try e.u16())
                    if entry.flags & 0x2000 != 0 {
                        entry.ligatureActions = try readLigatureActions(reader, at: actions + 4 * actionIndex, what: what, budget: &budget)
                    }
                    entry.flags &= ~0x2000
                case .insertion:
                    let currentIndex = Int(try e.u16()), markedIndex = Int(try e.u16())
                    func glyphs(_ index: Int, _ count: Int) throws -> [UInt16] {
                        guard index != 0xFFFF, count > 0 else { return [] }
                        var g = try reader.sub(actions + 2 * index, 2 * count)
                        return try (0..<count).map { _ in try g.u16() }
                    }
                    entry.currentInsertion = try glyphs(currentIndex, Int(entry.flags >> 5 & 0x1F))
                    entry.markedInsertion = try glyphs(markedIndex, Int(entry.flags & 0x1F))
                    entry.flags &= 0xFC00
                }
                cache[index] = entry
                row.append(entry)
            }
            machine.states.append(row)
        }
        switch kind {
        case .contextual:
            let used = machine.states.lazy.flatMap { $0 }.flatMap { [$0.markIndex, $0.currentIndex] }.filter { $0 != 0xFFFF }
            let lookupCount = used.max().map { Int($0) + 1 } ?? 0
            var offsets = try reader.sub(perGlyph, 4 * lookupCount)
            for k in 0..<lookupCount {
                let offset = Int(try offsets.u32())
                machine.perGlyphLookups.append(
                    try AATLookup.decode(
                        try reader.sub(from: perGlyph + offset), glyphCount: glyphCount, what: "\(what) per-glyph lookup \(k)",
                        budget: &budget))
            }
        case .ligature:
            guard components <= ligatures, ligatures <= reader.count else {
                throw r.error("\(what): component table (\(components)) and ligatures (\(ligatures)) out of order or past the end")
            }
            var c = try reader.sub(components, (ligatures - components) / 2 * 2)
            machine.components = try (0..<(ligatures - components) / 2).map { _ in try c.u16() }
            var l = try reader.sub(from: ligatures)
            machine.ligatures = try (0..<l.remaining / 2).map { _ in try l.u16() }
        default: break
        }
        return machine
    }

    static func readLigatureActions(_ reader: BinaryReader, at start: Int, what: String, budget: inout Int) throws -> [LigatureAction] {
        var r = try reader.sub(from: start)
        var out: [LigatureAction] = []
        while true {
            budget -= 1
            guard budget >= 0 else { throw reader.error("\(what): ligature actions run longer than the table could describe", at: start) }
            guard r.remaining >= 4 else {
                throw reader.error("\(what): ligature actions from \(start) run past the subtable without a last action", at: start)
            }
            let v = try r.u32()
            var delta = Int32(bitPattern: v & 0x3FFF_FFFF)
            if delta >= 0x2000_0000 { delta -= 0x4000_0000 }
            out.append(LigatureAction(delta: delta, store: v & 0x4000_0000 != 0))
            if v & 0x8000_0000 != 0 { return out }
        }
    }

    // MARK: writing

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u16(version); w.u16(reserved); try w.u32(chains.count, "morx chain count")
        for (c, chain) in chains.enumerated() {
            var body = BinaryWriter()
            for f in chain.features { body.u16(f.type); body.u16(f.setting); body.u32(f.enableFlags); body.u32(f.disableFlags) }
            for (s, sub) in chain.subtables.enumerated() {
                let content = try Self.encodeBody(sub, glyphCount: glyphCount, what: "morx chain \(c) subtable \(s)")
                try body.u32(12 + content.count, "morx subtable length")
                body.u8(sub.coverage); body.u16(sub.reserved); body.u8(UInt8(sub.kind.rawValue)); body.u32(sub.subFeatureFlags)
                body.append(content)
            }
            w.u32(chain.defaultFlags); try w.u32(16 + body.count, "morx chain length")
            try w.u32(chain.features.count, "morx feature count"); try w.u32(chain.subtables.count, "morx subtable count")
            w.append(body.bytes)
        }
        return w.bytes
    }

    static func encodeBody(_ sub: Subtable, glyphCount: Int, what: String) throws -> [UInt8] {
        guard let m = sub.machine else { return AATLookup.encode(sub.substitutions, glyphCount: glyphCount) }
        let kind = sub.kind
        guard m.classCount >= 1, m.classCount <= 0xFFFF else { throw FontError("\(what): \(m.classCount) glyph classes", table: "morx") }
        for (k, row) in m.states.enumerated() where row.count != m.classCount {
            throw FontError("\(what): state \(k) has \(row.count) entries for \(m.classCount) classes", table: "morx")
        }
        func pad(_ b: inout [UInt8], _ n: Int) { while b.count % n != 0 { b.append(0) } }

        // Action data first: entries refer to it by index.
        var actionData: [UInt8] = []
        var ligatureIndex: [[UInt32]: Int] = [:], insertionIndex: [[UInt16]: Int] = [:]
        let entries = m.states.flatMap { $0 }
        if kind == .ligature {
            let sequences = Set(entries.map { Self.actionWords($0.ligatureActions) }.filter { !$0.isEmpty })
            var words: [UInt32] = []
            for seq in sequences.sorted(by: { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) })
            where ligatureIndex[seq] == nil {
                for k in 0..<seq.count where ligatureIndex[Array(seq[k...])] == nil { ligatureIndex[Array(seq[k...])] = words.count + k }
                words += seq
            }
            var aw = BinaryWriter()
            for v in words { aw.u32(v) }
            actionData = aw.bytes
            pad(&actionData, 4)
        } else if kind == .insertion {
            (actionData, insertionIndex) = insertionGlyphs(entries)
        }

        // The entry table, each distinct entry once, in first-use order; the state array.
        var entryBytes: [[UInt8]: Int] = [:]
        var entryTable = BinaryWriter(), stateArray = BinaryWriter()
        for row in m.states {
            for e in row {
                var b = BinaryWriter()
                b.u16(e.newState)
                switch kind {
                case .rearrangement, .noncontextual: b.u16(e.flags)
                case .contextual: b.u16(e.flags); b.u16(e.markIndex); b.u16(e.currentIndex)
                case .ligature:
                    let words = Self.actionWords(e.ligatureActions)
                    b.u16(e.flags & ~0x2000 | (words.isEmpty ? 0 : 0x2000))
                    try b.u16(words.isEmpty ? 0 : ligatureIndex[words] ?? 0, "\(what) ligature action index")
                case .insertion:
                    guard e.currentInsertion.count < 32, e.markedInsertion.count < 32 else {
                        throw FontError("\(what): an insertion of more than 31 glyphs", table: "morx")
                    }
                    b.u16(e.flags & 0xFC00 | UInt16(e.currentInsertion.count) << 5 | UInt16(e.markedInsertion.count))
                    try b.u16(e.currentInsertion.isEmpty ? 0xFFFF : insertionIndex[e.currentInsertion] ?? 0, "\(what) insertion index")
                    try b.u16(e.markedInsertion.isEmpty ? 0xFFFF : insertionIndex[e.markedInsertion] ?? 0, "\(what) insertion index")
                }
                let index: Int
                if let known = entryBytes[b.bytes] {
                    index = known
                } else {
                    index = entryBytes.count; entryBytes[b.bytes] = index; entryTable.append(b.bytes)
                }
                try stateArray.u16(index, "\(what) entry index")
            }
        }
        var classData = AATLookup.encode(m.classes, glyphCount: glyphCount)
        pad(&classData, 2)
        var states = stateArray.bytes, entryData = entryTable.bytes
        pad(&states, 4); pad(&entryData, 4)
        var perGlyphData: [UInt8] = []
        if kind == .contextual {
            var offsets = BinaryWriter(), lookups: [UInt8] = []
            for lookup in m.perGlyphLookups {
                try offsets.u32(4 * m.perGlyphLookups.count + lookups.count, "\(what) per-glyph lookup offset")
                lookups += AATLookup.encode(lookup, glyphCount: glyphCount)
                pad(&lookups, 2)
            }
            perGlyphData = offsets.bytes + lookups
            pad(&perGlyphData, 4)
        }

        let header = 16 + (kind == .contextual ? 4 : 0) + (kind == .ligature ? 12 : kind == .insertion ? 4 : 0)
        let classAt = header, statesAt = classAt + classData.count, entriesAt = statesAt + states.count,
            afterEntries = entriesAt + entryData.count
        var w = BinaryWriter()
        try w.u32(m.classCount, "\(what) class count"); try w.u32(classAt, "\(what) offset"); try w.u32(statesAt, "\(what) offset");
        try w.u32(entriesAt, "\(what) offset")
        if kind == .contextual { try w.u32(afterEntries, "\(what) offset") }
        if kind == .ligature || kind == .insertion { try w.u32(afterEntries, "\(what) offset") }
        if kind == .ligature {
            try w.u32(afterEntries + actionData.count, "\(what) offset")
            try w.u32(afterEntries + actionData.count + 2 * m.components.count, "\(what) offset")
        }
        w.append(classData); w.append(states); w.append(entryData); w.append(perGlyphData); w.append(actionData)
        if kind == .ligature {
            for c in m.components { w.u16(c) }
            for g in m.ligatures { w.u16(g) }
        }
        return w.bytes
    }

    /// The insertion subtables' glyph lists, as fontTools lays them out for morx and mort: the
    /// longest first, each run of glyphs inside one written already found at its index.
    static func insertionGlyphs(_ entries: [Entry]) -> (data: [UInt8], index: [[UInt16]: Int]) {
        var index: [[UInt16]: Int] = [:]
        let sequences = Set(entries.flatMap { [$0.currentInsertion, $0.markedInsertion] }.filter { !$0.isEmpty })
        var glyphs: [UInt16] = []
        for seq in sequences.sorted(by: { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) })
        where index[seq] == nil {
            for start in 0..<seq.count {
                for end in start..<seq.count where index[Array(seq[start...end])] == nil {
                    index[Array(seq[start...end])] = glyphs.count + start
                }
            }
            glyphs += seq
        }
        var w = BinaryWriter()
        for g in glyphs { w.u16(g) }
        return (w.bytes, index)
    }

    /// A ligature entry's actions as stored: 30-bit deltas, the store bit, the last bit on the last.
    static func actionWords(_ actions: [LigatureAction]) -> [UInt32] {
        actions.enumerated().map { k, a in
            UInt32(bitPattern: a.delta) & 0x3FFF_FFFF | (a.store ? 0x4000_0000 : 0) | (k == actions.count - 1 ? 0x8000_0000 : 0)
        }
    }

    // MARK: diff

    public func differences(to other: FontTable) -> [Difference]? {
        differences(to: other, namesA: [], namesB: [])
    }

    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? {
        guard let other = other as? MorxTable else { return nil }
        return Difference.keyed(table: "morx", items(names: namesA), other.items(names: namesB))
    }

    /// The table as keyed lines: chain and subtable headers, each glyph's class, each state's
    /// entries, each lookup's pairs, each component and ligature, glyphs by name.
    func items(names: [String]) -> [(String, String)] {
        Self.items(version: "\(version)", chains: chains, names: names)
    }

    /// The keyed lines of a morx or mort table.
    static func items(version: String, chains: [Chain], names: [String]) -> [(String, String)] {
        func name(_ g: UInt16) -> String { glyphName(Int(g), in: names) }
        var out: [(String, String)] = [("version", version)]
        for (c, chain) in chains.enumerated() {
            out.append(("chain \(c) default flags", hex32(chain.defaultFlags)))
            for (k, f) in chain.features.enumerated() {
                out.append(
                    (
                        "chain \(c) feature \(k)",
                        "type \(f.type) setting \(f.setting) enable \(hex32(f.enableFlags)) disable \(hex32(f.disableFlags))"
                    ))
            }
            for (s, sub) in chain.subtables.enumerated() {
                let at = "chain \(c) subtable \(s)"
                out.append((at, "\(sub.kind.name) coverage 0x\(String(sub.coverage, radix: 16)) flags \(hex32(sub.subFeatureFlags))"))
                for p in sub.substitutions { out.append(("\(at) \(name(p.glyph))", "→ \(name(p.value))")) }
                guard let m = sub.machine else { continue }
                out.append(("\(at) class count", "\(m.classCount)"))
                for p in m.classes { out.append(("\(at) class of \(name(p.glyph))", "\(p.value)")) }
                for (k, row) in m.states.enumerated() {
                    for (cls, e) in row.enumerated() { out.append(("\(at) state \(k) class \(cls)", entryText(e, sub.kind, name: name))) }
                }
                for (k, lookup) in m.perGlyphLookups.enumerated() {
                    for p in lookup { out.append(("\(at) lookup \(k) \(name(p.glyph))", "→ \(name(p.value))")) }
                }
                for (k, v) in m.components.enumerated() { out.append(("\(at) component \(k)", "\(v)")) }
                for (k, g) in m.ligatures.enumerated() { out.append(("\(at) ligature \(k)", name(g))) }
                if let rebase = m.ligatureRebase {
                    out.append(("\(at) rebased components", rebase.map(String.init).joined(separator: " ")))
                }
            }
        }
        return out
    }

    static func entryText(_ e: Entry, _ kind: Kind, name: (UInt16) -> String) -> String {
        var parts = ["→ state \(e.newState)"]
        parts += kind.flagNames.filter { e.flags & $0.1 != 0 }.map(\.0)
        switch kind {
        case .rearrangement: parts.append("verb \(e.flags & 0xF)")
        case .contextual: parts.append("mark \(e.markIndex) current \(e.currentIndex)")
        case .ligature:
            if !e.ligatureActions.isEmpty {
                parts.append("actions " + e.ligatureActions.map { "\($0.delta)\($0.store ? " store" : "")" }.joined(separator: ", "))
            }
        case .insertion:
            if !e.currentInsertion.isEmpty { parts.append("insert at current " + e.currentInsertion.map(name).joined(separator: " ")) }
            if !e.markedInsertion.isEmpty { parts.append("insert at mark " + e.markedInsertion.map(name).joined(separator: " ")) }
        case .noncontextual: break
        }
        return parts.joined(separator: " ")
    }

    static func hex32(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
