/// Collects what a feature file says (language systems, features, lookups, GDEF statements)
/// and builds GSUB, GPOS and GDEF from it, making the choices feaLib makes (lookup order,
/// feature records shared by identical lookup lists, subtable formats), so its test suite's
/// expected tables are ours too.
final class FeatureBuilder {
    let glyphNames: [String]
    var glyphCount: Int { glyphNames.count }

    private var defaultLanguageSystems: [LanguageSystem] = []
    private var seenNonDefaultScript = false

    // The state while a feature or lookup block is read.
    private var languageSystems: [LanguageSystem] = []
    private var script: String?
    private var language: String?
    private var featureName: String?
    private var lookupName: String?
    private var currentLookup: FeatureLookup?
    private var lookupFlag = 0
    private var markFilterSet: Int?
    private var useExtension = false

    private(set) var lookups: [FeatureLookup] = []
    private var namedLookups: [String: FeatureLookup?] = [:]
    var features = FeatureLookups()
    /// While a feature block is read, the features of the blocks before it.
    var outerFeatures = FeatureLookups()
    /// `aalt`: the features it names, its own alternates, where it was and whether it uses extensions.
    private var aaltFeatures: [String] = []
    private var aaltAlternates: [(glyph: Int, alternates: [Int])] = []
    private var aaltStart: (location: FeatureLocation, useExtension: Bool)?
    private var requiredFeatures: [LanguageSystem: String] = [:]

    // Variable fonts (FeatureVariations.swift): the face's axes, the rows of deltas of
    // variable scalars, condition sets by name, and the lookups each `variation` block gives a
    // feature under a condition set.
    var space: DesignSpace?
    var axes: [FvarTable.Axis] { space?.axes ?? [] }
    var variationStore: VariationStoreBuilder?
    var conditionSets: [String: [AxisCondition]] = [:]
    var variationConditionSet: String?
    var featureVariations: [(key: FeatureKey, sets: [(name: String, lookups: [FeatureLookup])])] = []

    // GDEF.
    private var glyphClassDefs: [Int: Int] = [:]
    private var markAttach: [Int: Int] = [:]
    private var markAttachClassIDs: [[Int]: Int] = [:]
    private var markFilterSets: [[Int]: Int] = [:]
    private var attachPoints: [Int: Set<Int>] = [:]
    /// Carets by position: each a coordinate, and its row of deltas when it varies.
    private var ligatureCaretCoordinates: [Int: [(value: Int, row: Int?)]] = [:]
    private var ligatureCaretPoints: [Int: [Int]] = [:]
    private var markClassGlyphs: [Int] = []

    // Feature parameters and the names they point at.
    private(set) var featureNames: [String: [FeatureNameRecord]] = [:]
    private(set) var cvNames: [String: [String: [FeatureNameRecord]]] = [:]
    private(set) var cvCharacters: [String: [Int]] = [:]
    private var cvParameterCount: [String: Int] = [:]
    private var sizeParameters: (design: Int, subfamily: Int, start: Int, end: Int)?
    /// `table vmtx`: (glyph, value, where) in the file's order; a later value for a glyph wins.
    var verticalOrigins: [(glyph: Int, value: Int, at: FeatureLocation)] = []
    var verticalAdvances: [(glyph: Int, value: Int, at: FeatureLocation)] = []
    /// `table STAT`, built once the name table has the file's other names.
    var stat = STATSyntax()
    /// Name records to add to the name table: (nameID, record), in the file's order.
    private(set) var names: [(Int, FeatureNameRecord)] = []

    struct LanguageSystem: Hashable, Comparable {
        var script: String
        var language: String
        static func < (a: Self, b: Self) -> Bool { (a.script, a.language) < (b.script, b.language) }
    }

    struct FeatureKey: Hashable {
        var system: LanguageSystem
        var feature: String
    }

    /// The lookups of each (language system, feature), keys in the order they were first given
    /// (the order aalt collects alternates in).
    struct FeatureLookups {
        private(set) var keys: [FeatureKey] = []
        private var lookups: [FeatureKey: [FeatureLookup]] = [:]

        subscript(key: FeatureKey) -> [FeatureLookup]? {
            get { lookups[key] }
            set {
                if lookups[key] == nil, newValue != nil { keys.append(key) }
                if newValue == nil { keys.removeAll { $0 == key } }
                lookups[key] = newValue
            }
        }

        var isEmpty: Bool { keys.isEmpty }
    }

    init(glyphNames: [String]) { self.glyphNames = glyphNames }

    func name(_ g: Int) -> String { glyphNames[g] }

    // MARK: Language systems, features, lookups

    func addLanguageSystem(_ script: String, _ language: String, at: FeatureLocation) throws {
        if script == "DFLT", language == "dflt", !defaultLanguageSystems.isEmpty {
            throw FeatureFileError("'languagesystem DFLT dflt' must be the first languagesystem statement", at)
        }
        if script == "DFLT" {
            if seenNonDefaultScript { throw FeatureFileError("languagesystems using the 'DFLT' script must come before all others", at) }
        } else {
            seenNonDefaultScript = true
        }
        let system = LanguageSystem(script: script, language: language)
        if defaultLanguageSystems.contains(system) {
            throw FeatureFileError("'languagesystem \(script.trimmingSpaces) \(language.trimmingSpaces)' has already been given", at)
        }
        defaultLanguageSystems.append(system)
    }

    /// A second file added to the first (`replace: false`): its features go to its own
    /// language systems.
    func startAppendedFile() {
        defaultLanguageSystems = []
        seenNonDefaultScript = false
    }

    private var defaultSystems: [LanguageSystem] {
        defaultLanguageSystems.isEmpty ? [LanguageSystem(script: "DFLT", language: "dflt")] : defaultLanguageSystems
    }

