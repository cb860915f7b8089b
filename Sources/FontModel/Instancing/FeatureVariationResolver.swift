/// GSUB and GPOS FeatureVariations at a location, for a full instance, as fontTools'
/// instancer resolves them: the first record whose conditions all hold there swaps its
/// features into the FeatureList, the FeatureVariations go (the table becomes version 1.0),
/// and lookups nothing references any more are removed and the rest renumbered.
enum FeatureVariationResolver {
    /// The table's value with its FeatureVariations resolved; nil when it has none.
    static func resolve(_ root: StructFields, location: [Double], table: String) throws -> StructFields? {
        guard let variations = root["FeatureVariations"]?.fields else { return nil }
        var out = root
        guard var featureList = out["FeatureList"]?.fields, case .list(var features)? = featureList["FeatureRecord"] else { return nil }
        for (r, record) in Face.items(variations["FeatureVariationRecord"]).enumerated() {
            guard try holds(record.fields?["ConditionSet"], location: location, table: table, record: r) else { continue }
            for substitution in Face.items(record.fields?["FeatureTableSubstitution"]?.fields?["SubstitutionRecord"]) {
                guard let index = substitution.fields?["FeatureIndex"]?.int.map(Int.init), let feature = substitution.fields?["Feature"]
                else { continue }
                guard index < features.count, case .record(var featureRecord) = features[index] else {
                    throw FontError(
                        "FeatureVariations record \(r) replaces feature \(index); the FeatureList has \(features.count)", table: table)
                }
                featureRecord["Feature"] = feature
                features[index] = .record(featureRecord)
            }
            break
        }
        featureList["FeatureRecord"] = .list(features)
        out["FeatureList"] = .record(featureList)
        out["FeatureVariations"] = nil
        out["Version"] = .int(0x0001_0000)
        return pruneLookups(out, table: table)
    }

