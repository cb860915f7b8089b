/// A positioning value as the font stores it: the fields that are not zero, devices built.
struct OTValue: Equatable {
    /// (field name, value) in ValueRecord order; device fields hold `.device`.
    var fields: [(String, StructValue)] = []

    init() {}

    /// feaLib's conversion: zero fields are left out; in a pair a value with nothing left is
    /// an explicit zero advance.
    init(_ v: ValueRecordSyntax, pairContext: Bool) {
        let values = [v.xPlacement, v.yPlacement, v.xAdvance, v.yAdvance]
        for (k, name) in ["XPlacement", "YPlacement", "XAdvance", "YAdvance"].enumerated()
        where values[k] != 0 || v.variations[k] != nil { fields.append((name, .int(Int64(values[k])))) }
        for (k, name) in ["XPlaDevice", "YPlaDevice", "XAdvDevice", "YAdvDevice"].enumerated() {
            if let row = v.variations[k]?.row {
                fields.append((name, .device(OTValue.variationDevice(row))))
            } else if let d = v.devices[k], let device = OTValue.device(d) {
                fields.append((name, .device(device)))
            }
        }
        fields.sort { Self.order($0.0) < Self.order($1.0) }
        if pairContext, fields.isEmpty { fields = [(v.vertical ? "YAdvance" : "XAdvance", .int(0))] }
    }

    /// A pair side: nil for none or `<NULL>` (value format 0), else the value.
    static func pairValue(_ v: ValueRecordSyntax?) -> OTValue? {
        guard let v, !v.isNull else { return nil }
        return OTValue(v, pairContext: true)
    }

    static func order(_ name: String) -> Int { StructureCodec.valueRecordFields.firstIndex(of: name) ?? 99 }

    var format: Int { fields.reduce(0) { $0 | (1 << Self.order($1.0)) } }

    static func == (a: OTValue, b: OTValue) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Size in 16-bit units, as feaLib weighs a format 1 subtable against another.
    var size: Int {
        fields.reduce(0) { n, f in
            if case .device(let d) = f.1 { return n + d.deltas.count + 3 }
            return n + 1
        }
    }

    /// The record with every field of `format` present (zero where this value has none).
    func record(_ format: Int) -> StructValue {
        var f = StructFields()
        for (bit, name) in StructureCodec.valueRecordFields.enumerated() where format & (1 << bit) != 0 {
            f[name] = fields.first { $0.0 == name }?.1 ?? (bit >= 4 ? StructValue.none : .int(0))
        }
        return .record(f)
    }

    /// A VariationIndex Device naming a row of the builder's variation store by its id; the
    /// ids become (outer, inner) indexes once the store is laid out (`remapVariationDevices`).
    static func variationDevice(_ row: Int) -> DeviceValue {
        DeviceValue(startSize: row >> 16, endSize: row & 0xFFFF, deltaFormat: 0x8000, deltas: [])
    }

    /// A Device table from (size, delta) pairs, in the smallest delta format.
    static func device(_ pairs: [Int]) -> DeviceValue? {
        var deltas: [Int: Int] = [:]
        for k in stride(from: 0, to: pairs.count - 1, by: 2) { deltas[pairs[k]] = pairs[k + 1] }
        guard let start = deltas.keys.min(), let end = deltas.keys.max(), start >= 0, end - start < 0x10000 else { return nil }
        let values = (start...end).map { deltas[$0] ?? 0 }
        let low = values.min() ?? 0, high = values.max() ?? 0
        let format = low > -3 && high < 2 ? 1 : low > -9 && high < 8 ? 2 : 3
        return DeviceValue(startSize: start, endSize: end, deltaFormat: format, deltas: values)
    }
}

struct PairKey: Hashable {
    var first: Int
    var second: Int
}

/// One contextual rule: backtrack (in text order), input, lookahead, and per input position
/// the lookups applied there.
struct ContextRule {
    var prefix: [[Int]]
    var glyphs: [[Int]]
    var suffix: [[Int]]
    var lookups: [[FeatureLookup]?]
    /// Made for an inline rule (`sub a' b by c;`): its lookups were made for it and can be shared.
    var isInline = false

    func sameContext(_ other: ContextRule) -> Bool {
        prefix == other.prefix && suffix == other.suffix && lookups.count == other.lookups.count
            && zip(lookups, other.lookups).allSatisfy { a, b in
                switch (a, b) {
                case (nil, nil): true
                case (let x?, let y?): x.count == y.count && zip(x, y).allSatisfy { $0 === $1 }
                default: false
                }
            }
    }
}

/// A lookup being built from a feature file: its kind, flags and rules, and what it becomes.
final class FeatureLookup {
    enum Kind {
        /// Single, multiple or ligature rules, told apart when the lookup is built (feaLib's AnySubst).
        case anySubstitution
        case single, multiple, alternate, ligature, chainSubstitution, reverseChain
        case singlePosition, pairPosition, cursive, markToBase, markToLigature, markToMark, chainPositioning
    }

    enum SubstitutionEntry {
        case rule([Int], [Int])
        case subtableBreak
    }

    enum ContextEntry {
        case rule(ContextRule)
        case subtableBreak
    }