    func startFeature(_ tag: String, useExtension: Bool, at: FeatureLocation) throws {
        if useExtension, tag != "aalt" { throw FeatureFileError("'useExtension' on a feature block is allowed only for 'aalt'", at) }
        if tag == "aalt" { aaltStart = (at, useExtension) }
        languageSystems = defaultSystems
        let first = languageSystems.min()!
        script = first.script
        language = first.language
        currentLookup = nil
        featureName = tag
        // A block's language statements (exclude_dflt) act on its own lookups only: they are
        // collected apart and added to the others when the block ends.
        outerFeatures = features
        features = FeatureLookups()
        lookupFlag = 0
        markFilterSet = nil
        self.useExtension = useExtension
    }

    func endFeature() {
        for key in features.keys { outerFeatures[key] = (outerFeatures[key] ?? []) + features[key]! }
        features = outerFeatures
        outerFeatures = FeatureLookups()
        featureName = nil
        languageSystems = []
        script = nil
        language = nil
        currentLookup = nil
        lookupFlag = 0
        markFilterSet = nil
        useExtension = false
    }

    func startLookupBlock(_ name: String, useExtension: Bool, at: FeatureLocation) throws {
        if featureName == "aalt" {
            throw FeatureFileError(
                "a lookup block cannot be inside 'feature aalt': define it outside and name it with 'lookup \(name);'", at)
        }
        lookupName = name
        namedLookups[name] = .some(nil)
        currentLookup = nil
        self.useExtension = useExtension
        if featureName == nil {
            lookupFlag = 0
            markFilterSet = nil
        }
    }

    func endLookupBlock() {
        lookupName = nil
        currentLookup = nil
        useExtension = false
        if featureName == nil {
            lookupFlag = 0
            markFilterSet = nil
        }
    }

    func addLookupCall(_ name: String, at: FeatureLocation) throws {
        currentLookup = nil
        guard let feature = featureName else { throw FeatureFileError("a lookup reference belongs inside a feature block", at) }
        if let lookup = namedLookups[name] ?? nil { addToFeature(lookup, feature) }
    }

    func addFeatureReference(_ tag: String, at: FeatureLocation) throws {
        guard featureName == "aalt" else { throw FeatureFileError("feature references are only allowed inside 'feature aalt'", at) }
        aaltFeatures.append(tag)
    }

    private static func addAlternates(_ alternates: [Int], for glyph: Int, to list: inout [(glyph: Int, alternates: [Int])]) {
        if let i = list.firstIndex(where: { $0.glyph == glyph }) {
            for g in alternates where !list[i].alternates.contains(g) { list[i].alternates.append(g) }
        } else {
            var unique: [Int] = []
            for g in alternates where !unique.contains(g) { unique.append(g) }
            list.append((glyph, unique))
        }
    }

    /// Builds the `aalt` feature (before the tables): the alternates it gives itself, then those
    /// of the features it names, in the order it names them; a lookup of single substitutions
    /// for glyphs with one alternate and one of alternates for the rest, placed first.
    func buildAalt() {
        guard !aaltFeatures.isEmpty || !aaltAlternates.isEmpty, let start = aaltStart else { return }
        var alternates = aaltAlternates
        for name in aaltFeatures + ["aalt"] {
            for key in features.keys where key.feature == name {
                for l in features[key]! {
                    for (g, alts) in l.alternateGlyphs { Self.addAlternates(alts, for: g, to: &alternates) }
                }
            }
        }
        let single = alternates.filter { $0.alternates.count == 1 }, multiple = alternates.filter { $0.alternates.count > 1 }
        guard !single.isEmpty || !multiple.isEmpty else { return }
        var kept = FeatureLookups()
        for key in features.keys where key.feature != "aalt" { kept[key] = features[key] }
        features = kept
        let old = lookups
        lookups = []
        languageSystems = defaultSystems
        featureName = "aalt"
        lookupFlag = 0
        markFilterSet = nil
        useExtension = start.useExtension
        if !single.isEmpty {
            let l = FeatureLookup(kind: .single, location: start.location)
            for (g, alts) in single { l.setSingle(g, alts[0]) }
            register(l)
        }
        if !multiple.isEmpty {
            let l = FeatureLookup(kind: .alternate, location: start.location)
            l.alternates = multiple
            register(l)
        }
        endFeature()
        lookups += old
    }

    private func register(_ l: FeatureLookup) {
        l.useExtension = useExtension
        lookups.append(l)
        if let featureName { addToFeature(l, featureName) }
    }

    private func addToFeature(_ lookup: FeatureLookup, _ feature: String) {
        for system in languageSystems {
            let key = FeatureKey(system: system, feature: feature)
            features[key] = (features[key] ?? []) + [lookup]
        }
    }

    func setScript(_ newScript: String, at: FeatureLocation) throws {
        guard let feature = featureName else { throw FeatureFileError("script statements are not allowed in standalone lookup blocks", at) }
        if feature == "aalt" || feature == "size" {
            throw FeatureFileError("script statements are not allowed in feature '\(feature)'", at)
        }
        if newScript == script, language == "dflt" {
            try setLanguage(["dflt"], includeDefault: true, required: false, at: at)
            return
        }
        currentLookup = nil
        script = newScript
        lookupFlag = 0
        markFilterSet = nil
        try setLanguage(["dflt"], includeDefault: true, required: false, at: at)
    }

    func setLanguage(_ given: [String], includeDefault: Bool, required: Bool, at: FeatureLocation) throws {
        var languages: [String] = []
        for l in given where !languages.contains(l) { languages.append(l) }
        guard let feature = featureName else {
            throw FeatureFileError("language statements are not allowed in standalone lookup blocks", at)
        }
        if feature == "aalt" || feature == "size" {
            throw FeatureFileError("language statements are not allowed in feature '\(feature)'", at)
        }
        currentLookup = nil
        let script = script ?? "DFLT"
        if required {
            for l in languages {
                if let other = requiredFeatures[LanguageSystem(script: script, language: l)] {
                    throw FeatureFileError(
                        "language \(l.trimmingSpaces) (script \(script.trimmingSpaces)) already has \(other.trimmingSpaces) as its required feature",
                        at)
                }
            }
        }
        for l in languages {
            let key = FeatureKey(system: LanguageSystem(script: script, language: l), feature: feature)
            let defaults = features[FeatureKey(system: LanguageSystem(script: script, language: "dflt"), feature: feature)] ?? []
            var current = features[key] ?? []
            if l == "dflt" || includeDefault {
                for d in defaults where !current.contains(where: { $0 === d }) { current.append(d) }
            } else {
                current.removeAll { c in defaults.contains { $0 === c } }
            }
            features[key] = current
            if required { requiredFeatures[LanguageSystem(script: script, language: l)] = feature }
        }
        languageSystems = languages.map { LanguageSystem(script: script, language: $0) }
        language = languages.count == 1 ? languages[0] : nil
    }

