/// Writes a face's GSUB, GPOS and GDEF as a feature file that compiles back (with us or feaLib)
/// to tables that shape the same: language systems, every lookup as a named block in lookup
/// order (a lookup a contextual rule calls written before it), features as per-language lookup
/// lists, mark classes and contextual classes as named classes, GDEF as a table block.
/// What the syntax cannot say (FeatureVariations, variation device tables, a class 0 that
/// stands for "every other glyph" in a class pair) is left out with a comment saying so.
struct FeatureWriter {
    let names: [String]
    var out = ""
    /// Named classes written so far, by content, so identical classes are defined once.
    private var classNames: [[Int]: String] = [:]
    private var definitions = ""
    private var markClassNames: [String: String] = [:]
    private var notes: [String] = []

    /// Put before every name the file defines (lookups, classes, mark classes), so a file
    /// written to be merged with another does not collide with its names.
    var namePrefix = ""

    /// A variable face's design space, and its GDEF store as variable scalars (nil for a
    /// static face, or when the store cannot be read).
    var space: DesignSpace?
    var scalars: ScalarWriter?

    init(glyphNames: [String], namePrefix: String = "") {
        names = glyphNames
        self.namePrefix = namePrefix
    }

    /// What the file leaves out (its `# … left out` comments, FeatureVariations), one line each.
    var omissions: [String] {
        out.split(separator: "\n").filter { $0.hasPrefix("    # ") || $0.hasPrefix("# ") }.map { $0.drop { $0 == " " || $0 == "#" } }.map(
            String.init)
    }

    static let keywords: Set<String> = [
        "anchor", "anchorDef", "anon", "anonymous", "by", "contour", "cursive", "device", "enum", "enumerate", "exclude_dflt", "feature",
        "from", "ignore", "IgnoreBaseGlyphs", "IgnoreLigatures", "IgnoreMarks", "include", "include_dflt", "language", "languagesystem",
        "lookup", "lookupflag", "mark", "MarkAttachmentType", "markClass", "nameid", "NULL", "parameters", "pos", "position", "required",
        "RightToLeft", "reversesub", "rsub", "script", "sub", "substitute", "subtable", "table", "useExtension", "UseMarkFilteringSet",
        "valueRecordDef", "base", "ligature", "ligComponent", "cursive",
    ]

    func glyph(_ g: Int) -> String {
        guard g >= 0, g < names.count else { return "\\\(g)" }
        let n = names[g]
        return Self.keywords.contains(n) || n.first.map({ !FeatureLexer.isNameStart($0.asciiValue ?? 0) || $0 == "\\" }) == true
            ? "\\" + n : n
    }

    func glyphList(_ glyphs: [Int]) -> String { glyphs.map(glyph).joined(separator: " ") }

    /// `[a b c]`, or a named class for long ones (defined before the lookups).
    mutating func glyphClass(_ glyphs: [Int], prefix: String = "class") -> String {
        let sorted = Array(Set(glyphs)).sorted()
        if sorted.count == 1 { return "[" + glyph(sorted[0]) + "]" }
        if sorted.count <= 8 { return "[" + glyphList(sorted) + "]" }
        if let n = classNames[sorted] { return n }
        let name = "@\(namePrefix)\(prefix)\(classNames.count)"
        classNames[sorted] = name
        definitions += "\(name) = [\(glyphList(sorted))];\n"
        return name
    }

    // MARK: Values

    static func device(_ v: StructValue?) -> String {
        guard case .device(let d)? = v, d.deltaFormat != 0x8000, !d.deltas.isEmpty else { return "<device NULL>" }
        let pairs = d.deltas.enumerated().filter { $0.element != 0 }.map { "\(d.startSize + $0.offset) \($0.element)" }
        return pairs.isEmpty ? "<device NULL>" : "<device \(pairs.joined(separator: ", "))>"
    }

    /// A number, or a variable scalar when its device is a VariationIndex.
    func number(_ value: Int64, _ device: StructValue?) -> String { scalars?.text(value, device) ?? String(value) }

    func valueRecord(_ v: StructValue?, format: Int) -> String {
        let f = v?.fields ?? StructFields()
        func n(_ name: String) -> Int64 { f[name]?.int ?? 0 }
        if format == 4 { return "\(n("XAdvance"))" }
        if format == 0 { return "<0 0 0 0>" }
        guard format & 0xF0 != 0 else { return "<\(n("XPlacement")) \(n("YPlacement")) \(n("XAdvance")) \(n("YAdvance"))>" }
        let numbers = zip(["XPlacement", "YPlacement", "XAdvance", "YAdvance"], ["XPlaDevice", "YPlaDevice", "XAdvDevice", "YAdvDevice"])
            .map { number(n($0), f[$1]) }
        var s = "<" + numbers.joined(separator: " ")
        // Devices that size-dependent hinting uses (a VariationIndex is the scalar above).
        let devices = ["XPlaDevice", "YPlaDevice", "XAdvDevice", "YAdvDevice"].map { Self.device(f[$0]) }
        if devices.contains(where: { $0 != "<device NULL>" }) { s += " " + devices.joined(separator: " ") }
        return s + ">"
    }

