/// Edits a font engineer makes by hand to layout: a pair's kerning, a ligature or single
/// substitution of a feature, a glyph's GDEF class. Each edits the table the font already uses
/// for it, the way it already does it (a pair kerned by classes gets a pair exception, unless
/// the class value is asked for), and says where the edit went.
extension Face {
    /// Sets the horizontal kerning of `left` followed by `right` to `value` (nil: no kerning),
    /// where the font kerns that pair now: the `kern` feature's GPOS pair lookups, else the `kern`
    /// table. In GPOS, the first kern lookup that gives the pair a value is edited (else the
    /// first pair lookup): a glyph pair's record is changed, added or removed; a pair that a class
    /// subtable kerns gets a glyph-pair exception in front of it, or with `classLevel` the class
    /// cell itself changes (for every pair of the two classes). Only lookups the pair's script
    /// reaches are edited (`script`/`language` name the language system instead; see
    /// `reachedFeatures`). Returns where the edit went.
    @discardableResult
    public func setKerning(
        _ left: Int, _ right: Int, _ value: Int?, classLevel: Bool = false,
        script: String? = nil, language: String? = nil
    ) throws -> String {
        let count = try glyphCount
        for g in [left, right] where g < 0 || g >= count { throw FontError("glyph id \(g) is not in the face (\(count) glyphs)") }
        if let value, !(-32768...32767).contains(value) { throw FontError("a kerning value is Int16 (-32768...32767), got \(value)") }
        switch try currentKerning().source {
        case "GPOS":
            var done = try context("GPOS") {
                try setGPOSKerning(left, right, value, classLevel: classLevel, script: script, language: language)
            }
            // Removing a glyph pair's record can uncover a class value behind it: no kerning is
            // then a 0 exception.
            if value == nil, try kerning(left, right) != 0 {
                done = try context("GPOS") {
                    try setGPOSKerning(left, right, 0, classLevel: classLevel, script: script, language: language)
                }
            }
            return done
        case "kern":
            guard let kern = try kern else { throw FontError("the face has no kern table") }
            try context("kern") { try kern.setPair(left, right, value) }
            return "kern table"
        default:
            guard value != nil else { return "nothing (the face has no kerning)" }
            throw FontError("the face has no kerning to edit: GPOS has no 'kern' feature and there is no kern table")
        }
    }