    enum ClassPairEntry {
        case pair([Int], OTValue?, [Int], OTValue?)
        case subtableBreak
    }

    let kind: Kind
    let location: FeatureLocation
    var flag = 0
    var markFilterSet: Int?
    var useExtension = false
    /// Its index in the lookup list being built.
    var index: Int?

    var substitutions: [SubstitutionEntry] = []
    var substitutionIndex: [[Int]: Int] = [:]
    /// Glyph -1 marks a `subtable;` break (in `cursive` too).
    var alternates: [(glyph: Int, alternates: [Int])] = []
    var contextRules: [ContextEntry] = []
    var reverseRules: [(prefix: [[Int]], suffix: [[Int]], mapping: [Int: Int])] = []
    var singlePositions: [Int: OTValue] = [:]
    var singlePositionOrder: [Int] = []
    var glyphPairs: [PairKey: (OTValue?, OTValue?)] = [:]
    var glyphPairOrder: [PairKey] = []
    var classPairs: [ClassPairEntry] = []
    var cursive: [(glyph: Int, entry: AnchorSyntax?, exit: AnchorSyntax?)] = []
    var marks: [Int: (className: String, anchor: AnchorSyntax)] = [:]
    /// Mark classes whose glyphs are in `marks`, with how many glyphs they had then.
    var addedMarkClasses: [String: Int] = [:]
    var bases: [Int: [String: AnchorSyntax?]] = [:]
    var baseOrder: [Int] = []
    var ligatures: [Int: [[String: AnchorSyntax?]]] = [:]
    /// Mark attachment subtables closed by `subtable;`.
    var closedAttachments:
        [(
            marks: [Int: (className: String, anchor: AnchorSyntax)], bases: [Int: [String: AnchorSyntax?]],
            ligatures: [Int: [[String: AnchorSyntax?]]]
        )] = []

    init(kind: Kind, location: FeatureLocation) {
        self.kind = kind
        self.location = location
    }

    var table: String {
        switch kind {
        case .anySubstitution, .single, .multiple, .alternate, .ligature, .chainSubstitution, .reverseChain: "GSUB"
        default: "GPOS"
        }
    }

    var substitutionKinds: (multiple: Bool, ligature: Bool) {
        var multiple = false, ligature = false
        for case .rule(let k, let v) in substitutions {
            if k.count > 1 { ligature = true }
            if v.count != 1 { multiple = true }
        }
        return (multiple, ligature)
    }

    func addSubtableBreak() {
        switch kind {
        case .anySubstitution, .single, .multiple, .ligature: substitutions.append(.subtableBreak)
        case .chainSubstitution, .chainPositioning: contextRules.append(.subtableBreak)
        case .pairPosition: classPairs.append(.subtableBreak)
        case .alternate: alternates.append((-1, []))
        case .cursive: cursive.append((-1, nil, nil))
        case .markToBase, .markToMark, .markToLigature:
            closedAttachments.append((marks, bases, ligatures))
            marks = [:]
            addedMarkClasses = [:]
            bases = [:]
            ligatures = [:]
        default: break
        }
    }

    // MARK: Rules

    func setSingle(_ a: Int, _ b: Int) { setMapping([a], [b]) }
    func setMultiple(_ a: Int, _ b: [Int]) { setMapping([a], b) }
    func setLigature(_ a: [Int], _ b: Int) { setMapping(a, [b]) }
    func ligatureOutput(_ a: [Int]) -> Int? {
        guard let i = substitutionIndex[a], case .rule(_, let v) = substitutions[i] else { return nil }
        return v.first
    }

    private func setMapping(_ key: [Int], _ value: [Int]) {
        if let i = substitutionIndex[key] {
            substitutions[i] = .rule(key, value)
        } else {
            substitutionIndex[key] = substitutions.count
            substitutions.append(.rule(key, value))
        }
    }

    /// Adds a rule, merged into the last when only its one input class differs (feaLib does so).
    func addContextRule(prefix: [[Int]], glyphs: [[Int]], suffix: [[Int]], lookups: [[FeatureLookup]?], inline: Bool = false) {
        let rule = ContextRule(prefix: prefix, glyphs: glyphs, suffix: suffix, lookups: lookups, isInline: inline)
        if glyphs.count == 1, case .rule(var last)? = contextRules.last, last.glyphs.count == 1, last.sameContext(rule) {
            var merged = last.glyphs[0]
            for g in glyphs[0] where !merged.contains(g) { merged.append(g) }
            last.glyphs[0] = merged
            contextRules[contextRules.count - 1] = .rule(last)
            return
        }
        contextRules.append(.rule(rule))
    }

    /// A lookup a new inline contextual rule can share (feaLib's find_chainable_*): among the
    /// lookups inline rules made since the last `subtable;`, in the earliest rule that has one,
    /// its last. Lookups a rule names (`lookup NAME`) are never shared.
    private func firstChainable(_ fits: (FeatureLookup) -> Bool) -> FeatureLookup? {
        var segment: [ContextRule] = []
        for e in contextRules.reversed() {
            guard case .rule(let r) = e else { break }
            segment.insert(r, at: 0)
        }
        for r in segment where r.isInline {
            if let hit = r.lookups.compactMap({ $0 }).flatMap({ $0 }).last(where: fits) { return hit }
        }
        return nil
    }