    func anchor(_ v: StructValue?) -> String {
        guard let v, case .formatted(let format, let f) = v else { return "<anchor NULL>" }
        let x = f["XCoordinate"]?.int ?? 0, y = f["YCoordinate"]?.int ?? 0
        switch format {
        case 2: return "<anchor \(x) \(y) contourpoint \(f["AnchorPoint"]?.int ?? 0)>"
        case 3:
            let x = number(x, f["XDeviceTable"]), y = number(y, f["YDeviceTable"])
            let dx = Self.device(f["XDeviceTable"]), dy = Self.device(f["YDeviceTable"])
            return dx == "<device NULL>" && dy == "<device NULL>" ? "<anchor \(x) \(y)>" : "<anchor \(x) \(y) \(dx) \(dy)>"
        default: return "<anchor \(x) \(y)>"
        }
    }

    // MARK: Lookups

    /// A coverage's glyphs; ids past the font's last glyph (which match nothing; AOTS tests
    /// have them) are left out, as a feature file cannot name them.
    func covered(_ v: StructValue?) -> [Int] {
        if case .glyphs(let runs)? = v { return runs.glyphs.filter { $0 < names.count } }
        return []
    }

    func classMembers(_ v: StructValue?) -> [Int: [Int]] {
        var out: [Int: [Int]] = [:]
        if case .classes(let runs)? = v {
            for r in runs where r.first < names.count { out[r.glyphClass, default: []] += Array(r.first...min(r.last, names.count - 1)) }
        }
        return out
    }

    static func list(_ v: StructValue?) -> [StructValue] {
        if case .list(let l)? = v { return l }
        return []
    }

    /// The body of lookup `index` (rules and `subtable;` breaks), with the names of the lookups
    /// its contextual rules call.
    mutating func lookupBody(_ table: String, _ lookup: StructFields, lookupName: (Int) -> String?) -> String {
        var subtables = Self.list(lookup["SubTable"]).map { Face.unwrapExtension($0) }
        var glyphPairs: [String] = []
        if table == "GPOS" {
            // Glyph pairs go to format 1 subtables ahead of the class pairs whatever the order
            // they are written in, and `subtable;` only splits class pairs; so the glyph pairs
            // come first, with no break after them.
            for (type, st) in subtables where type == 2 {
                if case .formatted(1, _) = st { glyphPairs += rulesOf(table, type, st, lookupName: lookupName) }
            }
            subtables.removeAll { type, st in
                if type == 2, case .formatted(1, _) = st { return true }
                return false
            }
        }
        var parts: [String] = []
        for (type, st) in subtables {
            let rules = rulesOf(table, type, st, lookupName: lookupName)
            if !rules.isEmpty { parts.append(rules.map { "    " + $0 + "\n" }.joined()) }
        }
        return glyphPairs.map { "    " + $0 + "\n" }.joined() + parts.joined(separator: "    subtable;\n")
    }

