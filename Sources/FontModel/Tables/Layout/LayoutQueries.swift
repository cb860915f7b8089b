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
            // A feature's parameters kept as bytes do not stop the feature list.
            try table.requireIntact(["ScriptList", "FeatureList"], tolerating: ["FeatureParams"])
            let features = Self.items(table.lazyRoot["FeatureList"]?.fields?["FeatureRecord"]).map { record -> (String, [Int]) in
                let tag = Self.tagText(record.fields?["FeatureTag"])
                let lookups = Self.items(record.fields?["Feature"]?.fields?["LookupListIndex"]).compactMap { $0.int.map(Int.init) }
                return (tag, lookups)
            }
            for script in Self.items(table.lazyRoot["ScriptList"]?.fields?["ScriptRecord"]) {
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
                        out.append(
                            LayoutFeature(
                                table: tag.trimmed, script: scriptTag, language: language, feature: features[i].0,
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
        try table.requireIntact(["LookupList"])
        let cases = Self.subtableCases(tag)
        // Lookup records only: their subtables stay undecoded, but an extension's first, for
        // the type it wraps.
        return try Self.items(table.lazyRoot["LookupList"]?.fields?["Lookup"]).enumerated().map { index, lookup in
            let f = lookup.fields
            let type = Int(f?["LookupType"]?.int ?? 0)
            let subtables = Self.items(f?["SubTable"])
            var name = cases[type]?.name ?? "type \(type)"
            let isExtension = (tag == "GSUB" && type == 7) || (tag == "GPOS" && type == 9)
            if isExtension, let first = subtables.first, case .switched(_, let ext) = try context(tag, { try first.resolved() }),
                let real = ext.fields?["ExtensionLookupType"]?.int
            {
                name = cases[Int(real)]?.name ?? name
            }
            return LayoutLookup(
                index: index, type: type, typeName: name, flag: Int(f?["LookupFlag"]?.int ?? 0),
                subtables: subtables.count, isExtension: isExtension)
        }
    }

    /// What the lookups of a GSUB feature (every script and language) substitute: types 1–4,
    /// extensions included, in lookup order. Contextual lookups are named by the lookups they call.
    public func substitutions(feature: String) throws -> [(lookup: Int, substitution: Substitution)] {
        guard let gsub = try structuredTable("GSUB") else { return [] }
        let wanted = Set(try layoutFeatures().filter { $0.table == "GSUB" && $0.feature == feature }.flatMap(\.lookups)).sorted()
        try gsub.requireIntact(wanted.map { "LookupList.Lookup[\($0)]" })
        let lookups = Self.items(gsub.lazyRoot["LookupList"]?.fields?["Lookup"])
        var out: [(Int, Substitution)] = []
        for index in wanted where index < lookups.count {
            for subtable in Self.items(lookups[index].fields?["SubTable"]) {   // only these lookups' subtables are decoded
                if case (_, .substitutions(let subs))? = Optional(Self.unwrapExtension(try context("GSUB") { try subtable.resolvedDeep() }))
                {
                    out += subs.map { (index, $0) }
                }
            }
        }
        return out
    }

    /// The horizontal kerning of `left` followed by `right` (font units): the `kern` feature's
    /// GPOS pair lookups, or the `kern` table when GPOS has no `kern` feature (`KerningPairs`).
    public func kerning(_ left: Int, _ right: Int) throws -> Int {
        try currentKerning().value(left, right)
    }

    /// The face's kerning, read once and kept until GPOS, kern or the glyph count change, so a
    /// script asking pair after pair does not read the table again for each.
    func currentKerning() throws -> KerningPairs {
        let key = KerningSource(self)
        if let cached = cachedKerning, cached.key == key { return cached.pairs }
        let pairs = try KerningPairs(face: self)
        cachedKerning = (key, pairs)
        return pairs
    }

    /// Every kerned pair, class pairs expanded, ordered by first then second glyph
    /// (`KerningPairs` says the rules).
    public func kerningPairs() throws -> [(left: Int, right: Int, value: Int)] {
        try currentKerning().all()
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
        tag == "GSUB"
            ? GSUBTable.subtables.merging([7: SwitchCase("ExtensionSubst", .undescribed(""))]) { a, _ in a }
            : GPOSTable.subtables.merging([9: SwitchCase("ExtensionPos", .undescribed(""))]) { a, _ in a }
    }
}