    /// A single-substitution lookup already reached from this chain that can take `mapping` too.
    func chainableSingle(_ mapping: [(Int, Int)]) -> FeatureLookup? {
        firstChainable { l in
            l.kind == .single
                && mapping.allSatisfy { a, b in
                    l.substitutionIndex[[a]].map { i in if case .rule(_, let v) = l.substitutions[i] { v == [b] } else { false } } ?? true
                }
        }
    }

    func chainableMultiple(_ glyph: Int, _ replacement: [Int]) -> FeatureLookup? {
        firstChainable { l in
            l.kind == .multiple
                && (l.substitutionIndex[[glyph]].map { i in if case .rule(_, let v) = l.substitutions[i] { v == replacement } else { false }
                } ?? true)
        }
    }

    func chainableAlternate(_ glyph: Int) -> FeatureLookup? {
        firstChainable { l in l.kind == .alternate && !l.alternates.contains { $0.glyph == glyph } }
    }

    func chainableLigature(_ sequences: [[Int]], _ replacement: Int) -> FeatureLookup? {
        firstChainable { l in l.kind == .ligature && sequences.allSatisfy { s in l.ligatureOutput(s).map { $0 == replacement } ?? true } }
    }

    func addSinglePosition(_ g: Int, _ v: OTValue, name: (Int) -> String, at: FeatureLocation) throws {
        if let old = singlePositions[g] {
            guard old == v else { throw FeatureFileError("a different position for glyph \(name(g)) is already defined", at) }
            return
        }
        singlePositions[g] = v
        singlePositionOrder.append(g)
    }

    /// Each glyph's alternates as `aalt` collects them from this lookup (feaLib's
    /// getAlternateGlyphs): one-for-one substitutions, alternate sets, and those of the lookups a
    /// contextual lookup reaches.
    var alternateGlyphs: [(Int, [Int])] {
        var out: [(Int, [Int])] = []
        func add(_ g: Int, _ alts: [Int]) {
            if let i = out.firstIndex(where: { $0.0 == g }) {
                for a in alts where !out[i].1.contains(a) { out[i].1.append(a) }
            } else {
                out.append((g, alts))
            }
        }
        switch kind {
        case .anySubstitution, .single, .multiple, .ligature:
            for case .rule(let k, let v) in substitutions where k.count == 1 && v.count == 1 {
                if let i = out.firstIndex(where: { $0.0 == k[0] }) { out[i].1 = v } else { out.append((k[0], v)) }
            }
        case .alternate:
            for a in alternates where a.glyph >= 0 { out.append((a.glyph, a.alternates)) }
        case .chainSubstitution:
            for case .rule(let r) in contextRules {
                for l in r.lookups.compactMap({ $0 }).flatMap({ $0 }) { for (g, alts) in l.alternateGlyphs { add(g, alts) } }
            }
        default: break
        }
        return out
    }

    /// What this lookup says of GDEF glyph classes when the file gives none.
    var inferredGlyphClasses: [Int: Int] {
        var out: [Int: Int] = [:]
        let all = closedAttachments + [(marks, bases, ligatures)]
        for (m, b, l) in all {
            switch kind {
            case .markToBase:
                for g in b.keys { out[g] = 1 }
                for g in m.keys { out[g] = 3 }
            case .markToLigature:
                for g in l.keys { out[g] = 2 }
                for g in m.keys { out[g] = 3 }
            case .markToMark:
                for g in b.keys { out[g] = 3 }
                for g in m.keys { out[g] = 3 }
            default: break
            }
        }
        return out
    }

    // MARK: Building

    /// AnySubst becomes single, multiple or ligature lookups (several when the rules mix and
    /// the lookup has no name); nil when a named lookup mixes kinds.
    func promoted(isNamed: Bool) -> [FeatureLookup]? {
        guard kind == .anySubstitution else { return [self] }
        func kindOf(_ k: [Int], _ v: [Int]) -> Kind { k.count > 1 ? .ligature : v.count == 1 ? .single : .multiple }
        let kinds = substitutions.map { e -> Kind? in if case .rule(let k, let v) = e { kindOf(k, v) } else { nil } }
        let hasMultiple = kinds.contains(.multiple), hasLigature = kinds.contains(.ligature)
        func make(_ kind: Kind) -> FeatureLookup {
            let l = FeatureLookup(kind: kind, location: location)
            l.flag = flag
            l.markFilterSet = markFilterSet
            l.useExtension = useExtension
            return l
        }
        if !(hasMultiple && hasLigature) {
            let l = make(hasMultiple ? .multiple : hasLigature ? .ligature : .single)
            l.substitutions = substitutions
            return [l]
        }
        if isNamed { return nil }
        var out: [FeatureLookup] = []
        for (entry, k) in zip(substitutions, kinds) {
            let target = k ?? out.last?.kind ?? .single
            if out.last?.kind != target { out.append(make(target)) }
            out[out.count - 1].substitutions.append(entry)
        }
        return out
    }