    func setLookupFlag(_ value: Int, markAttachment: [Int]?, markFilteringSet: [Int]?, at: FeatureLocation) throws {
        var flag = value & 0xFF
        if let markAttachment {
            let key = Array(Set(markAttachment)).sorted()
            let id: Int
            if let known = markAttachClassIDs[key] {
                id = known
            } else {
                id = markAttachClassIDs.count + 1
                markAttachClassIDs[key] = id
                for g in key {
                    if markAttach[g] != nil { throw FeatureFileError("glyph \(name(g)) already has a MarkAttachmentType", at) }
                    markAttach[g] = id
                }
            }
            flag |= id << 8
        }
        if let markFilteringSet {
            let key = Array(Set(markFilteringSet)).sorted()
            let id = markFilterSets[key] ?? markFilterSets.count
            markFilterSets[key] = id
            flag |= 0x10
            markFilterSet = id
        } else {
            markFilterSet = nil
        }
        lookupFlag = flag
    }

    func addSubtableBreak(at: FeatureLocation) {
        currentLookup?.addSubtableBreak()
    }

    /// The lookup the next rule of this kind goes into: the current one when it fits, else a new one.
    private func lookup(_ kind: FeatureLookup.Kind, at: FeatureLocation, fits: (FeatureLookup) -> Bool = { _ in true }) throws
        -> FeatureLookup
    {
        if let c = currentLookup, c.kind == kind, c.flag == lookupFlag, c.markFilterSet == markFilterSet, fits(c) { return c }
        if lookupName != nil, currentLookup != nil {
            throw FeatureFileError("within a named lookup block, all rules must be of the same lookup type and flag", at)
        }
        let l = FeatureLookup(kind: kind, location: at)
        l.flag = lookupFlag
        l.markFilterSet = markFilterSet
        l.useExtension = useExtension
        lookups.append(l)
        currentLookup = l
        if let lookupName { namedLookups[lookupName] = .some(l) }
        if let featureName { addToFeature(l, featureName) }
        return l
    }

    /// A lookup only a contextual rule reaches (feaLib's chained lookups): not in any feature.
    private func chainedLookup(_ kind: FeatureLookup.Kind, at: FeatureLocation) -> FeatureLookup {
        let l = FeatureLookup(kind: kind, location: at)
        l.flag = lookupFlag
        l.markFilterSet = markFilterSet
        l.useExtension = useExtension
        lookups.append(l)
        return l
    }

    // MARK: GSUB rules

    private func addSubstitutions(_ mapping: [([Int], [Int])], at: FeatureLocation) throws {
        let isMultiple = mapping.contains { $0.1.count != 1 }, isLigature = mapping.contains { $0.0.count > 1 }
        let l = try lookup(.anySubstitution, at: at) { l in
            let (hasMultiple, hasLigature) = l.substitutionKinds
            return !(hasMultiple && isLigature) && !(hasLigature && isMultiple)
        }
        for (key, value) in mapping {
            if let old = l.substitutionIndex[key] {
                guard case .rule(_, let existing) = l.substitutions[old], existing == value else {
                    throw FeatureFileError("a substitution for \(key.map(name).joined(separator: " ")) is already defined", at)
                }
                continue
            }
            l.substitutionIndex[key] = l.substitutions.count
            l.substitutions.append(.rule(key, value))
        }
    }

    func addSingle(prefix: [[Int]], suffix: [[Int]], from: [Int], to: [Int], forceChain: Bool, at: FeatureLocation) throws {
        if featureName == "aalt" {
            for (a, b) in zip(from, to) { Self.addAlternates([b], for: a, to: &aaltAlternates) }
            return
        }
        var mapping: [(Int, Int)] = []
        var seen: [Int: Int] = [:]
        for (a, b) in zip(from, to) {
            if let i = seen[a] { mapping[i].1 = b } else { seen[a] = mapping.count; mapping.append((a, b)) }
        }
        if !prefix.isEmpty || !suffix.isEmpty || forceChain {
            guard !mapping.isEmpty, prefix.allSatisfy({ !$0.isEmpty }), suffix.allSatisfy({ !$0.isEmpty }) else {
                throw FeatureFileError("empty glyph class in a contextual substitution", at)
            }
            let chain = try lookup(.chainSubstitution, at: at)
            let single = chain.chainableSingle(mapping) ?? chainedLookup(.single, at: at)
            for (a, b) in mapping { single.setSingle(a, b) }
            chain.addContextRule(prefix: prefix, glyphs: [mapping.map(\.0)], suffix: suffix, lookups: [[single]], inline: true)
            return
        }
        try addSubstitutions(mapping.map { ([$0.0], [$0.1]) }, at: at)
    }

    func addMultiple(prefix: [[Int]], glyph: Int, suffix: [[Int]], replacement: [Int], forceChain: Bool, at: FeatureLocation) throws {
        if !prefix.isEmpty || !suffix.isEmpty || forceChain {
            guard prefix.allSatisfy({ !$0.isEmpty }), suffix.allSatisfy({ !$0.isEmpty }) else {
                throw FeatureFileError("empty glyph class in a contextual substitution", at)
            }
            let chain = try lookup(.chainSubstitution, at: at)
            let multiple = chain.chainableMultiple(glyph, replacement) ?? chainedLookup(.multiple, at: at)
            multiple.setMultiple(glyph, replacement)
            chain.addContextRule(prefix: prefix, glyphs: [[glyph]], suffix: suffix, lookups: [[multiple]], inline: true)
            return
        }
        try addSubstitutions([([glyph], replacement)], at: at)
    }