    mutating func rulesOf(_ table: String, _ type: Int, _ st: StructValue, lookupName: (Int) -> String?) -> [String] {
        let verb = table == "GSUB" ? "sub" : "pos"
        if case .substitutions(let all) = st {
            let subs = all.filter { ($0.input + $0.output).allSatisfy { $0 < names.count } }
            return subs.map { s in
                switch type {
                case 3: return "sub \(glyph(s.input[0])) from [\(glyphList(s.output))];"
                case 2 where s.output.isEmpty: return "sub \(glyph(s.input[0])) by NULL;"
                default: return "sub \(glyphList(s.input)) by \(glyphList(s.output));"
                }
            }
        }
        guard case .formatted(let format, let f) = st else { return ["# a subtable kept as bytes (it did not decode) is left out"] }
        switch (table, type) {
        case ("GSUB", 5), ("GSUB", 6), ("GPOS", 7), ("GPOS", 8):
            return contextRules(verb, format: format, f, chained: type == 6 || type == 8, lookupName: lookupName)
        case ("GSUB", 8):
            let back = Self.list(f["BacktrackCoverage"]).reversed().map { glyphClass(covered($0)) }
            let ahead = Self.list(f["LookAheadCoverage"]).map { glyphClass(covered($0)) }
            let input = covered(f["Coverage"])
            let output = Self.list(f["Substitute"]).map { Int($0.int ?? 0) }
            let context = (back + ["[\(glyphList(input))]'"] + ahead).joined(separator: " ")
            return ["rsub \(context) by [\(glyphList(output))];"]
        case ("GPOS", 1):
            let glyphs = covered(f["Coverage"])
            let vf = Int(f["ValueFormat"]?.int ?? 0)
            if format == 1 { return ["pos [\(glyphList(glyphs))] \(valueRecord(f["Value"], format: vf));"] }
            return zip(glyphs, Self.list(f["Value"])).map { "pos \(glyph($0)) \(valueRecord($1, format: vf));" }
        case ("GPOS", 2):
            let vf1 = Int(f["ValueFormat1"]?.int ?? 0), vf2 = Int(f["ValueFormat2"]?.int ?? 0)
            func pair(_ a: String, _ b: String, _ v1: StructValue?, _ v2: StructValue?) -> String {
                if vf2 == 0 { return "pos \(a) \(b) \(valueRecord(v1, format: vf1));" }
                let first = vf1 == 0 ? "<NULL>" : valueRecord(v1, format: vf1)
                return "pos \(a) \(first) \(b) \(valueRecord(v2, format: vf2));"
            }
            if format == 1 {
                var rules: [String] = []
                for (g, set) in zip(covered(f["Coverage"]), Self.list(f["PairSet"])) {
                    for r in Self.list(set.fields?["PairValueRecord"]) where Int(r.fields?["SecondGlyph"]?.int ?? 0) < names.count {
                        let rf = r.fields ?? StructFields()
                        rules.append(pair(glyph(g), glyph(Int(rf["SecondGlyph"]?.int ?? 0)), rf["Value1"], rf["Value2"]))
                    }
                }
                return rules
            }
            var classes1 = classMembers(f["ClassDef1"])
            let inOther = Set(classes1.values.flatMap { $0 })
            classes1[0] = covered(f["Coverage"]).filter { !inOther.contains($0) }
            let classes2 = classMembers(f["ClassDef2"])
            var rules: [String] = []
            var skipped = false
            for (c1, row) in Self.list(f["Class1Record"]).enumerated() {
                guard let g1 = classes1[c1], !g1.isEmpty else { continue }
                for (c2, cell) in Self.list(row.fields?["Class2Record"]).enumerated() {
                    let cf = cell.fields ?? StructFields()
                    let zero =
                        valueRecord(cf["Value1"], format: vf1) == valueRecord(nil, format: vf1)
                        && valueRecord(cf["Value2"], format: vf2) == valueRecord(nil, format: vf2)
                    if zero { continue }
                    guard c2 != 0, let g2 = classes2[c2] else {
                        skipped = true
                        continue
                    }
                    rules.append(pair(classAlways(g1), classAlways(g2), cf["Value1"], cf["Value2"]))
                }
            }
            if skipped {
                rules.append("# values for class 0 of the second glyph (every other glyph) are left out: a feature file cannot name it")
            }
            return rules
        case ("GPOS", 3):
            return zip(covered(f["Coverage"]), Self.list(f["EntryExitRecord"])).map { g, r in
                "pos cursive \(glyph(g)) \(anchor(r.fields?["EntryAnchor"])) \(anchor(r.fields?["ExitAnchor"]));"
            }
        case ("GPOS", 4), ("GPOS", 6):
            let isBase = type == 4
            let marks = markClasses(f[isBase ? "MarkCoverage" : "Mark1Coverage"], f[isBase ? "MarkArray" : "Mark1Array"])
            let recordName = isBase ? "BaseRecord" : "Mark2Record", anchorName = isBase ? "BaseAnchor" : "Mark2Anchor"
            let array = f[isBase ? "BaseArray" : "Mark2Array"]?.fields
            return zip(covered(f[isBase ? "BaseCoverage" : "Mark2Coverage"]), Self.list(array?[recordName])).map { g, r in
                let anchors = Self.list(r.fields?[anchorName]).enumerated().compactMap { c, a -> String? in
                    guard c < marks.count, case .formatted = a else { return nil }
                    return "\(anchor(a)) mark \(marks[c])"
                }
                return "pos \(isBase ? "base" : "mark") \(glyph(g)) \(anchors.joined(separator: " "));"
            }
        case ("GPOS", 5):
            let marks = markClasses(f["MarkCoverage"], f["MarkArray"])
            let attaches = Self.list(f["LigatureArray"]?.fields?["LigatureAttach"])
            return zip(covered(f["LigatureCoverage"]), attaches).map { g, attach in
                let components = Self.list(attach.fields?["ComponentRecord"]).map { component -> String in
                    let anchors = Self.list(component.fields?["LigatureAnchor"]).enumerated().compactMap { c, a -> String? in
                        guard c < marks.count, case .formatted = a else { return nil }
                        return "\(anchor(a)) mark \(marks[c])"
                    }
                    return anchors.isEmpty ? "<anchor NULL>" : anchors.joined(separator: " ")
                }
                return "pos ligature \(glyph(g)) \(components.joined(separator: " ligComponent "));"
            }
        default:
            return ["# lookup type \(type) of \(table) is left out"]
        }
    }