    var lookupType: Int {
        switch kind {
        case .single, .anySubstitution: 1
        case .multiple: 2
        case .alternate: 3
        case .ligature: 4
        case .chainSubstitution: 6
        case .reverseChain: 8
        case .singlePosition: 1
        case .pairPosition: 2
        case .cursive: 3
        case .markToBase: 4
        case .markToLigature: 5
        case .markToMark: 6
        case .chainPositioning: 8
        }
    }

    /// The Lookup record.
    func build(_ b: FeatureBuilder) throws -> StructValue {
        var type = lookupType
        var subtables: [StructValue]
        switch kind {
        case .anySubstitution, .single, .multiple, .ligature: subtables = substitutionSubtables()
        case .alternate:
            var groups: [[Substitution]] = [[]]
            for a in alternates {
                if a.glyph < 0 { groups.append([]) } else { groups[groups.count - 1].append(Substitution([a.glyph], a.alternates)) }
            }
            subtables = groups.filter { !$0.isEmpty }.map { .substitutions($0) }
        case .chainSubstitution, .chainPositioning:
            let chaining =
                kind == .chainPositioning
                || contextRules.contains { e in if case .rule(let r) = e { !r.prefix.isEmpty || !r.suffix.isEmpty } else { false } }
            subtables = try contextSubtables(chaining: chaining, b)
            if !chaining { type = 5 }
        case .reverseChain: subtables = reverseSubtables()
        case .singlePosition: subtables = singlePositionSubtables()
        case .pairPosition: subtables = pairSubtables(b)
        case .cursive: subtables = cursiveSubtables()
        case .markToBase, .markToMark: subtables = try attachmentSubtables(b)
        case .markToLigature: subtables = try ligatureAttachmentSubtables()
        }
        var wrapped = subtables.map { StructValue.switched(type, $0) }
        if useExtension {
            let ext = table == "GSUB" ? 7 : 9
            wrapped = wrapped.map { st in
                var f = StructFields()
                f["ExtensionLookupType"] = .int(Int64(type))
                f["ExtSubTable"] = st
                return .switched(ext, .formatted(1, f))
            }
            type = ext
        }
        var f = StructFields()
        f["LookupType"] = .int(Int64(type))
        f["LookupFlag"] = .int(Int64(flag))
        f["SubTable"] = .list(wrapped)
        if flag & 0x10 != 0 { f["MarkFilteringSet"] = .int(Int64(markFilterSet ?? 0)) }
        return .record(f)
    }

    private func substitutionSubtables() -> [StructValue] {
        var groups: [[Substitution]] = [[]]
        for e in substitutions {
            switch e {
            case .subtableBreak: groups.append([])
            case .rule(let k, let v): groups[groups.count - 1].append(Substitution(k, v))
            }
        }
        if kind == .ligature {
            // Longest ligatures first, the file's order otherwise (a stable sort, as feaLib's).
            groups = groups.map { g in
                g.enumerated().sorted { ($1.element.input.count, $0.offset) < ($0.element.input.count, $1.offset) }.map(\.element)
            }
        }
        return groups.filter { !$0.isEmpty }.map { .substitutions($0) }
    }

    private static func coverage(_ glyphs: some Sequence<Int>) -> StructValue { .glyphs(GlyphRuns(Set(glyphs).sorted())) }

    private func lookupRecords(_ rule: ContextRule, prefix: String) throws -> StructValue {
        var records: [StructValue] = []
        for (i, list) in rule.lookups.enumerated() {
            for l in list ?? [] {
                guard let index = l.index else {
                    throw FeatureFileError(
                        "the lookup at \(l.location) is not a \(table == "GSUB" ? "substitution" : "positioning") lookup", location)
                }
                var r = StructFields()
                r["SequenceIndex"] = .int(Int64(i))
                r["LookupListIndex"] = .int(Int64(index))
                records.append(.record(r))
            }
        }
        return .list(records)
    }

    /// Contextual subtables as feaLib makes them: the rules between `subtable;` breaks become
    /// format 1 (glyphs), 2 (classes) or 3 (coverages, one subtable per rule), whichever
    /// encodes smallest.
    private func contextSubtables(chaining: Bool, _ b: FeatureBuilder) throws -> [StructValue] {
        var rulesets: [[ContextRule]] = [[]]
        for e in contextRules {
            switch e {
            case .subtableBreak: rulesets.append([])
            case .rule(let r): rulesets[rulesets.count - 1].append(r)
            }
        }
        var out: [StructValue] = []
        for rules in rulesets where !rules.isEmpty {
            var candidates: [[StructValue]] = [try rules.map { try contextFormat3($0, chaining: chaining) }]
            if let classes = contextClasses(rules, b) { candidates.insert([try contextFormat2(rules, classes, chaining: chaining)], at: 0) }
            if rules.allSatisfy({ r in (r.prefix + r.glyphs + r.suffix).allSatisfy { $0.count == 1 } }) {
                candidates.insert([try contextFormat1(rules, chaining: chaining)], at: 0)
            }
            var best = candidates[0], bestSize = Int.max
            for c in candidates {
                let size = (try? encodedSize(c, chaining: chaining)) ?? Int.max
                if size < bestSize { (best, bestSize) = (c, size) }
            }
            out += best
        }
        return out
    }

