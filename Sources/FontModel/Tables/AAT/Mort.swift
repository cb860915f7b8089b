/// `mort`, AAT's original glyph metamorphosis, which morx replaced (older Apple fonts still
/// carry it). The same chains, features and five subtable types as morx, in smaller fields:
/// 16-bit offsets, one byte per glyph class and per state-array cell, new states as byte
/// offsets, contextual substitutions as windows into one array of glyph ids, ligature actions
/// pointing at components by word offset. Read into morx's model (`MorxTable.Chain`) as fontTools
/// 4.68 reads it, so TTX interoperates; written as fontTools compiles it.
public final class MortTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "mort"
    public typealias Chain = MorxTable.Chain
    typealias Kind = MorxTable.Kind
    typealias Entry = MorxTable.Entry
    typealias StateMachine = MorxTable.StateMachine

    /// A 16.16 number, 0x00010000 in every mort.
    public let version: UInt32
    public let chains: [Chain]
    /// The font's glyph count: contextual substitutions are written as an array over every glyph.
    public let glyphCount: Int
    public let isEdited = false

    public init(version: UInt32, chains: [Chain], glyphCount: Int) {
        self.version = version; self.chains = chains; self.glyphCount = glyphCount
    }

    public static func == (a: MortTable, b: MortTable) -> Bool { a.version == b.version && a.chains == b.chains }

    // MARK: reading

    public static func decode(_ reader: BinaryReader, face: Face) throws -> MortTable {
        var r = reader
        let version = try r.u32(), chainCount = Int(try r.u32())
        guard chainCount <= r.remaining / 12 else { throw r.error("mort claims \(chainCount) chains, more than the table holds", at: 4) }
        let glyphCount = try face.glyphCount
        var budget = max(1 << 22, 16 * reader.count)
        var chains: [Chain] = []
        for c in 0..<chainCount {
            let start = r.offset
            let defaultFlags = try r.u32(), length = Int(try r.u32()), featureCount = Int(try r.u16()), subtableCount = Int(try r.u16())
            guard length >= 12, length <= reader.count - start else {
                throw r.error("mort chain \(c): length \(length) runs past the table's end", at: start + 4)
            }
            var cr = try reader.sub(start, length)
            try cr.seek(12)
            guard featureCount <= cr.remaining / 12 else {
                throw cr.error("mort chain \(c): \(featureCount) features do not fit its \(length) bytes", at: 8)
            }
            let features = try (0..<featureCount).map { _ in
                MorxTable.Feature(type: try cr.u16(), setting: try cr.u16(), enableFlags: try cr.u32(), disableFlags: try cr.u32())
            }
            guard subtableCount <= cr.remaining / 8 else {
                throw cr.error("mort chain \(c): \(subtableCount) subtables do not fit its \(length) bytes", at: 10)
            }
            var subtables: [MorxTable.Subtable] = []
            for s in 0..<subtableCount {
                let at = cr.offset
                let what = "mort chain \(c) subtable \(s)"
                let subLength = Int(try cr.u16()), coverage = try cr.u8(), type = try cr.u8(), subFlags = try cr.u32()
                guard subLength >= 8, subLength <= length - at else {
                    throw cr.error("\(what): length \(subLength) runs past its chain", at: at)
                }
                guard let kind = Kind(rawValue: Int(type)) else {
                    throw cr.error("\(what): type \(type) is not a mort subtable type (0, 1, 2, 4, 5)", at: at + 3)
                }
                var sub = MorxTable.Subtable(coverage: coverage, reserved: 0, kind: kind, subFeatureFlags: subFlags)
                sub.storedLength = subLength
                let body = try cr.sub(at + 8, subLength - 8)
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
        return MortTable(version: version, chains: chains, glyphCount: glyphCount)
    }

    /// Bytes per entry: the ligature's action offset lives in its flags.
    static func entrySize(_ kind: Kind) -> Int { kind == .contextual || kind == .insertion ? 8 : 4 }

    /// A subtable's state machine. Every offset counts from the start of `reader` (the state
    /// table's header, just after the subtable's).
    static func readMachine(_ reader: BinaryReader, kind: Kind, glyphCount: Int, what: String, budget: inout Int) throws -> StateMachine {
        var r = reader
        let classCount = Int(try r.u16()), classTable = Int(try r.u16()), stateArray = Int(try r.u16()), entryTable = Int(try r.u16())
        guard classCount >= 1 else { throw r.error("\(what): the state table has no glyph classes", at: 0) }
        var substitutionTable = 0, actionTable = 0, componentTable = 0, ligatureTable = 0
        switch kind {
        case .contextual: substitutionTable = Int(try r.u16())
        case .ligature: actionTable = Int(try r.u16()); componentTable = Int(try r.u16()); ligatureTable = Int(try r.u16())
        case .insertion: actionTable = Int(try r.u16())
        case .rearrangement, .noncontextual: break
        }

        var components: [Int] = []
        var rebaseMarks: [Int] = []   // +1 where a rebased range starts, -1 past its end
        if kind == .ligature {
            guard componentTable <= ligatureTable, (ligatureTable - componentTable) % 2 == 0 else {
                throw r.error("\(what): component table at \(componentTable) and ligatures at \(ligatureTable) are out of order")
            }
            var c = try reader.sub(componentTable, ligatureTable - componentTable)
            for _ in 0..<(ligatureTable - componentTable) / 2 {
                let raw = Int(try c.u16())
                guard raw % 2 == 0 else { throw c.error("\(what): ligature component \(raw) is not a word offset", at: c.offset - 2) }
                components.append(raw / 2)
            }
            rebaseMarks = Array(repeating: 0, count: components.count + 1)
        }

        var ct = try reader.sub(from: classTable)
        let firstGlyph = Int(try ct.u16()), classGlyphs = Int(try ct.u16())
        guard firstGlyph + classGlyphs <= 0x10000 else {
            throw ct.error("\(what): class table of \(classGlyphs) glyphs from \(firstGlyph) runs past glyph 65535", at: 2)
        }
        let classBytes = try ct.bytes(classGlyphs)
        let classes = classBytes.enumerated().map { (glyph: UInt16(firstGlyph + $0.offset), value: UInt16($0.element)) }

        guard entryTable >= stateArray else { throw r.error("\(what): the state array at \(stateArray) follows the entry table") }
        let stateCount = (entryTable - stateArray) / classCount
        budget -= stateCount * classCount
        guard budget >= 0 else { throw reader.error("\(what): more states than the table could describe", at: stateArray) }
        var rows = try reader.sub(stateArray, stateCount * classCount)
        var machine = StateMachine(classCount: classCount, classes: classes, states: [])
        var cache: [Int: Entry] = [:]
        var contextOffsets: [Int: (mark: Int16, current: Int16)] = [:]

        func readEntry(_ index: Int) throws -> Entry {
            var e = try reader.sub(entryTable + index * entrySize(kind), entrySize(kind))
            let newStateOffset = Int(try e.u16()) - stateArray, flags = try e.u16()
            guard newStateOffset >= 0, newStateOffset % classCount == 0 else {
                throw e.error("\(what): entry \(index) goes to byte \(newStateOffset + stateArray), which starts no state", at: 0)
            }
            var entry = Entry(newState: UInt16(newStateOffset / classCount), flags: flags)
            switch kind {
            case .rearrangement, .noncontextual: break
            case .contextual: contextOffsets[index] = (try e.i16(), try e.i16())
            case .ligature:
                entry.flags = flags & 0xC000
                if flags & 0x3FFF != 0 {
                    entry.ligatureActions = try readActions(at: Int(flags & 0x3FFF))
                }
            case .insertion:
                let current = Int(try e.u16()), marked = Int(try e.u16())
                func glyphs(_ index: Int, _ count: Int) throws -> [UInt16] {
                    guard index != 0xFFFF, count > 0 else { return [] }
                    var g = try reader.sub(actionTable + 2 * index, 2 * count)
                    return try (0..<count).map { _ in try g.u16() }
                }
                entry.currentInsertion = try glyphs(current, Int(flags >> 5 & 0x1F))
                entry.markedInsertion = try glyphs(marked, Int(flags & 0x1F))
                entry.flags = flags & 0xFC00
            }
            return entry
        }

        /// A ligature entry's actions: each names a component by its word offset in the
        /// subtable; kept as an index into the component table (possibly negative: the glyph id
        /// added to it brings it into the table). The components the first storing action can
        /// reach are marked: fonts store those with the ligature table's offset added.
        func readActions(at start: Int) throws -> [MorxTable.LigatureAction] {
            var a = try reader.sub(from: start)
            var actions: [MorxTable.LigatureAction] = []
            var rebased = false
            while true {
                budget -= 1
                guard budget >= 0, a.remaining >= 4 else {
                    throw reader.error("\(what): ligature actions from \(start) run past the subtable without a last action", at: start)
                }
                let v = try a.u32()
                var wordOffset = Int(v & 0x3FFF_FFFF)
                if wordOffset >= 0x2000_0000 { wordOffset -= 0x4000_0000 }
                let index = wordOffset - componentTable / 2
                guard index < components.count, index + glyphCount > 0 else {
                    throw reader.error("\(what): a ligature action points outside the component table", at: start)
                }
                let store = v & 0x4000_0000 != 0, last = v & 0x8000_0000 != 0
                if (store || last) && !rebased {
                    let lo = max(0, index), hi = min(components.count, index + glyphCount)
                    if lo < hi { rebaseMarks[lo] += 1; rebaseMarks[hi] -= 1 }
                    rebased = true
                }
                actions.append(.init(delta: Int32(index), store: store))
                if last { return actions }
            }
        }

        // The state array names entries by index; each distinct entry is read once.
        var indices: [[Int]] = []
        indices.reserveCapacity(stateCount)
        for _ in 0..<stateCount {
            var row: [Int] = []
            row.reserveCapacity(classCount)
            for _ in 0..<classCount {
                let index = Int(try rows.u8())
                if cache[index] == nil { cache[index] = try readEntry(index) }
                row.append(index)
            }
            indices.append(row)
        }

        switch kind {
        case .contextual:
            // Each distinct offset is a window into the substitution words: glyph g's
            // replacement is the word at 2 * (offset + g). Words before the substitution table
            // and past the subtable's end are no substitution.
            let offsets = Set(contextOffsets.values.flatMap { [$0.mark, $0.current] }.filter { $0 != 0 }).sorted()
            let available = reader.count
            for offset in offsets.map(Int.init) {
                let first = max(0, floorDivide(substitutionTable + 1, 2) - offset)
                let last = min(glyphCount - 1, floorDivide(available - 2, 2) - offset)
                var lookup: [(glyph: UInt16, value: UInt16)] = []
                if first <= last {
                    budget -= last - first + 1
                    guard budget >= 0 else { throw reader.error("\(what): substitutions map more glyphs than the table could describe") }
                    var words = try reader.sub(2 * (offset + first), 2 * (last - first + 1))
                    for g in first...last {
                        let replacement = try words.u16()
                        if replacement != 0 { lookup.append((UInt16(g), replacement)) }
                    }
                }
                machine.perGlyphLookups.append(lookup)
            }
            var lookupOf: [Int16: UInt16] = [:]   // each distinct offset's lookup, in offset order
            for (k, offset) in offsets.enumerated() { lookupOf[offset] = UInt16(k) }
            for (index, o) in contextOffsets {
                cache[index]?.markIndex = o.mark == 0 ? 0xFFFF : lookupOf[o.mark] ?? 0xFFFF
                cache[index]?.currentIndex = o.current == 0 ? 0xFFFF : lookupOf[o.current] ?? 0xFFFF
            }
        case .ligature:
            let ligatureBase = ligatureTable / 2
            var rebase: [Int] = []
            var depth = 0
            for i in components.indices {
                depth += rebaseMarks[i]
                if depth > 0, components[i] >= ligatureBase { rebase.append(i); components[i] -= ligatureBase }
            }
            machine.ligatureRebase = rebase
            machine.components = components.map { UInt16($0) }
            // The ligature count is not stored: as fontTools, the largest index an action
            // sequence can reach (the sum of the largest component each action can pick).
            let rangeMax = RangeMaximum(components)
            var ligatureCount = 0
            for entry in cache.values {
                var reach = 0
                for (k, a) in entry.ligatureActions.enumerated() {
                    let delta = Int(a.delta)
                    reach += rangeMax.max(max(0, delta), min(components.count, delta + glyphCount))
                    if a.store || k == entry.ligatureActions.count - 1 { ligatureCount = max(ligatureCount, reach + 1) }
                }
            }
            // The estimate can run past the subtable (it does whenever an action's range
            // reaches a component larger than the ligatures it leads to): the end bounds it.
            ligatureCount = min(ligatureCount, max(0, reader.count - ligatureTable) / 2)
            var l = try reader.sub(ligatureTable, 2 * ligatureCount)
            machine.ligatures = try (0..<ligatureCount).map { _ in try l.u16() }
        default: break
        }
        machine.states = indices.map { row in row.map { cache[$0] ?? Entry(newState: 0, flags: 0) } }
        return machine
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// The largest value in any range of an array in constant time (a sparse table): the
    /// ligature count sums one per action, and a hostile table has many actions.
    struct RangeMaximum {
        var levels: [[Int]]
        init(_ values: [Int]) {
            levels = [values]
            var width = 1
            while 2 * width <= values.count {
                let previous = levels[levels.count - 1]
                levels.append((0...(values.count - 2 * width)).map { Swift.max(previous[$0], previous[$0 + width]) })
                width *= 2
            }
        }
        /// The maximum of `lo..<hi`, 0 when empty.
        func max(_ lo: Int, _ hi: Int) -> Int {
            guard lo < hi else { return 0 }
            let level = Int.bitWidth - 1 - (hi - lo).leadingZeroBitCount
            return Swift.max(levels[level][lo], levels[level][hi - (1 << level)])
        }
    }

    // MARK: writing

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u32(version); try w.u32(chains.count, "mort chain count")
        for (c, chain) in chains.enumerated() {
            var body = BinaryWriter()
            for f in chain.features { body.u16(f.type); body.u16(f.setting); body.u32(f.enableFlags); body.u32(f.disableFlags) }
            for (s, sub) in chain.subtables.enumerated() {
                let what = "mort chain \(c) subtable \(s)"
                let content =
                    try sub.machine.map { try Self.encodeMachine($0, kind: sub.kind, glyphCount: glyphCount, what: what) }
                    ?? AATLookup.encode(sub.substitutions, glyphCount: glyphCount)
                guard content.count + 8 <= 0xFFFF else { throw FontError("\(what) is larger than 65,535 bytes", table: "mort") }
                body.u16(UInt16(content.count + 8)); body.u8(sub.coverage); body.u8(UInt8(sub.kind.rawValue)); body.u32(sub.subFeatureFlags)
                body.append(content)
            }
            w.u32(chain.defaultFlags); try w.u32(12 + body.count, "mort chain length")
            try w.u16(chain.features.count, "mort feature count"); try w.u16(chain.subtables.count, "mort subtable count")
            w.append(body.bytes)
        }
        return w.bytes
    }

    static func encodeMachine(_ m: StateMachine, kind: Kind, glyphCount: Int, what: String) throws -> [UInt8] {
        func fail(_ message: String) -> FontError { FontError("\(what): \(message)", table: "mort") }
        guard (1...256).contains(m.classCount) else { throw fail("\(m.classCount) glyph classes (mort holds 1 to 256)") }
        for (k, row) in m.states.enumerated() where row.count != m.classCount {
            throw fail("state \(k) has \(row.count) entries for \(m.classCount) classes")
        }
        func pad(_ b: inout [UInt8], _ n: Int) { while b.count % n != 0 { b.append(0) } }
        func aligned(_ v: Int, _ n: Int) -> Int { (v + n - 1) / n * n }

        // Classes: a byte per glyph from the first classed glyph to the last, 1 (out of bounds) between.
        var classData = BinaryWriter()
        if let first = m.classes.first?.glyph, let last = m.classes.last?.glyph {
            var bytes = [UInt8](repeating: 1, count: Int(last - first) + 1)
            for p in m.classes {
                guard p.value <= 255 else { throw fail("glyph \(p.glyph) is in class \(p.value) (mort classes are bytes)") }
                bytes[Int(p.glyph - first)] = UInt8(p.value)
            }
            classData.u16(first); try classData.u16(bytes.count, "\(what) class count"); classData.append(bytes)
        } else {
            classData.u16(0); classData.u16(0)
        }

        // Entries: each distinct one once, in first-use order; the state array a byte each.
        var entries: [Entry] = [], entryIndex: [Entry: Int] = [:], stateData: [UInt8] = []
        for row in m.states {
            for e in row {
                if let known = entryIndex[e] { stateData.append(UInt8(known)); continue }
                guard entries.count < 256 else { throw fail("more than 256 distinct entries (mort's state array holds bytes)") }
                entryIndex[e] = entries.count; stateData.append(UInt8(entries.count)); entries.append(e)
            }
        }
        let extra = kind == .contextual ? 2 : kind == .ligature ? 6 : kind == .insertion ? 2 : 0
        let classAt = 8 + extra, statesAt = aligned(classAt + classData.count, 2), entriesAt = aligned(statesAt + stateData.count, 2)
        let tailAt = entriesAt + entries.count * entrySize(kind)

        var header = BinaryWriter(), tail: [UInt8] = []
        var contextOffsets: [Int] = [], actionOffsets: [[MorxTable.LigatureAction]: Int] = [:], insertionIndex: [[UInt16]: Int] = [:]
        switch kind {
        case .contextual:
            let needed =
                m.states.joined().flatMap { [$0.markIndex, $0.currentIndex] }.filter { $0 != 0xFFFF }.max().map { Int($0) + 1 } ?? 0
            guard needed == m.perGlyphLookups.count else {
                throw fail("the entries use \(needed) substitution lookups; \(m.perGlyphLookups.count) are given")
            }
            guard tailAt <= 0xFFFF else { throw fail("the substitution table's offset \(tailAt) does not fit 16 bits") }
            var words = BinaryWriter()
            for lookup in m.perGlyphLookups {
                let offset = (tailAt + words.count) / 2
                guard offset <= 0x7FFF else { throw fail("a substitution window's offset \(offset) does not fit 15 bits") }
                contextOffsets.append(offset)
                var replacements = [UInt16](repeating: 0, count: glyphCount)
                for p in lookup {
                    guard Int(p.glyph) < glyphCount else {
                        throw fail("a substitution for glyph \(p.glyph), past the font's \(glyphCount)")
                    }
                    replacements[Int(p.glyph)] = p.value
                }
                for v in replacements { words.u16(v) }
            }
            header.u16(UInt16(tailAt))
            tail = words.bytes
        case .ligature:
            var sequences: [[MorxTable.LigatureAction]] = []
            for e in entries where !e.ligatureActions.isEmpty && actionOffsets[e.ligatureActions] == nil {
                actionOffsets[e.ligatureActions] = -1; sequences.append(e.ligatureActions)
            }
            let actionsAt = aligned(tailAt, 4)
            let componentsAt = actionsAt + 4 * sequences.reduce(0) { $0 + $1.count }
            let ligaturesAt = componentsAt + 2 * m.components.count
            guard ligaturesAt <= 0xFFFF else { throw fail("the ligature table's offset \(ligaturesAt) does not fit 16 bits") }
            var rebase = Set(m.ligatureRebase ?? [])
            var actions = BinaryWriter()
            for seq in sequences {
                let at = actionsAt + actions.count
                guard at <= 0x3FFF else { throw fail("ligature actions at \(at) are past the 14 bits an entry can point") }
                actionOffsets[seq] = at
                var rebased = false
                for (k, a) in seq.enumerated() {
                    let value = componentsAt / 2 + Int(a.delta), last = k == seq.count - 1
                    guard (-(1 << 29)..<(1 << 29)).contains(value) else { throw fail("a ligature action's offset does not fit 30 bits") }
                    actions.u32(UInt32(truncatingIfNeeded: value) & 0x3FFF_FFFF | (a.store ? 0x4000_0000 : 0) | (last ? 0x8000_0000 : 0))
                    if m.ligatureRebase == nil, (a.store || last), !rebased {
                        let lo = max(0, Int(a.delta)), hi = min(m.components.count, Int(a.delta) + glyphCount)
                        if lo < hi { rebase.formUnion(lo..<hi) }
                    }
                    rebased = rebased || a.store || last
                }
            }
            var rest = BinaryWriter()
            for (i, c) in m.components.enumerated() {
                let value = 2 * Int(c) + (rebase.contains(i) ? ligaturesAt : 0)
                guard value <= 0xFFFF else { throw fail("ligature component \(i) stores \(value), past 16 bits") }
                rest.u16(UInt16(value))
            }
            for g in m.ligatures { rest.u16(g) }
            header.u16(UInt16(actionsAt)); header.u16(UInt16(componentsAt)); header.u16(UInt16(ligaturesAt))
            tail = [UInt8](repeating: 0, count: actionsAt - tailAt) + actions.bytes + rest.bytes
        case .insertion:
            guard tailAt <= 0xFFFF else { throw fail("the insertion glyphs' offset \(tailAt) does not fit 16 bits") }
            (tail, insertionIndex) = MorxTable.insertionGlyphs(entries)
            header.u16(UInt16(tailAt))
        case .rearrangement, .noncontextual: break
        }

        var entryData = BinaryWriter()
        for e in entries {
            let newState = statesAt + Int(e.newState) * m.classCount
            guard newState <= 0xFFFF else { throw fail("state \(e.newState) starts at byte \(newState), past 16 bits") }
            entryData.u16(UInt16(newState))
            switch kind {
            case .rearrangement, .noncontextual: entryData.u16(e.flags)
            case .contextual:
                entryData.u16(e.flags)
                for index in [e.markIndex, e.currentIndex] { entryData.u16(index == 0xFFFF ? 0 : UInt16(contextOffsets[Int(index)])) }
            case .ligature:
                guard e.flags & 0x3FFF == 0 else { throw fail("a ligature entry with reserved flags (mort keeps its action offset there)") }
                entryData.u16(e.flags | UInt16(e.ligatureActions.isEmpty ? 0 : actionOffsets[e.ligatureActions] ?? 0))
            case .insertion:
                guard e.currentInsertion.count < 32, e.markedInsertion.count < 32 else { throw fail("an insertion of more than 31 glyphs") }
                entryData.u16(e.flags & 0xFC00 | UInt16(e.currentInsertion.count) << 5 | UInt16(e.markedInsertion.count))
                try entryData.u16(e.currentInsertion.isEmpty ? 0xFFFF : insertionIndex[e.currentInsertion] ?? 0, "\(what) insertion index")
                try entryData.u16(e.markedInsertion.isEmpty ? 0xFFFF : insertionIndex[e.markedInsertion] ?? 0, "\(what) insertion index")
            }
        }

        var out = BinaryWriter()
        out.u16(UInt16(m.classCount)); out.u16(UInt16(classAt)); out.u16(UInt16(statesAt)); out.u16(UInt16(entriesAt))
        out.append(header.bytes); out.append(classData.bytes)
        var data = out.bytes
        pad(&data, 2); data += stateData
        pad(&data, 2); data += entryData.bytes; data += tail
        pad(&data, 4)
        guard data.count <= 0xFFFF - 8 else { throw fail("the state table is larger than 65,535 bytes") }
        return data
    }

    // MARK: diff

    public func differences(to other: FontTable) -> [Difference]? {
        differences(to: other, namesA: [], namesB: [])
    }

    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? {
        guard let other = other as? MortTable else { return nil }
        return Difference.keyed(
            table: "mort", MorxTable.items(version: hexVersion, chains: chains, names: namesA),
            MorxTable.items(version: other.hexVersion, chains: other.chains, names: namesB))
    }

    var hexVersion: String { MorxTable.hex32(version) }
}