    /// A class in brackets or by name, even for one glyph (so a class pair stays a class pair).
    mutating func classAlways(_ glyphs: [Int]) -> String {
        let c = glyphClass(glyphs)
        return c.hasPrefix("@") || c.hasPrefix("[") ? c : "[\(c)]"
    }

    /// Mark classes of one mark attachment subtable, defined as `markClass` statements.
    mutating func markClasses(_ coverage: StructValue?, _ array: StructValue?) -> [String] {
        var byClass: [Int: [(Int, StructValue?)]] = [:]
        for (g, r) in zip(covered(coverage), Self.list(array?.fields?["MarkRecord"])) {
            byClass[Int(r.fields?["Class"]?.int ?? 0), default: []].append((g, r.fields?["MarkAnchor"]))
        }
        let count = (byClass.keys.max() ?? -1) + 1
        var out: [String] = []
        for c in 0..<count {
            // One class name per (glyph, anchor) set: the same marks with the same anchors share it.
            let members = byClass[c] ?? []
            let key = members.map { "\($0.0)=\(anchor($0.1))" }.joined(separator: ",")
            if let known = markClassNames[key] {
                out.append(known)
                continue
            }
            let name = "@\(namePrefix)MC\(markClassNames.count)"
            markClassNames[key] = name
            for (g, a) in members { definitions += "markClass \(glyph(g)) \(anchor(a)) \(name);\n" }
            out.append(name)
        }
        return out
    }

    mutating func contextRules(_ verb: String, format: Int, _ f: StructFields, chained: Bool, lookupName: (Int) -> String?) -> [String] {
        let prefix = verb == "sub" ? "Subst" : "Pos"
        func rule(_ back: [String], _ input: [String], _ ahead: [String], _ records: [StructValue]) -> String {
            var calls = Array(repeating: "", count: input.count)
            for r in records {
                let i = Int(r.fields?["SequenceIndex"]?.int ?? 0), l = Int(r.fields?["LookupListIndex"]?.int ?? 0)
                if i < calls.count, let name = lookupName(l) { calls[i] += " lookup \(name)" }
            }
            let marked = zip(input, calls).map { $0 + "'" + $1 }
            // A position whose glyphs are all past the font's last glyph matches nothing.
            if (back + input + ahead).contains("[]") { return "# a rule naming only glyphs the font does not have is left out" }
            let text = (back + marked + ahead).joined(separator: " ")
            return records.isEmpty ? "ignore \(verb) \(text);" : "\(verb) \(text);"
        }
        switch format {
        case 1:
            let short = verb == "sub" ? "Sub" : "Pos"
            let setName = chained ? "Chain\(short)RuleSet" : "\(short)RuleSet", ruleName = chained ? "Chain\(short)Rule" : "\(short)Rule"
            var out: [String] = []
            for (g, set) in zip(covered(f["Coverage"]), Self.list(f[setName])) {
                for r in Self.list(set.fields?[ruleName]) {
                    let rf = r.fields ?? StructFields()
                    let ids = Self.list(rf["Backtrack"]) + Self.list(rf["Input"]) + Self.list(rf["LookAhead"])
                    guard ids.allSatisfy({ Int($0.int ?? 0) < names.count }) else { continue }
                    let back = Self.list(rf["Backtrack"]).reversed().map { glyph(Int($0.int ?? 0)) }
                    let input = [glyph(g)] + Self.list(rf["Input"]).map { glyph(Int($0.int ?? 0)) }
                    let ahead = Self.list(rf["LookAhead"]).map { glyph(Int($0.int ?? 0)) }
                    out.append(rule(back, input, ahead, Self.list(rf["\(prefix)LookupRecord"])))
                }
            }
            return out
        case 2:
            let short = verb == "sub" ? "Sub" : "Pos"
            let setName = chained ? "Chain\(short)ClassSet" : "\(short)ClassSet"
            let ruleName = chained ? "Chain\(short)ClassRule" : "\(short)ClassRule"
            let coverage = covered(f["Coverage"])
            let inputDef = classMembers(chained ? f["InputClassDef"] : f["ClassDef"])
            let backDef = classMembers(f["BacktrackClassDef"]), aheadDef = classMembers(f["LookAheadClassDef"])
            let inputOther = Set(inputDef.values.flatMap { $0 })
            var out: [String] = []
            func cls(_ def: [Int: [Int]], _ c: Int, input: Bool) -> String? {
                if c == 0 {
                    // Class 0: for the input, the covered glyphs no class names; elsewhere every other glyph.
                    let all = Set(def.values.flatMap { $0 })
                    let members = input ? coverage.filter { !inputOther.contains($0) } : (0..<names.count).filter { !all.contains($0) }
                    return members.isEmpty ? nil : classAlways(members)
                }
                return def[c].map { classAlways($0) }
            }
            for (c, set) in Self.list(f[setName]).enumerated() {
                for r in Self.list(set.fields?[ruleName]) {
                    let rf = r.fields ?? StructFields()
                    let inputClasses = [c] + Self.list(chained ? rf["Input"] : rf["Class"]).map { Int($0.int ?? 0) }
                    let back = Self.list(rf["Backtrack"]).reversed().map { cls(backDef, Int($0.int ?? 0), input: false) }
                    let input = inputClasses.enumerated().map { cls(inputDef, $1, input: $0 == 0) }
                    let ahead = Self.list(rf["LookAhead"]).map { cls(aheadDef, Int($0.int ?? 0), input: false) }
                    guard !(back + input + ahead).contains(where: { $0 == nil }) else { continue }
                    out.append(rule(back.map { $0! }, input.map { $0! }, ahead.map { $0! }, Self.list(rf["\(prefix)LookupRecord"])))
                }
            }
            return out
        default:
            let back = Self.list(f["BacktrackCoverage"]).reversed().map { classAlways(covered($0)) }
            let input = Self.list(chained ? f["InputCoverage"] : f["Coverage"]).map { classAlways(covered($0)) }
            let ahead = Self.list(f["LookAheadCoverage"]).map { classAlways(covered($0)) }
            return [rule(back, input, ahead, Self.list(f["\(prefix)LookupRecord"]))]
        }
    }