    private var contextNames: (prefix: String, short: String) { table == "GSUB" ? ("Subst", "Sub") : ("Pos", "Pos") }

    /// The size of these subtables written as one lookup (shared parts written once).
    private func encodedSize(_ subtables: [StructValue], chaining: Bool) throws -> Int {
        let type = table == "GSUB" ? (chaining ? 6 : 5) : (chaining ? 8 : 7)
        let types = table == "GSUB" ? GSUBTable.subtables : GPOSTable.subtables
        var f = StructFields()
        f["LookupType"] = .int(Int64(type))
        f["LookupFlag"] = .int(0)
        f["SubTable"] = .list(subtables.map { .switched(type, $0) })
        return try StructureCodec.encode(.record(f), .record(LayoutCommon.lookup(types)), name: "Lookup").count
    }

    private func contextFormat3(_ rule: ContextRule, chaining: Bool) throws -> StructValue {
        var f = StructFields()
        if chaining {
            f["BacktrackCoverage"] = .list(rule.prefix.reversed().map { Self.coverage($0) })
            f["InputCoverage"] = .list(rule.glyphs.map { Self.coverage($0) })
            f["LookAheadCoverage"] = .list(rule.suffix.map { Self.coverage($0) })
        } else {
            f["Coverage"] = .list(rule.glyphs.map { Self.coverage($0) })
        }
        f["\(contextNames.prefix)LookupRecord"] = try lookupRecords(rule, prefix: contextNames.prefix)
        return .formatted(3, f)
    }

    private func contextFormat1(_ rules: [ContextRule], chaining: Bool) throws -> StructValue {
        let (prefix, short) = contextNames
        let setName = chaining ? "Chain\(short)RuleSet" : "\(short)RuleSet", ruleName = chaining ? "Chain\(short)Rule" : "\(short)Rule"
        var byFirst: [Int: [StructValue]] = [:]
        for r in rules {
            var f = StructFields()
            if chaining { f["Backtrack"] = .list(r.prefix.reversed().map { .int(Int64($0[0])) }) }
            f["Input"] = .list(r.glyphs.dropFirst().map { .int(Int64($0[0])) })
            if chaining { f["LookAhead"] = .list(r.suffix.map { .int(Int64($0[0])) }) }
            f["\(prefix)LookupRecord"] = try lookupRecords(r, prefix: prefix)
            byFirst[r.glyphs[0][0], default: []].append(.record(f))
        }
        let firsts = byFirst.keys.sorted()
        var st = StructFields()
        st["Coverage"] = .glyphs(GlyphRuns(firsts))
        st[setName] = .list(firsts.map { .record(StructFieldsBuilder.make([(ruleName, .list(byFirst[$0]!))])) })
        return .formatted(1, st)
    }

    /// Class definitions for backtrack, input and lookahead, or nil when a glyph would need two classes.
    private func contextClasses(_ rules: [ContextRule], _ b: FeatureBuilder) -> [[[Int]]]? {
        var out: [[[Int]]] = []
        for position in 0..<3 {
            var classes: [[Int]] = []
            var owner: [Int: Int] = [:]
            for r in rules {
                for set in [r.prefix, r.glyphs, r.suffix][position] {
                    let c = Array(Set(set)).sorted { b.name($0) < b.name($1) }
                    if classes.contains(c) { continue }
                    if c.contains(where: { owner[$0] != nil }) { return nil }
                    for g in c { owner[g] = classes.count }
                    classes.append(c)
                }
            }
            out.append([[]] + Self.orderedClasses(classes, b))
        }
        return out
    }

    private func contextFormat2(_ rules: [ContextRule], _ classes: [[[Int]]], chaining: Bool) throws -> StructValue {
        let (prefix, short) = contextNames
        func classOf(_ position: Int, _ g: Int) -> Int { classes[position].firstIndex { $0.contains(g) } ?? 0 }
        func classDef(_ position: Int) -> StructValue {
            var runs: [ClassRun] = []
            for (i, c) in classes[position].enumerated() where i > 0 { runs += c.map { ClassRun(first: $0, last: $0, glyphClass: i) } }
            return .classes(ClassRun.normalized(runs))
        }
        let setName = chaining ? "Chain\(short)ClassSet" : "\(short)ClassSet",
            ruleName = chaining ? "Chain\(short)ClassRule" : "\(short)ClassRule"
        var sets: [[StructValue]] = Array(repeating: [], count: classes[1].count)
        var covered = Set<Int>()
        for r in rules {
            var f = StructFields()
            if chaining {
                f["Backtrack"] = .list(r.prefix.reversed().map { .int(Int64(classOf(0, $0[0]))) })
                f["Input"] = .list(r.glyphs.dropFirst().map { .int(Int64(classOf(1, $0[0]))) })
                f["LookAhead"] = .list(r.suffix.map { .int(Int64(classOf(2, $0[0]))) })
            } else {
                f["Class"] = .list(r.glyphs.dropFirst().map { .int(Int64(classOf(1, $0[0]))) })
            }
            f["\(prefix)LookupRecord"] = try lookupRecords(r, prefix: prefix)
            sets[classOf(1, r.glyphs[0][0])].append(.record(f))
            covered.formUnion(r.glyphs[0])
        }
        var st = StructFields()
        st["Coverage"] = .glyphs(GlyphRuns(covered.sorted()))
        if chaining {
            st["BacktrackClassDef"] = classDef(0)
            st["InputClassDef"] = classDef(1)
            st["LookAheadClassDef"] = classDef(2)
        } else {
            st["ClassDef"] = classDef(1)
        }
        st[setName] = .list(sets.map { $0.isEmpty ? StructValue.none : .record(StructFieldsBuilder.make([(ruleName, .list($0))])) })
        return .formatted(2, st)
    }

