/// Answers about a face's layout that a font engineer asks first, read from the decoded GSUB
/// and GPOS: which features exist for which scripts and languages, what each lookup is, what a
/// feature substitutes, and how much a pair of glyphs is kerned.
public struct LayoutFeature: Equatable, Sendable {
    public var table: String
    public var script: String
    public var language: String
    public var feature: String
    public var lookups: [Int]
    /// The language system's required feature.
    public var required: Bool
}

public struct LayoutLookup: Equatable, Sendable {
    public var index: Int
    public var type: Int
    /// fontTools' name of the subtables ("PairPos", "LigatureSubst"); for an extension lookup,
    /// the type it wraps.
    public var typeName: String
    public var flag: Int
    public var subtables: Int
    public var isExtension: Bool
}

extension Face {
    /// Every (table, script, language, feature) with its lookup indices, in table order.
    public func layoutFeatures() throws -> [LayoutFeature] {
        var out: [LayoutFeature] = []
        for tag in ["GSUB", "GPOS"] as [Tag] {
            guard let table = try structuredTable(tag) else { continue }
            let features = Self.items(table.root["FeatureList"]?.fields?["FeatureRecord"]).map { record -> (String, [Int]) in
                let tag = Self.tagText(record.fields?["FeatureTag"])
                let lookups = Self.items(record.fields?["Feature"]?.fields?["LookupListIndex"]).compactMap { $0.int.map(Int.init) }
                return (tag, lookups)
            }
            for script in Self.items(table.root["ScriptList"]?.fields?["ScriptRecord"]) {
                let scriptTag = Self.tagText(script.fields?["ScriptTag"])
                var systems: [(String, StructValue?)] = [("dflt", script.fields?["Script"]?.fields?["DefaultLangSys"])]
                for lang in Self.items(script.fields?["Script"]?.fields?["LangSysRecord"]) {
                    systems.append((Self.tagText(lang.fields?["LangSysTag"]), lang.fields?["LangSys"]))
                }
                for (language, system) in systems {
                    guard let fields = system?.fields else { continue }
                    let required = fields["ReqFeatureIndex"]?.int.map(Int.init) ?? 0xFFFF
                    var indices = Self.items(fields["FeatureIndex"]).compactMap { $0.int.map(Int.init) }
                    if required != 0xFFFF { indices.insert(required, at: 0) }
                    for (k, i) in indices.enumerated() where i < features.count {
                        out.append(LayoutFeature(table: tag.trimmed, script: scriptTag, language: language, feature: features[i].0,
                                                 lookups: features[i].1, required: required != 0xFFFF && k == 0))
                    }
                }
            }
        }
        return out
    }

    /// The lookups of GSUB or GPOS, in order.
    public func layoutLookups(_ tag: Tag) throws -> [LayoutLookup] {
        guard let table = try structuredTable(tag) else { return [] }
        let cases = Self.subtableCases(tag)
        return Self.items(table.root["LookupList"]?.fields?["Lookup"]).enumerated().map { index, lookup in
            let f = lookup.fields
            let type = Int(f?["LookupType"]?.int ?? 0)
            let subtables = Self.items(f?["SubTable"])
            let inner = subtables.first.map(Self.unwrapExtension)
            var name = cases[type]?.name ?? "type \(type)"
            let isExtension = (tag == "GSUB" && type == 7) || (tag == "GPOS" && type == 9)
            if isExtension, let (real, _) = inner { name = cases[real]?.name ?? name }
            return LayoutLookup(index: index, type: type, typeName: name, flag: Int(f?["LookupFlag"]?.int ?? 0),
                                subtables: subtables.count, isExtension: isExtension)
        }
    }

    /// What the lookups of a GSUB feature (every script and language) substitute: types 1–4,
    /// extensions included, in lookup order. Contextual lookups are named by the lookups they call.
    public func substitutions(feature: String) throws -> [(lookup: Int, substitution: Substitution)] {
        guard let gsub = try structuredTable("GSUB") else { return [] }
        let wanted = Set(try layoutFeatures().filter { $0.table == "GSUB" && $0.feature == feature }.flatMap(\.lookups)).sorted()
        let lookups = Self.items(gsub.root["LookupList"]?.fields?["Lookup"])
        var out: [(Int, Substitution)] = []
        for index in wanted where index < lookups.count {
            for subtable in Self.items(lookups[index].fields?["SubTable"]) {
                if case (_, .substitutions(let subs))? = Optional(Self.unwrapExtension(subtable)) {
                    out += subs.map { (index, $0) }
                }
            }
        }
        return out
    }