    // MARK: The file

    static func flagText(_ flag: Int, markAttach: String?, filterSet: String?) -> String {
        var parts: [String] = []
        for (bit, name) in [(1, "RightToLeft"), (2, "IgnoreBaseGlyphs"), (4, "IgnoreLigatures"), (8, "IgnoreMarks")] where flag & bit != 0 {
            parts.append(name)
        }
        if let markAttach { parts.append("MarkAttachmentType \(markAttach)") }
        if let filterSet { parts.append("UseMarkFilteringSet \(filterSet)") }
        return parts.isEmpty ? "lookupflag 0;" : "lookupflag \(parts.joined(separator: " "));"
    }

    mutating func write(gsub: StructFields?, gpos: StructFields?, gdef: StructFields?) -> String {
        var body = ""
        // Language systems: every script and language either table names, DFLT first.
        var systems: [(String, String)] = []
        var featuresByTable: [(String, StructFields)] = []
        for (tag, root) in [("GSUB", gsub), ("GPOS", gpos)] {
            guard let root else { continue }
            featuresByTable.append((tag, root))
            for record in Self.list(root["ScriptList"]?.fields?["ScriptRecord"]) {
                let script = Tag(UInt32(record.fields?["ScriptTag"]?.int ?? 0)).description
                let s = record.fields?["Script"]?.fields
                var languages = s?["DefaultLangSys"].map { $0 == .none ? [] : ["dflt"] } ?? []
                languages += Self.list(s?["LangSysRecord"]).map { Tag(UInt32($0.fields?["LangSysTag"]?.int ?? 0)).description }
                for l in languages where !systems.contains(where: { $0 == (script, l) }) { systems.append((script, l)) }
            }
        }
        systems.sort { a, b in
            (a.0 == "DFLT" ? 0 : 1, a.0, a.1 == "dflt" ? 0 : 1, a.1) < (b.0 == "DFLT" ? 0 : 1, b.0, b.1 == "dflt" ? 0 : 1, b.1)
        }
        for (s, l) in systems { body += "languagesystem \(s.trimmingSpaces) \(l.trimmingSpaces);\n" }

        // Mark attachment classes and mark filtering sets, named for lookupflag.
        let markAttach = classMembers(gdef?["MarkAttachClassDef"])
        let filterSets = Self.list(gdef?["MarkGlyphSetsDef"]?.fields?["Coverage"]).map { covered($0) }

        var lookupsText = ""
        var featuresText = ""
        var conditionSetsText = "", variationsText = ""
        for (tag, root) in featuresByTable {
            let lookups = Self.list(root["LookupList"]?.fields?["Lookup"]).map { $0.fields ?? StructFields() }
            let prefix = namePrefix + (tag == "GSUB" ? "GSUB_" : "GPOS_")
            // A feature file names a lookup before a rule calls it, and lookups get their
            // indices in the order they are defined, which is also the order features apply
            // them in. So lookups are written in their order, except that one a contextual rule
            // calls is written before the caller: itself when no feature lists it (its place
            // then does not matter), else a copy (`GSUB_7_called`) so the original keeps its place.
            let inFeatures = Set(
                Self.list(root["FeatureList"]?.fields?["FeatureRecord"]).flatMap { r in
                    Self.list(r.fields?["Feature"]?.fields?["LookupListIndex"]).map { Int($0.int ?? 0) }
                })
            var original = Set<Int>(), copies = Set<Int>(), empty = Set<Int>(), busy = Set<Int>()
            func calls(_ i: Int) -> [Int] {
                Self.list(lookups[i]["SubTable"]).flatMap { st -> [Int] in
                    var found: [Int] = []
                    Self.collectLookupIndices(Face.unwrapExtension(st).1, into: &found)
                    return found
                }
            }
            func callName(_ i: Int) -> String? {
                guard i < lookups.count, !empty.contains(i) else { return nil }
                return original.contains(i) ? "\(prefix)\(i)" : copies.contains(i) ? "\(prefix)\(i)_called" : nil
            }
            func emit(_ i: Int, copy: Bool) {
                busy.insert(i)
                for c in calls(i) where c < lookups.count && !original.contains(c) && !copies.contains(c) && !busy.contains(c) {
                    emit(c, copy: inFeatures.contains(c))
                }
                busy.remove(i)
                let l = lookups[i]
                let flag = Int(l["LookupFlag"]?.int ?? 0)
                let attach = flag >> 8 != 0 ? markAttach[flag >> 8].map { classAlways($0) } : nil
                let setIndex = Int(l["MarkFilteringSet"]?.int ?? 0)
                let filter = flag & 0x10 != 0 && setIndex < filterSets.count ? classAlways(filterSets[setIndex]) : nil
                let text = lookupBody(tag, l, lookupName: callName)
                if copy { copies.insert(i) } else { original.insert(i) }
                if text.isEmpty {
                    empty.insert(i)
                    return
                }
                let type = Int(l["LookupType"]?.int ?? 0)
                let ext = (tag == "GSUB" && type == 7) || (tag == "GPOS" && type == 9) ? " useExtension" : ""
                let name = "\(prefix)\(i)\(copy ? "_called" : "")"
                lookupsText +=
                    "lookup \(name)\(ext) {\n    \(Self.flagText(flag & 0xFF1F, markAttach: attach, filterSet: filter))\n\(text)} \(name);\n\n"
            }
            for i in lookups.indices where !original.contains(i) { emit(i, copy: false) }
            func name(_ i: Int) -> String? { empty.contains(i) || i >= lookups.count ? nil : "\(prefix)\(i)" }
            featuresText += features(tag, root, lookupName: name)
            if let v = root["FeatureVariations"], v != .none {
                if let blocks = featureVariationBlocks(
                    tag, root, space: space, lookupName: name, conditionSetPrefix: "\(namePrefix)\(tag)_conditions")
                {
                    conditionSetsText += blocks.conditionSets
                    variationsText += blocks.text
                } else {
                    notes.append(
                        "\(tag)'s FeatureVariations (features swapped by design-space region) cannot be written as variation blocks: left out"
                    )
                }
            }
        }
        let gdefText = gdef.map { "\n" + gdefBlock($0) } ?? ""
        if let v = gdef?["VarStore"], v != .none {
            if scalars == nil {
                notes.append("GDEF's variation store (positions that vary with the design axes) cannot be read: left out")
            } else if let n = scalars?.inexpressible, n > 0 {
                notes.append("\(n) values vary in a way no variable scalar gives back: written at their default, their variation left out")
            }
        }
        out = body + "\n" + definitions + gdefText + "\n" + lookupsText + conditionSetsText + featuresText + variationsText
        if !notes.isEmpty { out += "\n" + notes.map { "# " + $0 + "\n" }.joined() }
        return out
    }