    func addAlternate(prefix: [[Int]], glyph: Int, suffix: [[Int]], alternates: [Int], at: FeatureLocation) throws {
        if featureName == "aalt" {
            Self.addAlternates(alternates, for: glyph, to: &aaltAlternates)
            return
        }
        let target: FeatureLookup
        if !prefix.isEmpty || !suffix.isEmpty {
            let chain = try lookup(.chainSubstitution, at: at)
            target = chain.chainableAlternate(glyph) ?? chainedLookup(.alternate, at: at)
            chain.addContextRule(prefix: prefix, glyphs: [[glyph]], suffix: suffix, lookups: [[target]], inline: true)
        } else {
            target = try lookup(.alternate, at: at)
        }
        if target.alternates.reversed().prefix(while: { $0.glyph >= 0 }).contains(where: { $0.glyph == glyph }) {
            throw FeatureFileError("alternates for glyph \(name(glyph)) are already defined", at)
        }
        target.alternates.append((glyph, alternates))
    }

    func addLigature(prefix: [[Int]], glyphs: [[Int]], suffix: [[Int]], replacement: Int, forceChain: Bool, at: FeatureLocation) throws {
        guard let sequences = Self.product(glyphs, limit: 1_000_000) else {
            throw FeatureFileError("the ligature rule enumerates more than a million sequences", at)
        }
        if !prefix.isEmpty || !suffix.isEmpty || forceChain {
            guard prefix.allSatisfy({ !$0.isEmpty }), suffix.allSatisfy({ !$0.isEmpty }) else {
                throw FeatureFileError("empty glyph class in a contextual substitution", at)
            }
            let chain = try lookup(.chainSubstitution, at: at)
            let ligature = chain.chainableLigature(sequences, replacement) ?? chainedLookup(.ligature, at: at)
            for s in sequences {
                if let old = ligature.ligatureOutput(s), old != replacement {
                    throw FeatureFileError(
                        "conflicting ligature rules: \(s.map(name).joined(separator: " ")) makes \(name(old)) and \(name(replacement))", at)
                }
                ligature.setLigature(s, replacement)
            }
            chain.contextRules.append(
                .rule(ContextRule(prefix: prefix, glyphs: glyphs, suffix: suffix, lookups: [[ligature]], isInline: true)))
            return
        }
        guard glyphs.allSatisfy({ !$0.isEmpty }) else { throw FeatureFileError("empty glyph class in a substitution", at) }
        try addSubstitutions(sequences.map { ($0, [replacement]) }, at: at)
    }

    func addReverseChain(prefix: [[Int]], suffix: [[Int]], from: [Int], to: [Int], at: FeatureLocation) throws {
        guard !from.isEmpty else { throw FeatureFileError("empty glyph class in a substitution", at) }
        let l = try lookup(.reverseChain, at: at)
        var mapping: [Int: Int] = [:]
        for (a, b) in zip(from, to) { mapping[a] = b }
        l.reverseRules.append((prefix, suffix, mapping))
    }

    /// A contextual rule (`sub a' lookup L b;`, `ignore sub …`, `pos …`) for `table`.
    func addChainContext(
        _ table: String, prefix: [[Int]], glyphs: [[Int]], suffix: [[Int]], lookups names: [[String]?], at: FeatureLocation
    ) throws {
        guard glyphs.allSatisfy({ !$0.isEmpty }), prefix.allSatisfy({ !$0.isEmpty }), suffix.allSatisfy({ !$0.isEmpty }) else {
            throw FeatureFileError("empty glyph class in a contextual rule", at)
        }
        let l = try lookup(table == "GSUB" ? .chainSubstitution : .chainPositioning, at: at)
        let resolved: [[FeatureLookup]?] = names.map { list in list.map { $0.compactMap { namedLookups[$0] ?? nil } } }
        l.addContextRule(prefix: prefix, glyphs: glyphs, suffix: suffix, lookups: resolved)
    }

    /// Every sequence taking one glyph from each class, or nil when there would be more than `limit`.
    static func product(_ classes: [[Int]], limit: Int) -> [[Int]]? {
        var out: [[Int]] = [[]]
        for c in classes {
            guard out.count * c.count <= limit else { return nil }
            var next: [[Int]] = []
            next.reserveCapacity(out.count * c.count)
            for prefix in out { for g in c { next.append(prefix + [g]) } }
            out = next
        }
        return out
    }

    // MARK: GPOS rules

    func addSinglePos(prefix: [[Int]], suffix: [[Int]], positions: [([Int], ValueRecordSyntax?)], forceChain: Bool, at: FeatureLocation)
        throws
    {
        if !prefix.isEmpty || !suffix.isEmpty || forceChain {
            guard !positions.isEmpty, prefix.allSatisfy({ !$0.isEmpty }), suffix.allSatisfy({ !$0.isEmpty }) else {
                throw FeatureFileError("empty glyph class in a contextual positioning rule", at)
            }
            let chain = try lookup(.chainPositioning, at: at)
            // The single-position lookups inline rules made since the last `subtable;` (feaLib's
            // find_chainable_single_pos: the earliest that can take the value).
            var targets: [FeatureLookup] = []
            for e in chain.contextRules.reversed() {
                guard case .rule(let r) = e else { break }
                if r.isInline { targets.insert(contentsOf: r.lookups.compactMap { $0 }.flatMap { $0 }, at: 0) }
            }
            var subs: [[FeatureLookup]?] = []
            for (glyphs, value) in positions {
                guard let value else {
                    subs.append(nil)
                    continue
                }
                let v = OTValue(value, pairContext: false)
                let sub =
                    targets.first { t in
                        t.kind == .singlePosition && glyphs.allSatisfy { g in t.singlePositions[g].map { $0 == v } ?? true }
                    }
                    ?? {
                        let s = chainedLookup(.singlePosition, at: at)
                        targets.append(s)
                        return s
                    }()
                for g in glyphs { try sub.addSinglePosition(g, v, name: name, at: at) }
                subs.append([sub])
            }
            chain.addContextRule(prefix: prefix, glyphs: positions.map(\.0), suffix: suffix, lookups: subs, inline: true)
            return
        }
        let l = try lookup(.singlePosition, at: at)
        for (glyphs, value) in positions {
            guard !glyphs.isEmpty else { throw FeatureFileError("empty glyph class in a positioning rule", at) }
            let v = value.map { OTValue($0, pairContext: false) } ?? OTValue()
            for g in glyphs { try l.addSinglePosition(g, v, name: name, at: at) }
        }
    }