    private func reverseSubtables() -> [StructValue] {
        reverseRules.map { rule in
            let covered = rule.mapping.keys.sorted()
            var f = StructFields()
            f["Coverage"] = .glyphs(GlyphRuns(covered))
            f["BacktrackCoverage"] = .list(rule.prefix.reversed().map { Self.coverage($0) })
            f["LookAheadCoverage"] = .list(rule.suffix.map { Self.coverage($0) })
            f["Substitute"] = .list(covered.map { .int(Int64(rule.mapping[$0]!)) })
            return .formatted(1, f)
        }
    }

    /// One SinglePos subtable for these glyphs: format 1 when they share one value.
    private static func singlePosSubtable(_ glyphs: [Int], _ values: [Int: OTValue]) -> StructValue {
        let covered = glyphs.sorted()
        let format = covered.reduce(0) { $0 | values[$1]!.format }
        var f = StructFields()
        f["Coverage"] = .glyphs(GlyphRuns(covered))
        f["ValueFormat"] = .int(Int64(format))
        let records = covered.map { values[$0]!.record(format) }
        if records.allSatisfy({ $0 == records[0] }) {
            f["Value"] = records[0]
            return .formatted(1, f)
        }
        f["Value"] = .list(records)
        return .formatted(2, f)
    }

    /// feaLib's grouping: a value shared widely gets a format 1 subtable; the rest are grouped
    /// by value format into format 2; subtables sorted by size, then first glyph.
    private func singlePositionSubtables() -> [StructValue] {
        var keys: [OTValue] = []
        var glyphsByKey: [[Int]] = []
        var formatOrder: [Int] = []
        var formatMembers: [Int: [Int]] = [:]   // format → key indices, once per glyph
        for g in singlePositionOrder {
            let v = singlePositions[g]!
            let k =
                keys.firstIndex(of: v)
                ?? {
                    keys.append(v)
                    glyphsByKey.append([])
                    return keys.count - 1
                }()
            glyphsByKey[k].append(g)
            if formatMembers[v.format] == nil { formatOrder.append(v.format) }
            formatMembers[v.format, default: []].append(k)
        }
        var result: [[Int]] = []
        var handled = Set<Int>()
        for (k, glyphs) in glyphsByKey.enumerated() where glyphs.count * keys[k].size > 5 {
            result.append(glyphs)
            handled.insert(k)
        }
        for format in formatOrder {
            let open = formatMembers[format]!.filter { !handled.contains($0) }
            guard open.count > 1 else { continue }
            var glyphs: [Int] = []
            var seen = Set<Int>()
            for k in open where seen.insert(k).inserted { glyphs += glyphsByKey[k] }
            result.append(glyphs)
            handled.formUnion(open)
        }
        for (k, glyphs) in glyphsByKey.enumerated() where !handled.contains(k) { result.append([glyphs.last!]) }
        result.sort { ($0.count, -($0.min() ?? 0)) > ($1.count, -($1.min() ?? 0)) }
        return result.map { Self.singlePosSubtable($0, singlePositions) }
    }