    static func collectLookupIndices(_ v: StructValue, into out: inout [Int]) {
        switch v {
        case .record(let f), .formatted(_, let f):
            for (n, x) in zip(f.names, f.values) {
                if n == "LookupListIndex", let i = x.int { out.append(Int(i)) } else { collectLookupIndices(x, into: &out) }
            }
        case .list(let l): for x in l { collectLookupIndices(x, into: &out) }
        case .switched(_, let x): collectLookupIndices(x, into: &out)
        default: break
        }
    }

    /// Every language system of a GSUB or GPOS root in table order: its script and language
    /// tags, the feature indexes it lists (the required one first) and the required one.
    static func languageSystems(_ root: StructFields) -> [(script: String, language: String, features: [Int], required: Int?)] {
        var out: [(script: String, language: String, features: [Int], required: Int?)] = []
        for record in list(root["ScriptList"]?.fields?["ScriptRecord"]) {
            let script = Tag(UInt32(record.fields?["ScriptTag"]?.int ?? 0)).description
            let s = record.fields?["Script"]?.fields
            var systems: [(String, StructFields)] = []
            if let d = s?["DefaultLangSys"]?.fields { systems.append(("dflt", d)) }
            for r in list(s?["LangSysRecord"]) {
                if let ls = r.fields?["LangSys"]?.fields {
                    systems.append((Tag(UInt32(r.fields?["LangSysTag"]?.int ?? 0)).description, ls))
                }
            }
            for (language, ls) in systems {
                let req = Int(ls["ReqFeatureIndex"]?.int ?? 0xFFFF)
                let required = req != 0xFFFF ? req : nil
                out.append((script, language, (required.map { [$0] } ?? []) + list(ls["FeatureIndex"]).map { Int($0.int ?? 0) }, required))
            }
        }
        return out
    }