    private func setGPOSKerning(_ left: Int, _ right: Int, _ value: Int?, classLevel: Bool, script: String?, language: String?) throws
        -> String
    {
        guard let gpos = try structuredTable("GPOS") else { throw FontError("the face has no GPOS table") }
        let reached = try reachedFeatures("GPOS", "kern", glyphs: [left, right], script: script, language: language)
        let wanted = Set(reached.flatMap(\.lookups)).sorted()
        var root = try gpos.rootKeepingDamage
        guard case .record(var list)? = root["LookupList"], case .list(var lookups)? = list["Lookup"] else {
            throw FontError("GPOS has no LookupList")
        }
        try Self.requireIntact("GPOS", lookups, wanted)
        // The lookup to edit: the first kern lookup whose pair subtables give this pair a value
        // now, else the first kern lookup with pair subtables.
        let pairLookups = wanted.filter { $0 < lookups.count && Self.realType(lookups[$0]) == 2 }
        guard let firstPairLookup = pairLookups.first else { throw FontError("the 'kern' feature has no pair adjustment lookup") }
        let index = pairLookups.first { Self.pairSource(lookups[$0], left, right) != nil } ?? firstPairLookup
        guard case .record(var lookup) = lookups[index], case .list(var subtables)? = lookup["SubTable"] else {
            throw FontError("lookup \(index) has no subtables")
        }
        let isExtension = Self.lookupType(lookups[index]) == 9
        var done = ""
        // The subtables covering `left`, in order: HarfBuzz stops at the first that has the pair.
        var firstGlyphSubtable: Int?
        var k = 0
        search: while k < subtables.count {
            guard case .formatted(let format, var f) = Self.inner(subtables[k]), f["Coverage"].map(Self.covers(left)) == true else {
                k += 1; continue
            }
            if format == 1 {
                if firstGlyphSubtable == nil { firstGlyphSubtable = k }
                if Self.hasPairRecord(f, left, right) {
                    try Self.setPairRecord(&f, left, right, value)
                    subtables[k] = Self.replacingInner(subtables[k], .formatted(1, f))
                    done = "GPOS lookup \(index) subtable \(k) (glyph pair)"
                    break search
                }
            } else {
                if classLevel {
                    let c1 = Self.glyphClass(left, f["ClassDef1"]), c2 = Self.glyphClass(right, f["ClassDef2"])
                    guard case .list(var rows)? = f["Class1Record"], c1 < rows.count, case .record(var row) = rows[c1],
                        case .list(var cells)? = row["Class2Record"], c2 < cells.count, case .record(var cell) = cells[c2]
                    else {
                        throw FontError("lookup \(index) subtable \(k): class \(c1) × \(c2) is not in the class matrix")
                    }
                    f["ValueFormat1"] = .int((f["ValueFormat1"]?.int ?? 0) | 4)
                    var v = cell["Value1"]?.fields ?? StructFields()
                    v["XAdvance"] = .int(Int64(value ?? 0))
                    cell["Value1"] = .record(Self.ordered(v))
                    cells[c2] = .record(cell); row["Class2Record"] = .list(cells); rows[c1] = .record(row)
                    f["Class1Record"] = .list(rows)
                    subtables[k] = Self.replacingInner(subtables[k], .formatted(2, f))
                    done = "GPOS lookup \(index) subtable \(k) (class \(c1) × class \(c2): every pair of the two classes)"
                    break search
                }
                // A pair exception in front of the class subtable: in the glyph-pair subtable that
                // already covers `left`, or a new one.
                let target =
                    firstGlyphSubtable
                    ?? {
                        subtables.insert(Self.newPairSubtable(extension: isExtension), at: k)
                        return k
                    }()
                guard case .formatted(1, var g) = Self.inner(subtables[target]) else {
                    throw FontError("lookup \(index): subtable \(target) is not a glyph pair subtable")
                }
                try Self.setPairRecord(&g, left, right, value ?? 0)
                subtables[target] = Self.replacingInner(subtables[target], .formatted(1, g))
                done =
                    "GPOS lookup \(index) subtable \(target) (glyph pair in front of the class subtable \(firstGlyphSubtable == nil ? k + 1 : k))"
                break search
            }
            k += 1
        }
        if done.isEmpty {
            // Not kerned by this lookup now.
            guard value != nil else { return "nothing (the pair is not kerned)" }
            let target =
                firstGlyphSubtable ?? subtables.firstIndex {
                    if case .formatted(1, _) = Self.inner($0) { return true } else { return false }
                }
                ?? {
                    subtables.insert(Self.newPairSubtable(extension: isExtension), at: 0)
                    return 0
                }()
            guard case .formatted(1, var g) = Self.inner(subtables[target]) else {
                throw FontError("lookup \(index): subtable \(target) is not a glyph pair subtable")
            }
            try Self.setPairRecord(&g, left, right, value)
            subtables[target] = Self.replacingInner(subtables[target], .formatted(1, g))
            done = "GPOS lookup \(index) subtable \(target) (glyph pair)"
        }
        lookup["SubTable"] = .list(subtables)
        lookups[index] = .record(lookup)
        list["Lookup"] = .list(lookups)
        root["LookupList"] = .record(list)
        _ = gpos.replaceRoot(root)
        invalidateCaches()
        return done
    }

    // MARK: GSUB

    /// Adds (or replaces) a substitution in a GSUB feature: one glyph for one (a single
    /// substitution) or one for a sequence (a ligature), in a lookup of that type that the
    /// input's script reaches (`reachedFeatures`): where one already substitutes the input, in
    /// its place; else in one lookup all the language systems share, else each system's first.
    /// Returns where it went.
    @discardableResult
    public func addSubstitution(feature: String, input: [Int], output: Int, script: String? = nil, language: String? = nil) throws -> String
    {
        guard !input.isEmpty else { throw FontError("a substitution needs at least one input glyph") }
        let count = try glyphCount
        for g in input + [output] where g < 0 || g >= count { throw FontError("glyph id \(g) is not in the face (\(count) glyphs)") }
        let type = input.count == 1 ? 1 : 4
        return try context("GSUB") {
            try editSubstitutions(feature: feature, type: type, firstOnly: true, glyphs: input, script: script, language: language) {
                subs in
                subs.removeAll { $0.input == input }
                subs.append(Substitution(input, [output]))
                if type == 1 { subs.sort { $0.input[0] < $1.input[0] } }
            }
        }
    }