    private func pairSubtables(_ b: FeatureBuilder) -> [StructValue] {
        var out: [StructValue] = []
        // Glyph pairs: one subtable per (format1, format2), in that order.
        var byFormats: [PairKey: [PairKey]] = [:]
        for key in glyphPairOrder {
            let (v1, v2) = glyphPairs[key]!
            byFormats[PairKey(first: v1?.format ?? 0, second: v2?.format ?? 0), default: []].append(key)
        }
        for formats in byFormats.keys.sorted(by: { ($0.first, $0.second) < ($1.first, $1.second) }) {
            let pairs = byFormats[formats]!
            var bySecond: [Int: [PairKey]] = [:]
            for p in pairs { bySecond[p.first, default: []].append(p) }
            let firsts = bySecond.keys.sorted()
            var f = StructFields()
            f["Coverage"] = .glyphs(GlyphRuns(firsts))
            f["ValueFormat1"] = .int(Int64(formats.first))
            f["ValueFormat2"] = .int(Int64(formats.second))
            f["PairSet"] = .list(
                firsts.map { first in
                    let records = bySecond[first]!.sorted { $0.second < $1.second }.map { p -> StructValue in
                        let (v1, v2) = glyphPairs[p]!
                        var r = StructFields()
                        r["SecondGlyph"] = .int(Int64(p.second))
                        r["Value1"] = (v1 ?? OTValue()).record(formats.first)
                        r["Value2"] = (v2 ?? OTValue()).record(formats.second)
                        return .record(r)
                    }
                    var ps = StructFields()
                    ps["PairValueRecord"] = .list(records)
                    return .record(ps)
                })
            out.append(.formatted(1, f))
        }
        // Class pairs: consecutive rules share a subtable while their classes fit together.
        var current: [(c1: [Int], c2: [Int], v1: OTValue?, v2: OTValue?)] = []
        var classes1: [[Int]] = [], classes2: [[Int]] = []
        var forceBreak = false
        func canAdd(_ c: [Int], _ classes: [[Int]]) -> Bool {
            classes.contains(c) || !classes.contains { existing in existing.contains { c.contains($0) } }
        }
        func flush() {
            guard !current.isEmpty else { return }
            out.append(classPairSubtable(current, b))
            current = []
            classes1 = []
            classes2 = []
            forceBreak = false
        }
        for entry in classPairs {
            switch entry {
            case .subtableBreak: forceBreak = true
            case .pair(let c1, let v1, let c2, let v2):
                if forceBreak || current.isEmpty || !canAdd(c1, classes1) || !canAdd(c2, classes2) { flush() }
                if !classes1.contains(c1) { classes1.append(c1) }
                if !classes2.contains(c2) { classes2.append(c2) }
                if let i = current.firstIndex(where: { $0.c1 == c1 && $0.c2 == c2 }) {
                    current[i] = (c1, c2, v1, v2)
                } else {
                    current.append((c1, c2, v1, v2))
                }
            }
        }
        flush()
        return out
    }

    /// Classes ordered as feaLib's ClassDefBuilder orders them: larger first, then by names.
    static func orderedClasses(_ classes: [[Int]], _ b: FeatureBuilder) -> [[Int]] {
        classes.sorted { x, y in
            if x.count != y.count { return x.count > y.count }
            return x.map(b.name).lexicographicallyPrecedes(y.map(b.name))
        }
    }

    private func classPairSubtable(_ pairs: [(c1: [Int], c2: [Int], v1: OTValue?, v2: OTValue?)], _ b: FeatureBuilder) -> StructValue {
        var set1: [[Int]] = [], set2: [[Int]] = []
        for p in pairs {
            if !set1.contains(p.c1) { set1.append(p.c1) }
            if !set2.contains(p.c2) { set2.append(p.c2) }
        }
        let classes1 = Self.orderedClasses(set1, b)   // class 0 is the largest
        let classes2 = [[]] + Self.orderedClasses(set2, b)   // class 0 is every other glyph
        let format1 = pairs.reduce(0) { $0 | ($1.v1?.format ?? 0) }, format2 = pairs.reduce(0) { $0 | ($1.v2?.format ?? 0) }
        var f = StructFields()
        f["Coverage"] = Self.coverage(pairs.flatMap(\.c1))
        f["ValueFormat1"] = .int(Int64(format1))
        f["ValueFormat2"] = .int(Int64(format2))
        var runs1: [ClassRun] = [], runs2: [ClassRun] = []
        for (i, c) in classes1.enumerated() where i > 0 { runs1 += c.map { ClassRun(first: $0, last: $0, glyphClass: i) } }
        for (i, c) in classes2.enumerated() where i > 0 { runs2 += c.map { ClassRun(first: $0, last: $0, glyphClass: i) } }
        f["ClassDef1"] = .classes(ClassRun.normalized(runs1))
        f["ClassDef2"] = .classes(ClassRun.normalized(runs2))
        f["Class1Record"] = .list(
            classes1.map { c1 in
                var row = StructFields()
                row["Class2Record"] = .list(
                    classes2.map { c2 in
                        let p = pairs.first { $0.c1 == c1 && $0.c2 == c2 }
                        var cell = StructFields()
                        cell["Value1"] = (p?.v1 ?? OTValue()).record(format1)
                        cell["Value2"] = (p?.v2 ?? OTValue()).record(format2)
                        return .record(cell)
                    })
                return .record(row)
            })
        return .formatted(2, f)
    }

    static func anchor(_ a: AnchorSyntax?) -> StructValue {
        guard let a else { return .none }
        var f = StructFields()
        f["XCoordinate"] = .int(Int64(a.x))
        f["YCoordinate"] = .int(Int64(a.y))
        if let p = a.contourPoint {
            f["AnchorPoint"] = .int(Int64(p))
            return .formatted(2, f)
        }
        if a.xDevice != nil || a.yDevice != nil || a.xVariation != nil || a.yVariation != nil {
            func device(_ pairs: [Int]?, _ row: Int?) -> StructValue {
                if let row { return .device(OTValue.variationDevice(row)) }
                return pairs.flatMap(OTValue.device).map { .device($0) } ?? StructValue.none
            }
            f["XDeviceTable"] = device(a.xDevice, a.xVariation)
            f["YDeviceTable"] = device(a.yDevice, a.yVariation)
            return .formatted(3, f)
        }
        return .formatted(1, f)
    }