    func addGlyphPair(_ a: Int, _ v1: ValueRecordSyntax?, _ b: Int, _ v2: ValueRecordSyntax?, at: FeatureLocation) throws {
        let l = try lookup(.pairPosition, at: at)
        let key = PairKey(first: a, second: b)
        if l.glyphPairs[key] == nil {
            l.glyphPairs[key] = (OTValue.pairValue(v1), OTValue.pairValue(v2))
            l.glyphPairOrder.append(key)
        }
    }

    func addClassPair(_ c1: [Int], _ v1: ValueRecordSyntax?, _ c2: [Int], _ v2: ValueRecordSyntax?, at: FeatureLocation) throws {
        guard !c1.isEmpty, !c2.isEmpty else { throw FeatureFileError("empty glyph class in a positioning rule", at) }
        let l = try lookup(.pairPosition, at: at)
        // Classes as feaLib keys them: glyph names sorted, repeats removed.
        let byName = { (c: [Int]) in Array(Set(c)).sorted { self.glyphNames[$0] < self.glyphNames[$1] } }
        l.classPairs.append(
            .pair(byName(c1), v1.map { OTValue($0, pairContext: true) }, byName(c2), v2.map { OTValue($0, pairContext: true) }))
    }

    func addCursive(_ glyphs: [Int], entry: AnchorSyntax?, exit: AnchorSyntax?, at: FeatureLocation) throws {
        guard !glyphs.isEmpty else { throw FeatureFileError("empty glyph class in a positioning rule", at) }
        let l = try lookup(.cursive, at: at)
        for g in glyphs {
            if let i = l.cursive.firstIndex(where: { $0.glyph == g }) {
                l.cursive[i] = (g, entry, exit)
            } else {
                l.cursive.append((g, entry, exit))
            }
        }
    }

    enum AttachmentKind { case markToBase, markToMark }

    private func addMarks(_ l: FeatureLookup, _ marks: [(AnchorSyntax?, MarkClassSyntax)], at: FeatureLocation) throws {
        var seen: Set<String> = []
        for (_, mark) in marks where !seen.insert(mark.name).inserted {
            throw FeatureFileError("mark class @\(mark.name) is used more than once in the same anchor list", at)
        }
        for (_, mark) in marks {
            // A class already added whole (and not grown since) adds nothing new: skipping it
            // keeps a lookup of many bases linear in its rules, not rules × marks.
            if l.addedMarkClasses[mark.name] == mark.glyphs.count { continue }
            l.addedMarkClasses[mark.name] = mark.glyphs.count
            for g in mark.glyphs {
                if let existing = l.marks[g] {
                    if existing.className != mark.name {
                        throw FeatureFileError("glyph \(name(g)) cannot be in both @\(existing.className) and @\(mark.name)", at)
                    }
                } else {
                    l.marks[g] = (mark.name, mark.anchors[g]!)
                }
            }
        }
    }

    func addMarkAttachment(_ kind: AttachmentKind, _ bases: [Int], marks: [(AnchorSyntax?, MarkClassSyntax)], at: FeatureLocation) throws {
        let l = try lookup(kind == .markToBase ? .markToBase : .markToMark, at: at)
        try addMarks(l, marks, at: at)
        guard !bases.isEmpty else { throw FeatureFileError("empty glyph class in a positioning rule", at) }
        for (anchor, mark) in marks {
            for b in bases {
                if l.bases[b] == nil { l.baseOrder.append(b) }
                l.bases[b, default: [:]][mark.name] = anchor
            }
        }
    }

    func addMarkToLigature(_ ligatures: [Int], components: [[(AnchorSyntax?, MarkClassSyntax)]], at: FeatureLocation) throws {
        let l = try lookup(.markToLigature, at: at)
        guard !ligatures.isEmpty else { throw FeatureFileError("empty glyph class in a positioning rule", at) }
        var anchors: [[String: AnchorSyntax?]] = []
        for marks in components {
            try addMarks(l, marks, at: at)
            var a: [String: AnchorSyntax?] = [:]
            for (anchor, mark) in marks { a[mark.name] = anchor }
            anchors.append(a)
        }
        for g in ligatures { l.ligatures[g] = anchors }
    }

    func noteMarkClass(_ mark: MarkClassSyntax, glyphs: [Int], at: FeatureLocation) throws {
        markClassGlyphs += glyphs
    }

    // MARK: GDEF and names

    func setGlyphClassDef(base: [Int]?, ligature: [Int]?, mark: [Int]?, component: [Int]?, at: FeatureLocation) throws {
        for (glyphs, c) in [(base, 1), (ligature, 2), (mark, 3), (component, 4)] {
            for g in glyphs ?? [] {
                if let old = glyphClassDefs[g], old != c {
                    throw FeatureFileError("glyph \(name(g)) was assigned to a different class", at)
                }
                glyphClassDefs[g] = c
            }
        }
    }

    func addAttachPoints(_ glyphs: [Int], _ points: [Int]) {
        for g in glyphs { attachPoints[g, default: []].formUnion(points) }
    }

    func addLigatureCaretPoints(_ glyphs: [Int], _ points: [Int]) {
        for g in glyphs where ligatureCaretPoints[g] == nil { ligatureCaretPoints[g] = points.sorted() }
    }

    func addLigatureCaretPositions(_ glyphs: [Int], _ carets: [(value: Int, row: Int?)]) {
        // Sorted by coordinate, keeping the file's order among equals (as feaLib's sort does).
        let sorted = carets.enumerated().sorted { ($0.element.value, $0.offset) < ($1.element.value, $1.offset) }.map(\.element)
        for g in glyphs where ligatureCaretCoordinates[g] == nil { ligatureCaretCoordinates[g] = sorted }
    }