    /// The horizontal kerning of `left` followed by `right` (font units), as the `kern` feature's
    /// GPOS pair lookups give it: per lookup, the first subtable that covers the pair (glyph
    /// pairs, then class pairs), summed over lookups. The `kern` table is not consulted.
    public func kerning(_ left: Int, _ right: Int) throws -> Int {
        guard let gpos = try structuredTable("GPOS") else { return 0 }
        let wanted = Set(try layoutFeatures().filter { $0.table == "GPOS" && $0.feature == "kern" }.flatMap(\.lookups)).sorted()
        let lookups = Self.items(gpos.root["LookupList"]?.fields?["Lookup"])
        var total = 0
        for index in wanted where index < lookups.count {
            for subtable in Self.items(lookups[index].fields?["SubTable"]) {
                let (type, value) = Self.unwrapExtension(subtable)
                guard type == 2, case .formatted(let format, let f) = value else { continue }
                guard case .glyphs(let covered)? = f["Coverage"], let position = covered.glyphs.firstIndex(of: left) else { continue }
                if format == 1 {
                    let set = Self.items(f["PairSet"])
                    guard position < set.count else { continue }
                    let pair = Self.items(set[position].fields?["PairValueRecord"]).first { $0.fields?["SecondGlyph"]?.int == Int64(right) }
                    guard let pair else { continue }
                    total += Self.xAdvance(pair.fields?["Value1"])
                    break
                } else {
                    let c1 = Self.glyphClass(left, f["ClassDef1"]), c2 = Self.glyphClass(right, f["ClassDef2"])
                    let rows = Self.items(f["Class1Record"])
                    guard c1 < rows.count else { continue }
                    let cells = Self.items(rows[c1].fields?["Class2Record"])
                    guard c2 < cells.count else { continue }
                    total += Self.xAdvance(cells[c2].fields?["Value1"])
                    break
                }
            }
        }
        return total
    }