    /// Removes the substitutions of `input` from a GSUB feature's single (one glyph) or ligature
    /// (a sequence) lookups that the input's script reaches. Returns how many were removed.
    @discardableResult
    public func removeSubstitution(feature: String, input: [Int], script: String? = nil, language: String? = nil) throws -> Int {
        guard !input.isEmpty else { return 0 }
        var removed = 0
        _ = try context("GSUB") {
            try editSubstitutions(
                feature: feature, type: input.count == 1 ? 1 : 4, firstOnly: false, glyphs: input, script: script, language: language
            ) { subs in
                let before = subs.count
                subs.removeAll { $0.input == input }
                removed += before - subs.count
            }
        }
        return removed
    }

    private func editSubstitutions(
        feature: String, type: Int, firstOnly: Bool, glyphs: [Int], script: String?, language: String?,
        _ body: (inout [Substitution]) throws -> Void
    ) throws -> String {
        guard let gsub = try structuredTable("GSUB") else { throw FontError("the face has no GSUB table") }
        let reached = try reachedFeatures("GSUB", feature, glyphs: glyphs, script: script, language: language)
        let wanted = Set(reached.flatMap(\.lookups)).sorted()
        var root = try gsub.rootKeepingDamage
        guard case .record(var list)? = root["LookupList"], case .list(var lookups)? = list["Lookup"] else {
            throw FontError("GSUB has no LookupList")
        }
        try Self.requireIntact("GSUB", lookups, wanted)
        let kind = type == 1 ? "single substitution" : "ligature substitution"
        let matching = wanted.filter { $0 < lookups.count && Self.realType(lookups[$0]) == type }
        guard !matching.isEmpty else {
            throw FontError(
                "the '\(feature)' feature has no \(kind) lookup for \(Set(reached.map(\.script)).sorted().joined(separator: ", ")) (its lookups there: \(wanted.map(String.init).joined(separator: ", ")))"
            )
        }
        // An addition replaces the input's substitution where a reached lookup has one (in the
        // subtables holding it); else it goes to one lookup every reached language system
        // applies, or else to each system's first lookup of the type.
        var holders: [Int: [Int]] = [:]
        for index in matching where firstOnly {
            guard case .record(let lookup) = lookups[index], case .list(let subtables)? = lookup["SubTable"] else { continue }
            for (k, subtable) in subtables.enumerated() {
                if case .substitutions(let subs) = Self.inner(subtable), subs.contains(where: { $0.input == glyphs }) {
                    holders[index, default: []].append(k)
                }
            }
        }
        let edited: [Int]
        if !firstOnly {
            edited = matching
        } else if !holders.isEmpty {
            edited = holders.keys.sorted()
        } else {
            let perSystem = reached.map { $0.lookups.filter(matching.contains) }.filter { !$0.isEmpty }
            let shared = matching.first { m in perSystem.allSatisfy { $0.contains(m) } }
            edited = shared.map { [$0] } ?? Set(perSystem.compactMap(\.first)).sorted()
        }
        for index in edited {
            guard case .record(var lookup) = lookups[index], case .list(var subtables)? = lookup["SubTable"], !subtables.isEmpty else {
                continue
            }
            for k in (firstOnly ? holders[index] ?? [0] : Array(subtables.indices)) {
                guard case .substitutions(var subs) = Self.inner(subtables[k]) else { continue }
                try body(&subs)
                subtables[k] = Self.replacingInner(subtables[k], .substitutions(subs))
            }
            lookup["SubTable"] = .list(subtables)
            lookups[index] = .record(lookup)
        }
        list["Lookup"] = .list(lookups)
        root["LookupList"] = .record(list)
        _ = gsub.replaceRoot(root)
        let scripts = Set(reached.map { $0.script.filter { $0 != " " } }).sorted().joined(separator: ", ")
        return
            "GSUB lookup\(edited.count == 1 ? "" : "s") \(edited.map(String.init).joined(separator: ", ")) (\(kind), reached by \(scripts))"
            + otherShapingNote
    }