    func addFeatureName(_ tag: String, _ record: FeatureNameRecord) {
        featureNames[tag, default: []].append(record)
        names.append((nameID(for: tag), record))
    }

    /// A cvParameters name block; each ParamUILabelNameID block names the next parameter.
    func addCVNames(_ tag: String, block: String, _ records: [FeatureNameRecord]) {
        var key = block
        if block == "ParamUILabelNameID" {
            key += "_\(cvParameterCount[tag, default: 0])"
            cvParameterCount[tag, default: 0] += 1
        }
        cvNames[tag, default: [:]][key] = records
        let id = nameID(for: tag + " " + key)
        for r in records { names.append((id, r)) }
    }

    func startCVParameters(_ tag: String) {
        if cvNames[tag] == nil { cvNames[tag] = [:] }
    }

    func addCVCharacter(_ tag: String, _ c: Int) {
        cvCharacters[tag, default: []].append(c)
    }

    func setSizeParameters(_ design: Int, _ subfamily: Int, _ start: Int, _ end: Int, at: FeatureLocation) throws {
        guard featureName == "size" else { throw FeatureFileError("'parameters' belongs in the size feature", at) }
        sizeParameters = (design, subfamily, start, end)
        for system in languageSystems where features[FeatureKey(system: system, feature: "size")] == nil {
            features[FeatureKey(system: system, feature: "size")] = []
        }
    }

    // MARK: Other tables

    /// Fields `table head|hhea|vhea|OS/2` blocks set, in order: (table, field, value, where).
    private(set) var tableFields: [(table: String, field: String, value: FieldValue, at: FeatureLocation)] = []
    /// The OS/2 version the fields set need (1 for code pages, 2 for x-height, 5 for optical sizes).
    private(set) var os2Version = 0

    func setTableField(_ table: String, _ field: String, numbers: [Int], text: String?, float: Double?, at: FeatureLocation) {
        func set(_ name: String, _ value: FieldValue) { tableFields.append((table, name, value, at)) }
        switch field {
        case "panose":
            let names = [
                "bFamilyType", "bSerifStyle", "bWeight", "bProportion", "bContrast", "bStrokeVariation", "bArmStyle", "bLetterForm",
                "bMidline", "bXHeight",
            ]
            for (n, v) in zip(names, numbers) { set(n, .int(Int64(v))) }
        case "unicodeRange":
            var words = [Int64](repeating: 0, count: 4)
            for bit in numbers { words[bit / 32] |= 1 << Int64(bit % 32) }
            for (i, w) in words.enumerated() { set("ulUnicodeRange\(i + 1)", .int(w)) }
        case "codePageRange":
            // Code pages to their bits, as the OpenType spec lists them.
            let bits: [Int: Int] = [
                1252: 0, 1250: 1, 1251: 2, 1253: 3, 1254: 4, 1255: 5, 1256: 6, 1257: 7, 1258: 8, 874: 16, 932: 17, 936: 18, 949: 19,
                950: 20,
                1361: 21, 869: 48, 866: 49, 865: 50, 864: 51, 863: 52, 862: 53, 861: 54, 860: 55, 857: 56, 855: 57, 852: 58, 775: 59,
                737: 60,
                708: 61, 850: 62, 437: 63,
            ]
            var words: [Int64] = [0, 0]
            for page in numbers { if let b = bits[page] { words[b / 32] |= 1 << Int64(b % 32) } }
            os2Version = max(os2Version, 1)
            set("ulCodePageRange1", .int(words[0])); set("ulCodePageRange2", .int(words[1]))
        case "achVendID":
            let vendor = text ?? ""
            set(field, .string(vendor + String(repeating: " ", count: max(0, 4 - vendor.utf8.count))))
        case "fontRevision": set(field, .double(float ?? 0))
        default:
            if field == "sxHeight" || field == "sCapHeight" { os2Version = max(os2Version, 2) }
            if field.hasSuffix("OpticalPointSize") { os2Version = max(os2Version, 5) }
            set(field, .int(Int64(numbers.first ?? 0)))
        }
    }

    func addNameRecord(_ id: Int, _ record: FeatureNameRecord) { names.append((id, record)) }

    /// BASE axes: baseline tags, per script its default baseline and coordinates, and min/max extents.
    private var baseAxes: [Bool: (tags: [String], scripts: [(String, String, [Int])], minMax: [(String, String, Int, Int)])] = [:]

    func setBaseAxis(vertical: Bool, tags: [String], scripts: [(String, String, [Int])]) {
        baseAxes[vertical] = (tags, scripts, [])
    }

    func addBaseMinMax(vertical: Bool, script: String, language: String, _ low: Int, _ high: Int) {
        baseAxes[vertical]?.minMax.append((script, language, low, high))
    }

    /// BASE, or nil when the file has no BASE block.
    func buildBASE() -> StructFields? {
        guard !baseAxes.isEmpty else { return nil }
        func coordinate(_ c: Int) -> StructValue { .formatted(1, StructFieldsBuilder.make(["Coordinate": .int(Int64(c))])) }
        func minMax(_ low: Int, _ high: Int) -> StructValue {
            .record(StructFieldsBuilder.make(["MinCoord": coordinate(low), "MaxCoord": coordinate(high), "FeatMinMaxRecord": .list([])]))
        }
        func axis(_ vertical: Bool) -> StructValue {
            guard let a = baseAxes[vertical] else { return .none }
            let records = a.scripts.sorted { $0.0 < $1.0 }.map { script, baseline, coords -> StructValue in
                var s = StructFields()
                s["BaseValues"] = .record(
                    StructFieldsBuilder.make([
                        "DefaultIndex": .int(Int64(a.tags.firstIndex(of: baseline) ?? 0)), "BaseCoord": .list(coords.map(coordinate)),
                    ]))
                s["DefaultMinMax"] = StructValue.none
                var languages: [StructValue] = []
                for (_, language, low, high) in a.minMax.filter({ $0.0 == script }).sorted(by: { ($0.1, $0.2, $0.3) < ($1.1, $1.2, $1.3) })
                {
                    if language == "dflt" {
                        s["DefaultMinMax"] = minMax(low, high)
                    } else {
                        languages.append(
                            .record(
                                StructFieldsBuilder.make([
                                    "BaseLangSysTag": .int(Int64(Tag(text: language).rawValue)), "MinMax": minMax(low, high),
                                ])))
                    }
                }
                s["BaseLangSysRecord"] = .list(languages)
                return .record(
                    StructFieldsBuilder.make(["BaseScriptTag": .int(Int64(Tag(text: script).rawValue)), "BaseScript": .record(s)]))
            }
            return .record(
                StructFieldsBuilder.make([
                    "BaseTagList": .record(
                        StructFieldsBuilder.make(["BaselineTag": .list(a.tags.map { .int(Int64(Tag(text: $0).rawValue)) })])),
                    "BaseScriptList": .record(StructFieldsBuilder.make(["BaseScriptRecord": .list(records)])),
                ]))
        }
        return StructFieldsBuilder.make(["Version": .int(0x0001_0000), "HorizAxis": axis(false), "VertAxis": axis(true)])
    }