    /// Feature blocks: per script and language, the lookups the LangSys lists.
    mutating func features(_ tag: String, _ root: StructFields, lookupName: (Int) -> String?) -> String {
        let records = Self.list(root["FeatureList"]?.fields?["FeatureRecord"]).map { r in
            (tag: Tag(UInt32(r.fields?["FeatureTag"]?.int ?? 0)).description, feature: r.fields?["Feature"]?.fields ?? StructFields())
        }
        // feature tag → [(script, language, lookups, required)]
        var uses: [String: [(String, String, [Int], Bool)]] = [:]
        var order: [String] = []
        for (script, language, indices, req) in Self.languageSystems(root) {
            for fi in indices where fi < records.count {
                let r = records[fi]
                let lookups = Self.list(r.feature["LookupListIndex"]).map { Int($0.int ?? 0) }
                if uses[r.tag] == nil { order.append(r.tag) }
                uses[r.tag, default: []].append((script, language, lookups, fi == req))
            }
        }
        var text = ""
        for featureTag in order {
            let featureUses = uses[featureTag] ?? []
            text += "feature \(featureTag.trimmingSpaces) {\n"
            if let params = records.first(where: { $0.tag == featureTag })?.feature["FeatureParams"], params != .none {
                text += featureParams(featureTag, params)
            }
            if featureTag == "aalt" || featureTag == "size" {
                // These take no script or language statements: their lookups go to every language system.
                var all: [Int] = []
                for u in featureUses { for l in u.2 where !all.contains(l) { all.append(l) } }
                for l in all { if let n = lookupName(l) { text += "    lookup \(n);\n" } }
                text += "} \(featureTag.trimmingSpaces);\n\n"
                continue
            }
            let byScript = Dictionary(grouping: featureUses, by: { $0.0 })
            for (script, scriptUses) in byScript.sorted(by: { ($0.key == "DFLT" ? 0 : 1, $0.key) < ($1.key == "DFLT" ? 0 : 1, $1.key) }) {
                text += "    script \(script.trimmingSpaces);\n"
                let entries = scriptUses.sorted { ($0.1 == "dflt" ? 0 : 1, $0.1) < ($1.1 == "dflt" ? 0 : 1, $1.1) }
                for (_, language, lookups, required) in entries {
                    if language != "dflt" || required {
                        text +=
                            "    language \(language.trimmingSpaces)\(language == "dflt" ? "" : " exclude_dflt")\(required ? " required" : "");\n"
                    }
                    for l in lookups { if let n = lookupName(l) { text += "    lookup \(n);\n" } }
                }
            }
            text += "} \(featureTag.trimmingSpaces);\n\n"
        }
        return text
    }

    var nameText: (Int) -> [(platform: Int, encoding: Int, language: Int, text: String)] = { _ in [] }

    func nameStatements(_ keyword: String, _ id: Int64?, indent: String = "        ") -> String {
        guard let id else { return "" }
        return nameText(Int(id)).map { r in
            let escaped = r.text.unicodeScalars.map { c -> String in
                if c == "\"" || c == "\\" || c.value < 0x20 || c.value > 0x7E {
                    return r.platform == 1 ? "" : "\\" + String(String(c.value, radix: 16).suffix(4)).leftPadded(4)
                }
                return String(c)
            }.joined()
            return "\(indent)\(keyword) \(r.platform) \(r.encoding) \(r.language) \"\(escaped)\";\n"
        }.joined()
    }

