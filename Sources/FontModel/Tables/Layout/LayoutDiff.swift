/// What changed in GSUB or GPOS, said the way a font engineer thinks of it: features (per
/// script and language) whose lookups changed, kerned pairs, and substitutions per feature, by
/// glyph name. Whatever else changed (marks, anchors, contextual rules, flags) is compared
/// member by member (`StructureDiff`) with the lookups already described above left out, so
/// one inserted pair is one line, not a cascade of shifted records.
enum LayoutDiff {
    static func compare(_ a: Face, _ b: Face, tag: Tag) throws -> [Difference] {
        guard let ta = try a.structuredTable(tag), let tb = try b.structuredTable(tag) else { return [] }
        let name = tag.trimmed
        var out: [Difference] = []
        func note(_ kind: Difference.Kind, _ item: String, _ old: String?, _ new: String?) {
            out.append(Difference(kind: kind, table: name, item: item, old: old, new: new))
        }
        // Features.
        func features(_ face: Face) throws -> [String: [Int]] {
            var m: [String: [Int]] = [:]
            for f in try face.layoutFeatures() where f.table == name { m["feature \(f.feature) (\(f.script)/\(f.language))"] = f.lookups }
            return m
        }
        let fa = try features(a), fb = try features(b)
        for key in Set(fa.keys).union(fb.keys).sorted() where fa[key] != fb[key] {
            let text = { (l: [Int]?) in l.map { "lookups " + $0.map(String.init).joined(separator: ", ") } }
            note(fa[key] == nil ? .added : fb[key] == nil ? .removed : .changed, key, text(fa[key]), text(fb[key]))
        }
        let namesA = try a.glyphNames(), namesB = try b.glyphNames()
        // What the lookups described below do.
        let described: (StructValue) -> Bool
        if name == "GPOS" {
            described = { Face.realType($0) == 2 }
            let pa = try KerningPairs(face: a), pb = try KerningPairs(face: b)
            if pa.source == "GPOS" || pb.source == "GPOS" {
                var va: [String: Int] = [:], vb: [String: Int] = [:]
                if pa.source == "GPOS" {
                    for p in pa.all() { va[glyphName(p.left, in: namesA) + " " + glyphName(p.right, in: namesA)] = p.value }
                }
                if pb.source == "GPOS" {
                    for p in pb.all() { vb[glyphName(p.left, in: namesB) + " " + glyphName(p.right, in: namesB)] = p.value }
                }
                for key in Set(va.keys).union(vb.keys).sorted() where va[key] != vb[key] {
                    note(
                        va[key] == nil ? .added : vb[key] == nil ? .removed : .changed, "kern " + key, va[key].map(String.init),
                        vb[key].map(String.init))
                }
            }
        } else {
            described = { (1...4).contains(Face.realType($0)) }
            for feature in Set(fa.keys.map(featureTag) + fb.keys.map(featureTag)).sorted() {
                func substitutions(_ face: Face, _ names: [String]) throws -> Set<String> {
                    Set(
                        try face.substitutions(feature: feature).map {
                            $0.substitution.input.map { glyphName($0, in: names) }.joined(separator: " ") + " → "
                                + $0.substitution.output.map { glyphName($0, in: names) }.joined(separator: " ")
                        })
                }
                let sa = try substitutions(a, namesA), sb = try substitutions(b, namesB)
                for s in sa.subtracting(sb).sorted() { note(.removed, feature, s, nil) }
                for s in sb.subtracting(sa).sorted() { note(.added, feature, nil, s) }
            }
        }
        // The rest, member by member, with features and the lookups described above masked out.
        func masked(_ root: StructFields) -> StructFields {
            var r = root
            r["ScriptList"] = StructValue.none
            r["FeatureList"] = StructValue.none
            if case .record(var list)? = r["LookupList"], case .list(let lookups)? = list["Lookup"] {
                list["Lookup"] = .list(lookups.map { described($0) ? StructValue.none : $0 })
                r["LookupList"] = .record(list)
            }
            return r
        }
        out += StructureDiff.compare(
            record: ta.record, masked(try ta.rootKeepingDamage), masked(try tb.rootKeepingDamage), table: name, namesA: namesA,
            namesB: namesB)
        return out
    }

    /// "feature liga (latn/dflt)" → "liga".
    static func featureTag(_ key: String) -> String {
        String(key.dropFirst("feature ".count).prefix { $0 != " " })
    }
}

extension GSUBTable: FaceDiffableTable {
    public static var diffGroup: Tag { tableTag }
    public static func differences(_ a: Face, _ b: Face) throws -> [Difference] { try LayoutDiff.compare(a, b, tag: tableTag) }
}

extension GPOSTable: FaceDiffableTable {
    public static var diffGroup: Tag { tableTag }
    public static func differences(_ a: Face, _ b: Face) throws -> [Difference] { try LayoutDiff.compare(a, b, tag: tableTag) }
}