    // MARK: Building

    /// The GSUB or GPOS value, or nil when the file gives that table nothing.
    func buildLayout(_ tag: String) throws -> StructFields? {
        for l in lookups { l.index = nil }
        var built: [FeatureLookup] = []
        for l in lookups where l.table == tag {
            let isNamed = namedLookups.values.contains { $0 === l }
            guard let resolved = l.promoted(isNamed: isNamed) else {
                throw FeatureFileError("within a named lookup block, all rules must be of the same lookup type and flag", l.location)
            }
            for r in resolved {
                l.index = built.count
                r.index = built.count
                built.append(r)
            }
        }
        let lookupValues = try built.map { try $0.build(self) }

        // Feature records: one per (tag, set of lookups), sorted by tag, then language, then script.
        var featureRecords: [(tag: String, lookups: [Int])] = []
        var featureIndex: [String: Int] = [:]
        var scripts: [String: [String: [Int]]] = [:]
        var required: [LanguageSystem: Int] = [:]
        let keys = features.keys.sorted {
            ($0.feature, $0.system.language, $0.system.script) < ($1.feature, $1.system.language, $1.system.script)
        }
        for key in keys {
            var indices: [Int] = []
            for l in features[key]! { if let i = l.index, !indices.contains(i) { indices.append(i) } }
            let isSize = tag == "GPOS" && key.feature == "size"
            if indices.isEmpty, !isSize, !hasVariations(key.feature, table: tag) { continue }
            let id = key.feature + "|" + indices.sorted().map(String.init).joined(separator: ",")
            let index: Int
            if let known = featureIndex[id] {
                index = known
            } else {
                index = featureRecords.count
                featureRecords.append((key.feature, indices))
                featureIndex[id] = index
            }
            scripts[key.system.script, default: [:]][key.system.language, default: []].append(index)
            if requiredFeatures[key.system] == key.feature { required[key.system] = index }
        }
        guard !scripts.isEmpty || !featureRecords.isEmpty || !built.isEmpty else { return nil }
        let variations = buildFeatureVariations(table: tag, features: &featureRecords, scripts: &scripts, required: &required)

        func langSys(_ system: LanguageSystem, _ indices: [Int]) -> StructValue {
            var f = StructFields()
            f["LookupOrder"] = StructValue.none
            let req = required[system]
            f["ReqFeatureIndex"] = .int(Int64(req ?? 0xFFFF))
            f["FeatureIndex"] = .list(indices.filter { $0 != req }.map { .int(Int64($0)) })
            return .record(f)
        }
        var scriptRecords: [StructValue] = []
        for (script, languages) in scripts.sorted(by: { $0.key < $1.key }) {
            var s = StructFields()
            s["DefaultLangSys"] = StructValue.none
            var records: [StructValue] = []
            for (language, indices) in languages.sorted(by: { $0.key < $1.key }) {
                let value = langSys(LanguageSystem(script: script, language: language), indices)
                if language == "dflt" {
                    s["DefaultLangSys"] = value
                } else {
                    var r = StructFields()
                    r["LangSysTag"] = .int(Int64(Tag(text: language).rawValue))
                    r["LangSys"] = value
                    records.append(.record(r))
                }
            }
            s["LangSysRecord"] = .list(records)
            var record = StructFields()
            record["ScriptTag"] = .int(Int64(Tag(text: script).rawValue))
            record["Script"] = .record(s)
            scriptRecords.append(.record(record))
        }
        var featureValues: [StructValue] = []
        for (featureTag, indices) in featureRecords {
            var feature = StructFields()
            feature["FeatureParams"] = try featureParams(featureTag, table: tag)
            feature["LookupListIndex"] = .list(indices.map { .int(Int64($0)) })
            var record = StructFields()
            record["FeatureTag"] = .int(Int64(Tag(text: featureTag).rawValue))
            record["Feature"] = .record(feature)
            featureValues.append(.record(record))
        }
        var root = StructFields()
        root["Version"] = .int(variations == nil ? 0x0001_0000 : 0x0001_0001)
        root["ScriptList"] = .record(StructFieldsBuilder.make(["ScriptRecord": .list(scriptRecords)]))
        root["FeatureList"] = .record(StructFieldsBuilder.make(["FeatureRecord": .list(featureValues)]))
        root["LookupList"] = .record(StructFieldsBuilder.make(["Lookup": .list(lookupValues)]))
        if let variations { root["FeatureVariations"] = variations }
        return root
    }

    private var nameIDs: [String: Int] = [:]
    /// Name IDs the face uses already: new ones are the first free from 256, as feaLib picks them.
    var usedNameIDs: Set<Int> = []