    /// A partial instance's FeatureVariations (`AxisLimits`), as fontTools' instancer pins them:
    /// a record with a condition on a pinned axis that fails there goes; conditions that hold
    /// there go; conditions on kept axes stay, renumbered (on a narrowed axis, their range in
    /// its new normalized space; a range outside it fails everywhere); repeated records go.
    /// The first record that holds at the new default swaps its features into the FeatureList,
    /// and a last catch-all record swaps the old ones back wherever no other record holds. A record left without conditions matches
    /// everywhere, so none after it is kept. Lookups only dropped records reached are removed
    /// (`pruneLookups`), as fontTools does. nil when the table has none.
    static func forPartialInstance(_ root: StructFields, limits: AxisLimits, table: String) throws -> StructFields? {
        let pins = limits.pins
        guard let variations = root["FeatureVariations"]?.fields else { return nil }
        var out = root
        guard var featureList = out["FeatureList"]?.fields, case .list(var features)? = featureList["FeatureRecord"] else { return nil }
        var newAxis: [Int: Int] = [:]
        for a in pins.indices where pins[a] == nil { newAxis[a] = newAxis.count }
        var kept: [StructValue] = [], seen = Set<[Int64]>()
        var applied = false, universal = false
        var restore: StructFields?   // the catch-all's substitutions: the features the default had
        for (r, record) in Face.items(variations["FeatureVariationRecord"]).enumerated() {
            guard var fields = record.fields else { continue }
            var conditions: [StructValue] = [], key: [Int64] = []
            var dropped = false, holdsAtDefault = true
            for condition in Face.items(fields["ConditionSet"]?.fields?["ConditionTable"]) {
                guard case .formatted(1, var c) = try condition.resolved(), let axis = c["AxisIndex"]?.int.map(Int.init) else {
                    throw FontError(
                        "FeatureVariations record \(r) has a condition of a format other than 1; partial instancing reads only axis ranges",
                        table: table)
                }
                guard axis < pins.count else {
                    throw FontError("FeatureVariations record \(r) has a condition on axis \(axis); fvar has \(pins.count)", table: table)
                }
                let lowRaw = c["FilterRangeMinValue"]?.int ?? 0, highRaw = c["FilterRangeMaxValue"]?.int ?? 0
                let low = Double(lowRaw) / F2Dot14.scale, high = Double(highRaw) / F2Dot14.scale
                let atDefault = limits.location[axis]
                if !(low <= atDefault && atDefault <= high) { holdsAtDefault = false }
                if let pinned = pins[axis] {
                    if !(low <= pinned && pinned <= high) { dropped = true; break }
                } else if let axisNow = newAxis[axis] {
                    var (lowNew, highNew) = (lowRaw, highRaw)
                    if let r = limits.ranges[axis] {
                        if high < r.lower || low > r.upper { dropped = true; break }
                        // Within the new normalized range: an axis whose default is its
                        // minimum (or maximum) has no negative (or positive) side any more.
                        let floor: Double = r.lower < r.origin ? -1 : 0, ceiling: Double = r.upper > r.origin ? 1 : 0
                        lowNew = Int64(F2Dot14(clamping: max(limits.rebased(low, axis: axis), floor)).raw)
                        highNew = Int64(F2Dot14(clamping: min(limits.rebased(high, axis: axis), ceiling)).raw)
                        c["FilterRangeMinValue"] = .int(lowNew); c["FilterRangeMaxValue"] = .int(highNew)
                    }
                    c["AxisIndex"] = .int(Int64(axisNow))
                    conditions.append(.formatted(1, c))
                    key += [Int64(axisNow), lowNew, highNew]
                }
            }
            if dropped { continue }
            let substitution = fields["FeatureTableSubstitution"]?.fields
            if holdsAtDefault && !applied {
                var old = substitution ?? StructFields()
                var records: [StructValue] = []
                for item in Face.items(substitution?["SubstitutionRecord"]) {
                    guard var s = item.fields, let index = s["FeatureIndex"]?.int.map(Int.init), let feature = s["Feature"] else {
                        continue
                    }
                    guard index < features.count, case .record(var featureRecord) = features[index] else {
                        throw FontError(
                            "FeatureVariations record \(r) replaces feature \(index); the FeatureList has \(features.count)", table: table)
                    }
                    s["Feature"] = featureRecord["Feature"] ?? StructValue.none
                    records.append(.record(s))
                    featureRecord["Feature"] = feature
                    features[index] = .record(featureRecord)
                }
                old["SubstitutionRecord"] = .list(records)
                restore = old
                applied = true
            }
            key.append(substitution?["Version"]?.int ?? 0x0001_0000)
            if seen.insert(key).inserted {
                if conditions.isEmpty {
                    fields["ConditionSet"] = StructValue.none
                } else {
                    var set = StructFields()
                    set["ConditionCount"] = .int(Int64(conditions.count))
                    set["ConditionTable"] = .list(conditions)
                    fields["ConditionSet"] = .record(set)
                }
                kept.append(.record(fields))
            }
            if conditions.isEmpty { universal = true; break }
        }
        if applied, !kept.isEmpty, !universal, let restore {
            var set = StructFields()
            set["ConditionCount"] = .int(0)
            set["ConditionTable"] = .list([])
            var catchAll = StructFields()
            catchAll["ConditionSet"] = .record(set)
            catchAll["FeatureTableSubstitution"] = .record(restore)
            kept.append(.record(catchAll))
        }
        featureList["FeatureRecord"] = .list(features)
        out["FeatureList"] = .record(featureList)
        if kept.isEmpty {
            out["FeatureVariations"] = nil
            out["Version"] = .int(0x0001_0000)
        } else {
            var v = variations
            v["FeatureVariationCount"] = .int(Int64(kept.count))
            v["FeatureVariationRecord"] = .list(kept)
            out["FeatureVariations"] = .record(v)
        }
        // Lookups that only dropped records reached go, as fontTools prunes them.
        return pruneLookups(out, table: table)
    }

    /// Whether every condition of a set holds (an absent set always does).
    static func holds(_ set: StructValue?, location: [Double], table: String, record: Int) throws -> Bool {
        guard let conditions = set?.fields else { return true }
        for condition in Face.items(conditions["ConditionTable"]) {
            guard case .formatted(1, let c) = try condition.resolved(), let axis = c["AxisIndex"]?.int.map(Int.init) else { continue }
            guard axis < location.count else {
                throw FontError(
                    "FeatureVariations record \(record) has a condition on axis \(axis); fvar has \(location.count)", table: table)
            }
            let low = Double(c["FilterRangeMinValue"]?.int ?? 0) / F2Dot14.scale,
                high = Double(c["FilterRangeMaxValue"]?.int ?? 0) / F2Dot14.scale
            if !(low <= location[axis] && location[axis] <= high) { return false }
        }
        return true
    }