    /// Every kerned pair the `kern` feature's GPOS pair lookups produce, class pairs expanded
    /// (class 0 of the second glyph, "every other glyph", is not expanded), as HarfBuzz applies
    /// them: per lookup and first glyph, glyph pairs until a class subtable covers the glyph;
    /// summed over lookups. Pairs that add up to 0 are left out. Ordered by first, then second glyph.
    public func kerningPairs() throws -> [(left: Int, right: Int, value: Int)] {
        guard let gpos = try structuredTable("GPOS") else { return [] }
        let wanted = Set(try layoutFeatures().filter { $0.table == "GPOS" && $0.feature == "kern" }.flatMap(\.lookups)).sorted()
        let lookups = Self.items(gpos.root["LookupList"]?.fields?["Lookup"])
        var perLookup: [[(left: Int, right: Int, value: Int)]] = []
        // Which right glyphs the current first glyph already has (a stamp per glyph id), so the
        // first subtable to give a pair wins without hashing.
        var stamp = [Int](repeating: -1, count: 0x10000), value = [Int](repeating: 0, count: 0x10000)
        var generation = 0
        for index in wanted where index < lookups.count {
            struct PairSubtable {
                var coverage: [Int: Int] = [:]
                var pairSets: [StructValue] = []            // format 1
                var classOf: [Int: Int] = [:]               // format 2: ClassDef1
                var rows: [[(Int, Int)]] = []               // format 2: nonzero (class2, value) per class1
                var glyphsOfClass: [Int: [Int]] = [:]       // format 2: ClassDef2 inverted
                var isClassBased = false
            }
            var subtables: [PairSubtable] = []
            var lefts = Set<Int>()
            for subtable in Self.items(lookups[index].fields?["SubTable"]) {
                let (type, v) = Self.unwrapExtension(subtable)
                guard type == 2, case .formatted(let format, let f) = v, case .glyphs(let covered)? = f["Coverage"] else { continue }
                var st = PairSubtable()
                for (k, g) in covered.glyphs.enumerated() where st.coverage[g] == nil { st.coverage[g] = k; lefts.insert(g) }
                if format == 1 {
                    st.pairSets = Self.items(f["PairSet"])
                } else {
                    st.isClassBased = true
                    if case .classes(let runs)? = f["ClassDef1"] { for r in runs { for g in r.first...r.last { st.classOf[g] = r.glyphClass } } }
                    if case .classes(let runs)? = f["ClassDef2"] { for r in runs { st.glyphsOfClass[r.glyphClass, default: []].append(contentsOf: r.first...r.last) } }
                    st.rows = Self.items(f["Class1Record"]).map { row in
                        Self.items(row.fields?["Class2Record"]).enumerated().compactMap { c2, cell -> (Int, Int)? in
                            let v = Self.xAdvance(cell.fields?["Value1"])
                            return c2 > 0 && v != 0 ? (c2, v) : nil
                        }
                    }
                }
                subtables.append(st)
            }
            var out: [(left: Int, right: Int, value: Int)] = []
            for left in lefts.sorted() {
                generation += 1
                var rights: [Int] = []
                func give(_ right: Int, _ v: Int) {
                    guard right < 0x10000, stamp[right] != generation else { return }
                    stamp[right] = generation
                    value[right] = v
                    rights.append(right)
                }
                for st in subtables {
                    guard let k = st.coverage[left] else { continue }
                    if st.isClassBased {
                        let c1 = st.classOf[left] ?? 0
                        if c1 < st.rows.count { for (c2, v) in st.rows[c1] { for right in st.glyphsOfClass[c2] ?? [] { give(right, v) } } }
                        break   // a class subtable covering the glyph applies to every second glyph
                    }
                    guard k < st.pairSets.count else { continue }
                    for record in Self.items(st.pairSets[k].fields?["PairValueRecord"]) {
                        if let right = record.fields?["SecondGlyph"]?.int { give(Int(right), Self.xAdvance(record.fields?["Value1"])) }
                    }
                }
                for right in rights.sorted() where value[right] != 0 { out.append((left, right, value[right])) }
            }
            perLookup.append(out)
        }
        if perLookup.count <= 1 { return perLookup.first ?? [] }
        var total: [Int: Int] = [:]
        for pairs in perLookup { for p in pairs { total[p.left << 16 | p.right, default: 0] += p.value } }
        return total.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map { (left: $0.key >> 16, right: $0.key & 0xFFFF, value: $0.value) }
    }

    // MARK: reading the value tree

    static func items(_ v: StructValue?) -> [StructValue] {
        if case .list(let items)? = v { return items }
        return []
    }

    static func tagText(_ v: StructValue?) -> String {
        Tag(UInt32(truncatingIfNeeded: v?.int ?? 0)).description
    }

    /// A lookup subtable's real type and value, through an extension.
    static func unwrapExtension(_ subtable: StructValue) -> (Int, StructValue) {
        guard case .switched(let type, let inner) = subtable else { return (0, subtable) }
        if case .formatted(_, let f) = inner, case .switched(let real, let value)? = f["ExtSubTable"] { return (real, value) }
        return (type, inner)
    }

    static func glyphClass(_ glyph: Int, _ v: StructValue?) -> Int {
        guard case .classes(let runs)? = v else { return 0 }
        return runs.first { $0.first <= glyph && glyph <= $0.last }?.glyphClass ?? 0
    }

    static func xAdvance(_ v: StructValue?) -> Int { Int(v?.fields?["XAdvance"]?.int ?? 0) }

    static func subtableCases(_ tag: Tag) -> [Int: SwitchCase] {
        tag == "GSUB" ? GSUBTable.subtables.merging([7: SwitchCase("ExtensionSubst", .undescribed(""))]) { a, _ in a }
                      : GPOSTable.subtables.merging([9: SwitchCase("ExtensionPos", .undescribed(""))]) { a, _ in a }
    }
}