    /// Adding to a face (`replace: false`): feature names whose records the face already has
    /// under one ID (at 256 or above) use that ID instead of a new one.
    func reuseNameIDs(_ existing: [Int: Set<FeatureNameRecord>]) {
        var remap: [Int: Int] = [:]
        for id in Set(nameIDs.values) {
            let records = Set(names.filter { $0.0 == id }.map(\.1))
            if let old = existing.first(where: { $0.key >= 256 && $0.value == records })?.key { remap[id] = old }
        }
        guard !remap.isEmpty else { return }
        for (key, id) in nameIDs { if let old = remap[id] { nameIDs[key] = old } }
        names.removeAll { remap[$0.0] != nil }
    }

    private func nameID(for key: String) -> Int {
        if let id = nameIDs[key] { return id }
        var id = 256
        while usedNameIDs.contains(id) { id += 1 }
        usedNameIDs.insert(id)
        nameIDs[key] = id
        return id
    }

    private func featureParams(_ tag: String, table: String) throws -> StructValue {
        if tag == "size", table == "GPOS", let size = sizeParameters {
            var f = StructFields()
            f["DesignSize"] = .int(Int64(size.design))
            f["SubfamilyID"] = .int(Int64(size.subfamily))
            f["SubfamilyNameID"] = .int(Int64(nameIDs["size"] ?? 0))
            f["RangeStart"] = .int(Int64(size.start))
            f["RangeEnd"] = .int(Int64(size.end))
            return .switched(Int(Tag(text: tag).rawValue), .record(f))
        }
        if featureNames[tag] != nil, let id = nameIDs[tag] {
            var f = StructFields()
            f["Version"] = .int(0)
            f["UINameID"] = .int(Int64(id))
            return .switched(Int(Tag(text: tag).rawValue), .record(f))
        }
        if cvNames[tag] != nil || cvCharacters[tag] != nil || cvParameterCount[tag] != nil {
            func id(_ key: String) -> Int64 { Int64(nameIDs[tag + " " + key] ?? 0xFFFF) }
            var f = StructFields()
            f["Format"] = .int(0)
            f["FeatUILabelNameID"] = .int(id("FeatUILabelNameID"))
            f["FeatUITooltipTextNameID"] = .int(id("FeatUITooltipTextNameID"))
            f["SampleTextNameID"] = .int(id("SampleTextNameID"))
            f["NumNamedParameters"] = .int(Int64(cvParameterCount[tag] ?? 0))
            f["FirstParamUILabelNameID"] = .int(id("ParamUILabelNameID_0"))
            f["Character"] = .list((cvCharacters[tag] ?? []).map { .int(Int64($0)) })
            return .switched(Int(Tag(text: tag).rawValue), .record(f))
        }
        return .none
    }

    /// GDEF, or nil when nothing calls for one. `variationStore`: the deltas of the file's
    /// variable scalars (GDEF 1.3).
    func buildGDEF(variationStore: StructValue? = nil) -> StructFields? {
        var classes = glyphClassDefs
        if classes.isEmpty {
            for l in lookups { for (g, c) in l.inferredGlyphClasses { classes[g] = c } }
            for g in markClassGlyphs { classes[g] = 3 }
        }
        var root = StructFields()
        root["Version"] = .int(0x0001_0000)
        root["GlyphClassDef"] = classes.isEmpty ? StructValue.none : .classes(Self.classRuns(classes))
        if attachPoints.isEmpty {
            root["AttachList"] = StructValue.none
        } else {
            let glyphs = attachPoints.keys.sorted()
            root["AttachList"] = .record(
                StructFieldsBuilder.make([
                    "Coverage": .glyphs(GlyphRuns(glyphs)),
                    "AttachPoint": .list(
                        glyphs.map {
                            .record(StructFieldsBuilder.make(["PointIndex": .list(attachPoints[$0]!.sorted().map { .int(Int64($0)) })]))
                        }),
                ]))
        }
        // A glyph's carets: by position, then by contour point (both when the file gives both).
        var carets: [Int: StructValue] = [:]
        for g in Set(ligatureCaretPoints.keys).union(ligatureCaretCoordinates.keys) {
            var values: [StructValue] = (ligatureCaretCoordinates[g] ?? []).map { c in
                guard let row = c.row else { return .formatted(1, StructFieldsBuilder.make(["Coordinate": .int(Int64(c.value))])) }
                return .formatted(
                    3,
                    StructFieldsBuilder.make([
                        ("Coordinate", .int(Int64(c.value))), ("DeviceTable", .device(OTValue.variationDevice(row))),
                    ]))
            }
            values += (ligatureCaretPoints[g] ?? []).map { .formatted(2, StructFieldsBuilder.make(["CaretValuePoint": .int(Int64($0))])) }
            carets[g] = .record(StructFieldsBuilder.make(["CaretValue": .list(values)]))
        }
        if carets.isEmpty {
            root["LigCaretList"] = StructValue.none
        } else {
            let glyphs = carets.keys.sorted()
            root["LigCaretList"] = .record(
                StructFieldsBuilder.make(["Coverage": .glyphs(GlyphRuns(glyphs)), "LigGlyph": .list(glyphs.map { carets[$0]! })]))
        }
        root["MarkAttachClassDef"] = markAttach.isEmpty ? StructValue.none : .classes(Self.classRuns(markAttach))
        if !markFilterSets.isEmpty {
            root["Version"] = .int(0x0001_0002)
            let sets = markFilterSets.sorted { $0.value < $1.value }.map { StructValue.glyphs(GlyphRuns($0.key)) }
            root["MarkGlyphSetsDef"] = .record(StructFieldsBuilder.make(["MarkSetTableFormat": .int(1), "Coverage": .list(sets)]))
        }
        if let variationStore {
            root["Version"] = .int(0x0001_0003)
            root["VarStore"] = variationStore
        }
        let hasData = ["GlyphClassDef", "AttachList", "LigCaretList", "MarkAttachClassDef", "MarkGlyphSetsDef", "VarStore"].contains {
            if let v = root[$0], v != .none { return true } else { return false }
        }
        return hasData ? root : nil
    }

    static func classRuns(_ classes: [Int: Int]) -> [ClassRun] {
        ClassRun.normalized(classes.filter { $0.value != 0 }.map { ClassRun(first: $0.key, last: $0.key, glyphClass: $0.value) })
    }
}