    /// What a user editing GSUB must know when other tables shape the font instead: HarfBuzz
    /// (and CoreText) apply morx rather than GSUB to horizontal text when a font has both;
    /// Graphite shapers apply Silf. Empty for a plain OpenType font.
    var otherShapingNote: String {
        var notes: [String] = []
        if has("morx") { notes.append("HarfBuzz and CoreText shape this font's horizontal text with its AAT morx table, not GSUB") }
        if has("Silf") {
            notes.append(
                "Graphite shapers (HarfBuzz built with graphite2, LibreOffice, Firefox) shape this font with its Silf table, not GSUB")
        }
        return notes.map { "; note: " + $0 }.joined()
    }

    // MARK: GDEF

    /// Sets a glyph's GDEF class: 1 base, 2 ligature, 3 mark, 4 component; 0 unclassed.
    public func setGlyphClass(_ glyph: Int, _ glyphClass: Int) throws {
        guard (0...4).contains(glyphClass) else {
            throw FontError("a GDEF glyph class is 0 (none), 1 base, 2 ligature, 3 mark or 4 component; got \(glyphClass)")
        }
        let count = try glyphCount
        guard glyph >= 0, glyph < count else { throw FontError("glyph id \(glyph) is not in the face (\(count) glyphs)") }
        guard let gdef = try structuredTable("GDEF") else { throw FontError("the face has no GDEF table") }
        var runs: [ClassRun] = []
        try gdef.requireIntact(["GlyphClassDef"])
        if case .classes(let existing)? = try gdef.rootKeepingDamage["GlyphClassDef"] { runs = existing }
        var split: [ClassRun] = []
        for r in runs {
            guard r.first <= glyph && glyph <= r.last else { split.append(r); continue }
            if r.first < glyph { split.append(ClassRun(first: r.first, last: glyph - 1, glyphClass: r.glyphClass)) }
            if glyph < r.last { split.append(ClassRun(first: glyph + 1, last: r.last, glyphClass: r.glyphClass)) }
        }
        split.append(ClassRun(first: glyph, last: glyph, glyphClass: glyphClass))
        try context("GDEF") { try gdef.set("GlyphClassDef", .classes(ClassRun.normalized(split))) }
    }

    // MARK: the value tree of lookups

    static func lookupType(_ lookup: StructValue) -> Int { Int(lookup.fields?["LookupType"]?.int ?? 0) }

    /// A lookup's type, through an extension.
    static func realType(_ lookup: StructValue) -> Int {
        let type = lookupType(lookup)
        guard type == 7 || type == 9, let first = items(lookup.fields?["SubTable"]).first else { return type }
        return unwrapExtension(first).0
    }

    /// A subtable's value inside its `switched` (and extension) wrapping.
    static func inner(_ subtable: StructValue) -> StructValue { unwrapExtension(subtable).1 }

    /// The subtable with its inner value replaced, keeping the wrapping.
    static func replacingInner(_ subtable: StructValue, _ value: StructValue) -> StructValue {
        guard case .switched(let type, let inner) = subtable else { return value }
        if case .formatted(let n, var ext) = inner, case .switched(let real, _)? = ext["ExtSubTable"] {
            ext["ExtSubTable"] = .switched(real, value)
            return .switched(type, .formatted(n, ext))
        }
        return .switched(type, value)
    }

    static func newPairSubtable(extension: Bool) -> StructValue {
        var f = StructFields()
        f["Coverage"] = .glyphs(GlyphRuns())
        f["ValueFormat1"] = .int(4)
        f["ValueFormat2"] = .int(0)
        f["PairSet"] = .list([])
        let subtable = StructValue.switched(2, .formatted(1, f))
        guard `extension` else { return subtable }
        var ext = StructFields()
        ext["ExtensionLookupType"] = .int(2)
        ext["ExtSubTable"] = subtable
        return .switched(9, .formatted(1, ext))
    }