    private func cursiveSubtables() -> [StructValue] {
        var groups: [[(glyph: Int, entry: AnchorSyntax?, exit: AnchorSyntax?)]] = [[]]
        for c in cursive {
            if c.glyph < 0 {
                groups.append([])
            } else if let i = groups[groups.count - 1].firstIndex(where: { $0.glyph == c.glyph }) {
                groups[groups.count - 1][i] = c
            } else {
                groups[groups.count - 1].append(c)
            }
        }
        return groups.filter { !$0.isEmpty }.map(cursiveSubtable)
    }

    private func cursiveSubtable(_ group: [(glyph: Int, entry: AnchorSyntax?, exit: AnchorSyntax?)]) -> StructValue {
        let sorted = group.sorted { $0.glyph < $1.glyph }
        var f = StructFields()
        f["Coverage"] = .glyphs(GlyphRuns(sorted.map(\.glyph)))
        f["EntryExitRecord"] = .list(
            sorted.map { r in
                var e = StructFields()
                e["EntryAnchor"] = Self.anchor(r.entry)
                e["ExitAnchor"] = Self.anchor(r.exit)
                return .record(e)
            })
        return .formatted(1, f)
    }

    /// Mark classes numbered as makeotf numbers them: by the first mark glyph of each.
    private static func markClassIDs(_ marks: [Int: (className: String, anchor: AnchorSyntax)]) -> [String: Int] {
        var ids: [String: Int] = [:]
        for g in marks.keys.sorted() where ids[marks[g]!.className] == nil { ids[marks[g]!.className] = ids.count }
        return ids
    }

    private static func markArray(_ marks: [Int: (className: String, anchor: AnchorSyntax)], _ ids: [String: Int]) -> StructValue {
        .record(
            StructFieldsBuilder.make([
                (
                    "MarkRecord",
                    .list(
                        marks.keys.sorted().map { g in
                            .record(
                                StructFieldsBuilder.make([
                                    ("Class", .int(Int64(ids[marks[g]!.className]!))), ("MarkAnchor", anchor(marks[g]!.anchor)),
                                ]))
                        })
                )
            ]))
    }

    private func attachmentSubtables(_ b: FeatureBuilder) throws -> [StructValue] {
        let all = closedAttachments + [(marks, bases, ligatures)]
        let isBase = kind == .markToBase
        return all.filter { !$0.marks.isEmpty || !$0.bases.isEmpty }.map { part in
            let ids = Self.markClassIDs(part.marks)
            let classNames = ids.sorted { $0.value < $1.value }.map(\.key)
            let baseGlyphs = part.bases.keys.sorted()
            let records = baseGlyphs.map { g -> StructValue in
                let anchors = classNames.map { Self.anchor(part.bases[g]?[$0] ?? nil) }
                return .record(StructFieldsBuilder.make([(isBase ? "BaseAnchor" : "Mark2Anchor", .list(anchors))]))
            }
            var f = StructFields()
            f[isBase ? "MarkCoverage" : "Mark1Coverage"] = .glyphs(GlyphRuns(part.marks.keys.sorted()))
            f[isBase ? "BaseCoverage" : "Mark2Coverage"] = .glyphs(GlyphRuns(baseGlyphs))
            f[isBase ? "MarkArray" : "Mark1Array"] = Self.markArray(part.marks, ids)
            f[isBase ? "BaseArray" : "Mark2Array"] = .record(
                StructFieldsBuilder.make([(isBase ? "BaseRecord" : "Mark2Record", .list(records))]))
            return .formatted(1, f)
        }
    }

    private func ligatureAttachmentSubtables() throws -> [StructValue] {
        let all = closedAttachments + [(marks, bases, ligatures)]
        return all.filter { !$0.marks.isEmpty || !$0.ligatures.isEmpty }.map { part in
            let ids = Self.markClassIDs(part.marks)
            let classNames = ids.sorted { $0.value < $1.value }.map(\.key)
            let ligatureGlyphs = part.ligatures.keys.sorted()
            let attaches = ligatureGlyphs.map { g -> StructValue in
                let components = part.ligatures[g]!.map { anchors -> StructValue in
                    .record(StructFieldsBuilder.make([("LigatureAnchor", .list(classNames.map { Self.anchor(anchors[$0] ?? nil) }))]))
                }
                return .record(StructFieldsBuilder.make([("ComponentRecord", .list(components))]))
            }
            var f = StructFields()
            f["MarkCoverage"] = .glyphs(GlyphRuns(part.marks.keys.sorted()))
            f["LigatureCoverage"] = .glyphs(GlyphRuns(ligatureGlyphs))
            f["MarkArray"] = Self.markArray(part.marks, ids)
            f["LigatureArray"] = .record(StructFieldsBuilder.make([("LigatureAttach", .list(attaches))]))
            return .formatted(1, f)
        }
    }
}

/// A record's fields from (name, value) pairs, in order.
enum StructFieldsBuilder {
    static func make(_ pairs: [(String, StructValue)]) -> StructFields {
        var f = StructFields()
        for (k, v) in pairs { f[k] = v }
        return f
    }

    static func make(_ pairs: KeyValuePairs<String, StructValue>) -> StructFields { make(pairs.map { ($0.key, $0.value) }) }
}