    func featureParams(_ tag: String, _ params: StructValue) -> String {
        guard case .switched(_, let v) = params, let f = v.fields else { return "" }
        if tag == "size" {
            func n(_ k: String) -> Int64 { f[k]?.int ?? 0 }
            var s = "    parameters \(n("DesignSize")) \(n("SubfamilyID")) \(n("RangeStart")) \(n("RangeEnd"));\n"
            s += nameStatements("sizemenuname", f["SubfamilyNameID"]?.int, indent: "    ")
            return s
        }
        if tag.hasPrefix("ss") {
            let names = nameStatements("name", f["UINameID"]?.int)
            return names.isEmpty ? "" : "    featureNames {\n\(names)    };\n"
        }
        if tag.hasPrefix("cv") {
            var s = "    cvParameters {\n"
            for key in ["FeatUILabelNameID", "FeatUITooltipTextNameID", "SampleTextNameID"] {
                let names = nameStatements("name", f[key]?.int, indent: "            ")
                if !names.isEmpty { s += "        \(key) {\n" + names + "        };\n" }
            }
            let first = f["FirstParamUILabelNameID"]?.int ?? 0, count = f["NumNamedParameters"]?.int ?? 0
            if first != 0 {
                for k in 0..<count {
                    let names = nameStatements("name", first + k, indent: "            ")
                    s += "        ParamUILabelNameID {\n" + names + "        };\n"
                }
            }
            for c in Self.list(f["Character"]) { s += "        Character 0x\(String(c.int ?? 0, radix: 16));\n" }
            return s + "    };\n"
        }
        return ""
    }

    mutating func gdefBlock(_ gdef: StructFields) -> String {
        var s = "table GDEF {\n"
        let classes = classMembers(gdef["GlyphClassDef"])
        if !classes.isEmpty {
            let parts = (1...4).map { c -> String in classes[c].map { classAlways($0) } ?? "" }
            s += "    GlyphClassDef \(parts.joined(separator: ", "));\n"
        }
        if let attach = gdef["AttachList"]?.fields {
            for (g, p) in zip(covered(attach["Coverage"]), Self.list(attach["AttachPoint"])) {
                let points = Self.list(p.fields?["PointIndex"]).map { String($0.int ?? 0) }
                if !points.isEmpty { s += "    Attach \(glyph(g)) \(points.joined(separator: " "));\n" }
            }
        }
        if let carets = gdef["LigCaretList"]?.fields {
            for (g, lig) in zip(covered(carets["Coverage"]), Self.list(carets["LigGlyph"])) {
                let values = Self.list(lig.fields?["CaretValue"])
                let points = values.compactMap { v -> Int64? in if case .formatted(2, let f) = v { f["CaretValuePoint"]?.int } else { nil }
                }
                let coordinates = values.compactMap { v -> String? in
                    if case .formatted(let n, let f) = v, n != 2 { number(f["Coordinate"]?.int ?? 0, f["DeviceTable"]) } else { nil }
                }
                if !coordinates.isEmpty {
                    s += "    LigatureCaretByPos \(glyph(g)) \(coordinates.joined(separator: " "));\n"
                }
                if !points.isEmpty { s += "    LigatureCaretByIndex \(glyph(g)) \(points.map(String.init).joined(separator: " "));\n" }
            }
        }
        return s + "} GDEF;\n"
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

extension Face {
    /// The face's GSUB, GPOS and GDEF as a feature file (`FeatureWriter`).
    public func featureFileText() throws -> String { try featureFile().text }

    /// The feature file and what it had to leave out.
    public func featureFile(namePrefix: String = "") throws -> (text: String, omissions: [String]) {
        var writer = FeatureWriter(glyphNames: try glyphNames(), namePrefix: namePrefix)
        if isVariable {
            let space = DesignSpace(axes: try variationAxes, avar: try table(AvarTable.self))
            writer.space = space
            writer.scalars = (try? gdefVariationStore())?.map { ScalarWriter(space: space, store: $0) }
        }
        if let name = try table(NameTable.self) {
            writer.nameText = { id in
                name.records.filter { $0.nameID == id }.compactMap { r in
                    r.text.map { (r.platformID, r.encodingID, r.languageID, $0) }
                }
            }
        }
        let gsub = try structuredTable("GSUB")?.root, gpos = try structuredTable("GPOS")?.root, gdef = try structuredTable("GDEF")?.root
        let text = writer.write(gsub: gsub, gpos: gpos, gdef: gdef)
        return (text, writer.omissions)
    }
}