    static func covers(_ glyph: Int) -> (StructValue) -> Bool {
        { value in
            guard case .glyphs(let runs) = value else { return false }
            return runs.runs.contains { $0.contains(glyph) }
        }
    }

    /// Whether a lookup's pair subtables give (left, right) a value now, and which subtable.
    static func pairSource(_ lookup: StructValue, _ left: Int, _ right: Int) -> Int? {
        for (k, st) in items(lookup.fields?["SubTable"]).enumerated() {
            guard case .formatted(let format, let f) = inner(st), f["Coverage"].map(covers(left)) == true else { continue }
            if format == 2 { return k }
            if hasPairRecord(f, left, right) { return k }
        }
        return nil
    }

    static func hasPairRecord(_ f: StructFields, _ left: Int, _ right: Int) -> Bool {
        guard case .glyphs(let coverage)? = f["Coverage"], let k = coverage.glyphs.firstIndex(of: left) else { return false }
        let sets = items(f["PairSet"])
        guard k < sets.count else { return false }
        return items(sets[k].fields?["PairValueRecord"]).contains { $0.fields?["SecondGlyph"]?.int == Int64(right) }
    }

    /// Sets, adds (keeping coverage and records in glyph order) or with nil removes the record
    /// of (left, right) in a PairPos format 1 subtable.
    static func setPairRecord(_ f: inout StructFields, _ left: Int, _ right: Int, _ value: Int?) throws {
        guard case .glyphs(let coverage)? = f["Coverage"] else { throw FontError("a pair subtable without a Coverage") }
        var covered = coverage.glyphs
        var sets = items(f["PairSet"])
        guard sets.count == covered.count else { throw FontError("a pair subtable's Coverage and PairSets differ in length") }
        var k = covered.firstIndex(of: left)
        if k == nil {
            guard value != nil else { return }
            let at = covered.firstIndex { $0 > left } ?? covered.count
            covered.insert(left, at: at)
            var set = StructFields()
            set["PairValueRecord"] = .list([])
            sets.insert(.record(set), at: at)
            k = at
        }
        guard case .record(var set) = sets[k!] else { throw FontError("a PairSet is not a record") }
        var records = items(set["PairValueRecord"])
        let existing = records.firstIndex { $0.fields?["SecondGlyph"]?.int == Int64(right) }
        if let value {
            if (f["ValueFormat1"]?.int ?? 0) & 4 == 0 { f["ValueFormat1"] = .int((f["ValueFormat1"]?.int ?? 0) | 4) }
            var record =
                existing.flatMap { records[$0].fields }
                ?? {
                    var r = StructFields()
                    r["SecondGlyph"] = .int(Int64(right))
                    r["Value1"] = .record(StructFields())
                    r["Value2"] = .record(StructFields())
                    return r
                }()
            var v = record["Value1"]?.fields ?? StructFields()
            v["XAdvance"] = .int(Int64(value))
            record["Value1"] = .record(ordered(v))
            if let existing {
                records[existing] = .record(record)
            } else {
                records.insert(
                    .record(record), at: records.firstIndex { ($0.fields?["SecondGlyph"]?.int ?? 0) > Int64(right) } ?? records.count)
            }
        } else if let existing {
            records.remove(at: existing)
        }
        set["PairValueRecord"] = .list(records)
        sets[k!] = .record(set)
        f["Coverage"] = .glyphs(GlyphRuns(covered))
        f["PairSet"] = .list(sets)
    }

    /// ValueRecord fields in binary order (equal values compare equal however they were built).
    static func ordered(_ v: StructFields) -> StructFields {
        var out = StructFields()
        for name in StructureCodec.valueRecordFields { if let x = v[name] { out[name] = x } }
        return out
    }

    /// The lookups an edit changes must have decoded: one kept as bytes (it did not decode) is
    /// an error naming it; damage elsewhere in the table is carried over unchanged.
    static func requireIntact(_ table: String, _ lookups: [StructValue], _ wanted: [Int]) throws {
        for l in wanted where l < lookups.count {
            if let reason = lookups[l].firstOpaqueReason {
                throw FontError("\(table).LookupList.Lookup[\(l)] has a subtable kept as bytes: \(reason)", table: table)
            }
        }
    }
}