    /// fontTools' `prune_lookups` after resolving: lookups reached from the scripts' features
    /// (and from the features FeatureVariations swap in for them, and the lookups those call)
    /// are kept, in order, and renumbered; features left without lookups everywhere go (except
    /// 'pref', which HarfBuzz reads for Khmer), and with them language systems left without
    /// features and FeatureVariations' swaps of them; GPOS also drops scripts left empty (GSUB
    /// keeps them).
    static func pruneLookups(_ root: StructFields, table: String) -> StructFields {
        guard let lookupList = root["LookupList"]?.fields, case .list(let lookups)? = lookupList["Lookup"] else { return root }
        let featureRecords = Face.items(root["FeatureList"]?.fields?["FeatureRecord"])
        let scripts = Face.items(root["ScriptList"]?.fields?["ScriptRecord"])
        // (feature index, feature swapped in) of every FeatureVariations record, by record.
        let variationRecords = Face.items(root["FeatureVariations"]?.fields?["FeatureVariationRecord"])
        func swaps(_ record: StructValue) -> [(index: Int, feature: StructValue)] {
            Face.items(record.fields?["FeatureTableSubstitution"]?.fields?["SubstitutionRecord"]).compactMap { s in
                guard let i = s.fields?["FeatureIndex"]?.int.map(Int.init), let f = s.fields?["Feature"] else { return nil }
                return (i, f)
            }
        }
        func systems(_ script: StructValue) -> [StructFields] {
            let s = script.fields?["Script"]?.fields
            return ([s?["DefaultLangSys"]] + Face.items(s?["LangSysRecord"]).map { $0.fields?["LangSys"] }).compactMap { $0?.fields }
        }
        var featureIndexes = Set<Int>()
        for script in scripts {
            for system in systems(script) {
                featureIndexes.formUnion(Face.items(system["FeatureIndex"]).compactMap { $0.int.map(Int.init) })
                if let required = system["ReqFeatureIndex"]?.int, required != 0xFFFF { featureIndexes.insert(Int(required)) }
            }
        }
        var reached = Set<Int>(), queue: [Int] = []
        func lookupIndexes(_ feature: StructValue?) -> [Int] {
            Face.items(feature?.fields?["LookupListIndex"]).compactMap { $0.int.map(Int.init) }
        }
        for f in featureIndexes where f < featureRecords.count { queue += lookupIndexes(featureRecords[f].fields?["Feature"]) }
        for record in variationRecords {
            for swap in swaps(record) where featureIndexes.contains(swap.index) { queue += lookupIndexes(swap.feature) }
        }
        while let i = queue.popLast() {
            guard i < lookups.count, reached.insert(i).inserted else { continue }
            var calls: [Int] = []
            LayoutCheck.collectCalls(lookups[i], into: &calls)
            queue += calls
        }
        let kept = reached.sorted()
        var renumber: [Int: Int] = [:]
        for (new, old) in kept.enumerated() { renumber[old] = new }
        var out = root
        var list = lookupList
        list["Lookup"] = .list(kept.map { remap(lookups[$0], renumber) })
        out["LookupList"] = .record(list)

        // Features: lookups renumbered; those empty here and in every swap dropped.
        let swappedInWithLookups = Set(
            variationRecords.flatMap { record in
                swaps(record).filter { lookupIndexes($0.feature).contains { renumber[$0] != nil } }.map(\.index)
            })
        var featureRenumber: [Int: Int] = [:]
        var features: [StructValue] = []
        for (i, record) in featureRecords.enumerated() {
            guard var f = record.fields, var feature = f["Feature"]?.fields else { continue }
            let indexes = Face.items(feature["LookupListIndex"]).compactMap { $0.int.flatMap { renumber[Int($0)] } }
            feature["LookupListIndex"] = .list(indexes.map { .int(Int64($0)) })
            guard !indexes.isEmpty || f["FeatureTag"]?.int == Int64(Tag("pref").rawValue) || swappedInWithLookups.contains(i) else {
                continue
            }
            f["Feature"] = .record(feature)
            featureRenumber[i] = features.count
            features.append(.record(f))
        }
        if var featureList = out["FeatureList"]?.fields {
            featureList["FeatureRecord"] = .list(features)
            out["FeatureList"] = .record(featureList)
        }
        // FeatureVariations: swaps of dropped features go, the others are renumbered.
        if var variations = out["FeatureVariations"]?.fields {
            variations["FeatureVariationRecord"] = .list(
                variationRecords.map { record in
                    guard var fields = record.fields, var substitution = fields["FeatureTableSubstitution"]?.fields else { return record }
                    let kept: [StructValue] = swaps(record).compactMap { swap in
                        guard let i = featureRenumber[swap.index] else { return nil }
                        var s = StructFields()
                        s["FeatureIndex"] = .int(Int64(i))
                        s["Feature"] = remap(swap.feature, renumber)
                        return .record(s)
                    }
                    substitution["SubstitutionCount"] = .int(Int64(kept.count))
                    substitution["SubstitutionRecord"] = .list(kept)
                    fields["FeatureTableSubstitution"] = .record(substitution)
                    return .record(fields)
                })
            out["FeatureVariations"] = .record(variations)
        }

        // Scripts: language systems follow their features.
        func subset(_ system: StructFields) -> (StructFields, nonEmpty: Bool) {
            var s = system
            let required = s["ReqFeatureIndex"]?.int.flatMap { featureRenumber[Int($0)] } ?? 0xFFFF
            s["ReqFeatureIndex"] = .int(Int64(required))
            let indexes = Face.items(s["FeatureIndex"]).compactMap { $0.int.flatMap { featureRenumber[Int($0)] } }
            s["FeatureIndex"] = .list(indexes.map { .int(Int64($0)) })
            return (s, !indexes.isEmpty || required != 0xFFFF)
        }
        var keptScripts: [StructValue] = []
        for record in scripts {
            guard var r = record.fields, var script = r["Script"]?.fields else { continue }
            let isDefault = r["ScriptTag"]?.int == Int64(Tag("DFLT").rawValue)
            if let d = script["DefaultLangSys"]?.fields {
                let (s, nonEmpty) = subset(d)
                script["DefaultLangSys"] = nonEmpty || isDefault ? .record(s) : StructValue.none
            }
            let systemsKept: [StructValue] = Face.items(script["LangSysRecord"]).compactMap { item in
                guard var l = item.fields, let system = l["LangSys"]?.fields else { return nil }
                let (s, nonEmpty) = subset(system)
                guard nonEmpty else { return nil }
                l["LangSys"] = .record(s)
                return .record(l)
            }
            script["LangSysRecord"] = .list(systemsKept)
            let hasDefault: Bool = { if case .record? = script["DefaultLangSys"] { return true } else { return false } }()
            guard !systemsKept.isEmpty || hasDefault || table == "GSUB" else { continue }
            r["Script"] = .record(script)
            keptScripts.append(.record(r))
        }
        if var scriptList = out["ScriptList"]?.fields {
            scriptList["ScriptRecord"] = .list(keptScripts)
            out["ScriptList"] = .record(scriptList)
        }
        return out
    }

    /// Every LookupListIndex in a value renumbered; indexes of removed lookups dropped from lists.
    static func remap(_ value: StructValue, _ renumber: [Int: Int]) -> StructValue {
        switch value {
        case .record(let f), .formatted(_, let f):
            var g = StructFields()
            for (name, v) in zip(f.names, f.values) {
                if name == "LookupListIndex" {
                    switch v {
                    case .int(let i): g[name] = .int(Int64(renumber[Int(i)] ?? Int(i)))
                    case .list(let items):
                        g[name] = .list(items.compactMap { $0.int.flatMap { renumber[Int($0)] }.map { .int(Int64($0)) } })
                    default: g[name] = v
                    }
                } else {
                    g[name] = remap(v, renumber)
                }
            }
            if case .formatted(let n, _) = value { return .formatted(n, g) }
            return .record(g)
        case .list(let items): return .list(items.map { remap($0, renumber) })
        case .switched(let k, let v): return .switched(k, remap(v, renumber))
        case .lazy(let l): return (try? l.value()).map { remap($0, renumber) } ?? value
        default: return value
        }
    }
}
