/// Variable feature files, as feaLib compiles them: variable scalars (`(wght=200:-10
/// wght=900:-30)` for a value record field, an anchor coordinate or a ligature caret) become a
/// default value plus a row of deltas in GDEF's ItemVariationStore, which a VariationIndex Device
/// points at; `conditionset` and `variation` blocks become the FeatureVariations of GSUB or GPOS.

/// One master of a variable scalar as written: axis tag = user coordinate (where each was
/// written), and the value there. An empty location is the default.
struct ScalarMaster {
    var location: [(axis: String, value: Double, at: FeatureLocation)]
    var value: Int
}

/// A condition of a `conditionset`: an axis and its range, normalized.
struct AxisCondition: Equatable {
    var axis: Int
    var minimum: Double, maximum: Double
}

/// A face's design axes as feature files give coordinates: user values, normalized as feaLib
/// normalizes them (clamped to the axis, -1…0…1, then avar's segment maps; avar 2 is not
/// applied), and back (to write a region's peak or a condition's range).
struct DesignSpace {
    let axes: [FvarTable.Axis]
    let avar: AvarTable?

    func normalized(_ v: Double, axis i: Int) -> Double {
        let a = axes[i]
        var n = Face.normalize(min(max(v, a.minimum), a.maximum), a)
        if let avar { n = avar.map(n, axis: i) }
        return n
    }

    /// A normalized coordinate as stored (F2Dot14, rounded as fontTools rounds it).
    static func quantized(_ n: Double) -> Int { Int(F2Dot14(clamping: n).raw) }

    /// The shortest user coordinate of axis `i` whose normalized value is stored as `n` is,
    /// with that normalized value; nil when no user value gets there.
    func userCoordinate(_ n: Double, axis i: Int) -> (text: String, normalized: Double)? {
        let target = Self.quantized(n), a = axes[i]
        func q(_ u: Double) -> Int { Self.quantized(normalized(u, axis: i)) }
        guard q(a.minimum) <= target, q(a.maximum) >= target else { return nil }
        // The user values stored as `target` form an interval (normalizing never decreases).
        var low = a.minimum, high = a.maximum
        for _ in 0..<64 {
            let mid = (low + high) / 2
            if q(mid) >= target { high = mid } else { low = mid }
        }
        let first = q(low) == target ? low : high
        guard q(first) == target else { return nil }
        low = first
        high = a.maximum
        if q(high) != target {
            for _ in 0..<64 {
                let mid = (low + high) / 2
                if q(mid) <= target { low = mid } else { high = mid }
            }
        }
        let last = q(high) == target ? high : low
        var scale = 1.0
        for _ in 0...6 {
            let c = ((first + last) / 2 * scale).rounded() / scale
            if c >= first, c <= last, q(c) == target { return (Face.short(c), normalized(c, axis: i)) }
            scale *= 10
        }
        return (Face.short(first), normalized(first, axis: i))
    }
}

extension FeatureBuilder {
    /// The face's design axes (fvar) and avar's segment maps: variable scalars and condition
    /// sets are given in user coordinates.
    func setAxes(_ axes: [FvarTable.Axis], avar: AvarTable?) {
        space = DesignSpace(axes: axes, avar: avar)
        variationStore = axes.isEmpty ? nil : VariationStoreBuilder(axisCount: axes.count)
    }

    private func normalized(_ v: Double, axis i: Int) -> Double { space!.normalized(v, axis: i) }

    private func axisIndex(_ tag: String, at: FeatureLocation) throws -> Int {
        let tags = axes.map(\.tag.trimmed)
        if let i = tags.firstIndex(of: tag) { return i }
        var message = "no axis '\(tag)' in this font (axes: \(tags.joined(separator: ", ")))"
        if let near = closestName(to: tag, in: tags) { message += "; did you mean '\(near)'?" }
        throw FeatureFileError(message, at)
    }

    /// A variable scalar's default value, and the id of its row of deltas (nil when the value
    /// is the same at every master).
    func resolveScalar(_ masters: [ScalarMaster], at: FeatureLocation) throws -> (value: Int, row: Int?) {
        guard variationStore != nil else {
            throw FeatureFileError("a variable scalar needs a variable font, and this face has no 'fvar' table", at)
        }
        var locations: [[Double]] = []
        for m in masters {
            var coordinates = axes.map(\.defaultValue)
            for (tag, v, place) in m.location { coordinates[try axisIndex(tag, at: place)] = v }
            locations.append(coordinates)
        }
        let defaults = axes.map(\.defaultValue)
        guard let d = locations.firstIndex(of: defaults) else {
            let text = zip(axes, defaults).map { "\($0.tag.trimmed)=\(Face.short($1))" }.joined(separator: ",")
            throw FeatureFileError("a variable scalar needs a value at the default location (\(text))", at)
        }
        let values = masters.map(\.value)
        // What a variable scalar sets (a value record field, an anchor coordinate, a caret) is
        // 16 bits at the default; deltas are 32 bits.
        guard (-32768...32767).contains(values[d]) else {
            throw FeatureFileError("a variable scalar's default \(values[d]) does not fit 16 bits (-32768…32767)", at)
        }
        if let v = values.first(where: { !(-0x7FFF_FFFF...0x7FFF_FFFF).contains($0) }) {
            throw FeatureFileError("a variable scalar's value \(v) does not fit 32 bits", at)
        }
        guard values.contains(where: { $0 != values[d] }) else { return (values[d], nil) }
        let normalizedLocations = locations.map { coordinates in
            var out: [Int: Double] = [:]
            for (i, v) in coordinates.enumerated() { out[i] = normalized(v, axis: i) }
            return out
        }
        let model: MasterModel
        do {
            model = try MasterModel(normalizedLocations)
        } catch let e as MasterModel.ModelError {
            throw FeatureFileError("variable scalar: \(e.message)", at)
        }
        let deltas = model.deltas(values.map(Double.init))
        // Masters packed close together can need deltas past what a store row holds.
        if let big = deltas.dropFirst().first(where: { !(abs($0) <= Double(Int32.max)) }) {
            throw FeatureFileError("variable scalar: a delta of \(big) does not fit 32 bits; are two masters too close together?", at)
        }
        var row: [Int: Int] = [:]
        for k in 1..<deltas.count {
            let region = variationStore!.region(model.supports[k])
            row[region, default: 0] += Int(deltas[k])
        }
        return (values[d], variationStore!.add(row))
    }

    // MARK: Condition sets and variation blocks

    func addConditionSet(
        _ name: String, _ conditions: [(axis: String, minimum: Double, maximum: Double, at: FeatureLocation)], at: FeatureLocation
    ) throws {
        guard !axes.isEmpty else {
            throw FeatureFileError("a conditionset needs a variable font, and this face has no 'fvar' table", at)
        }
        guard conditionSets[name] == nil else { throw FeatureFileError("condition set '\(name)' is already defined", at) }
        var out: [(tag: String, condition: AxisCondition)] = []
        for c in conditions {
            let i = try axisIndex(c.axis, at: c.at)
            guard c.minimum <= c.maximum else {
                throw FeatureFileError("condition on '\(c.axis)': the minimum \(c.minimum) is above the maximum \(c.maximum)", c.at)
            }
            out.append((c.axis, AxisCondition(axis: i, minimum: normalized(c.minimum, axis: i), maximum: normalized(c.maximum, axis: i))))
        }
        // A ConditionSet lists its conditions by axis tag (as feaLib writes them).
        conditionSets[name] = out.sorted { $0.tag < $1.tag }.map(\.condition)
    }

    /// `variation TAG CONDITIONSET { … } TAG;`: a feature block whose lookups apply only where
    /// the condition set holds. `NULL` is a set without conditions (it always holds).
    func startVariation(_ tag: String, conditionSet: String, useExtension: Bool, at: FeatureLocation) throws {
        if conditionSet != "NULL", conditionSets[conditionSet] == nil {
            var message = "unknown condition set '\(conditionSet)'"
            if let near = closestName(to: conditionSet, in: Array(conditionSets.keys)) { message += " (did you mean '\(near)'?)" }
            throw FeatureFileError(message, at)
        }
        try startFeature(tag, useExtension: useExtension, at: at)
        variationConditionSet = conditionSet
    }

    func endVariation() {
        guard let set = variationConditionSet else { return }
        for key in features.keys {
            let added = features[key]!
            if let k = featureVariations.firstIndex(where: { $0.key == key }) {
                if let s = featureVariations[k].sets.firstIndex(where: { $0.name == set }) {
                    featureVariations[k].sets[s].lookups += added
                } else {
                    featureVariations[k].sets.append((set, added))
                }
            } else {
                featureVariations.append((key, [(set, added)]))
            }
            // The feature gets a record (with no lookups of its own, unless another block gives some).
            if outerFeatures[key] == nil { outerFeatures[key] = [] }
        }
        features = FeatureLookups()
        variationConditionSet = nil
        endFeature()
    }

    /// Whether a feature has lookups in `table` under some condition set (then its record is
    /// kept even with no lookups of its own).
    func hasVariations(_ feature: String, table: String) -> Bool {
        featureVariations.contains { $0.key.feature == feature && $0.sets.contains { $0.lookups.contains { $0.table == table } } }
    }

    /// The FeatureVariations of `table`, as feaLib's addFeatureVariationsRaw makes them: for
    /// each feature with variations, a record per condition set substituting every feature
    /// record of that tag with its own lookups followed by the set's (`rvrn`: preceded by
    /// them). Records with equal conditions are merged. A tag with no feature record in this
    /// table gets an empty one, added to every language system.
    func buildFeatureVariations(
        table: String, features: inout [(tag: String, lookups: [Int])], scripts: inout [String: [String: [Int]]],
        required: inout [LanguageSystem: Int]
    ) -> StructValue? {
        // Per feature tag (in the order tags first appear), the condition sets of the last
        // language system naming it: feaLib keys them by tag alone.
        // Unlike feaLib, a feature whose variations have no lookups in this table is left out
        // of it: feaLib gives it an empty feature and records here, whose conditions can then
        // shadow the table's real records (the first record that matches wins).
        var perTag: [(tag: String, sets: [(conditions: [AxisCondition], lookups: [Int])])] = []
        var hasAny = false
        for (key, sets) in featureVariations where sets.contains(where: { $0.lookups.contains { $0.table == table } }) {
            let entry = sets.map { set -> (conditions: [AxisCondition], lookups: [Int]) in
                let indices = set.lookups.filter { $0.table == table }.compactMap(\.index)
                if !indices.isEmpty { hasAny = true }
                return (conditionSets[set.name] ?? [], indices)
            }
            if let k = perTag.firstIndex(where: { $0.tag == key.feature }) {
                perTag[k].sets = entry
            } else {
                perTag.append((key.feature, entry))
            }
        }
        guard hasAny else { return nil }

        var records: [(conditions: [AxisCondition], substitutions: [(feature: Int, lookups: [Int])])] = []
        for (tag, sets) in perTag {
            if !features.contains(where: { $0.tag == tag }) { addEmptyFeature(tag, &features, &scripts, &required) }
            let indices = features.indices.filter { features[$0].tag == tag }
            for (conditions, lookups) in sets {
                let substitutions = indices.map { i in
                    (i, tag == "rvrn" ? lookups + features[i].lookups : features[i].lookups + lookups)
                }
                if let k = records.firstIndex(where: { $0.conditions == conditions }) {
                    records[k].substitutions += substitutions
                    // Stable: records of one feature keep their order.
                    records[k].substitutions = records[k].substitutions.enumerated().sorted {
                        ($0.element.feature, $0.offset) < ($1.element.feature, $1.offset)
                    }.map(\.element)
                } else {
                    records.append((conditions, substitutions))
                }
            }
        }

        func f2dot14(_ v: Double) -> StructValue { .int(Int64(F2Dot14(clamping: v).raw)) }
        let recordValues: [StructValue] = records.map { r in
            let conditionSet: StructValue =
                r.conditions.isEmpty
                ? .none
                : .record(
                    StructFieldsBuilder.make([
                        "ConditionTable": .list(
                            r.conditions.map { c in
                                .formatted(
                                    1,
                                    StructFieldsBuilder.make([
                                        ("AxisIndex", .int(Int64(c.axis))), ("FilterRangeMinValue", f2dot14(c.minimum)),
                                        ("FilterRangeMaxValue", f2dot14(c.maximum)),
                                    ]))
                            })
                    ]))
            let substitutions: [StructValue] = r.substitutions.map { s in
                .record(
                    StructFieldsBuilder.make([
                        ("FeatureIndex", .int(Int64(s.feature))),
                        (
                            "Feature",
                            .record(
                                StructFieldsBuilder.make([
                                    ("FeatureParams", StructValue.none), ("LookupListIndex", .list(s.lookups.map { .int(Int64($0)) })),
                                ]))
                        ),
                    ]))
            }
            return .record(
                StructFieldsBuilder.make([
                    ("ConditionSet", conditionSet),
                    (
                        "FeatureTableSubstitution",
                        .record(StructFieldsBuilder.make([("Version", .int(0x0001_0000)), ("SubstitutionRecord", .list(substitutions))]))
                    ),
                ]))
        }
        return .record(StructFieldsBuilder.make([("Version", .int(0x0001_0000)), ("FeatureVariationRecord", .list(recordValues))]))
    }

    /// An empty feature record for `tag`: feature records re-sorted by tag (indexes remapped),
    /// the new one added to every language system of every script.
    private func addEmptyFeature(
        _ tag: String, _ features: inout [(tag: String, lookups: [Int])], _ scripts: inout [String: [String: [Int]]],
        _ required: inout [LanguageSystem: Int]
    ) {
        features.append((tag, []))
        let order = features.indices.sorted { (features[$0].tag, $0) < (features[$1].tag, $1) }
        var remap: [Int: Int] = [:]
        for (new, old) in order.enumerated() { remap[old] = new }
        let newIndex = remap[features.count - 1]!
        features = order.map { features[$0] }
        for (script, languages) in scripts {
            var languages = languages.mapValues { $0.map { remap[$0]! } }
            if languages["dflt"] == nil { languages["dflt"] = [] }
            for l in languages.keys { languages[l]!.append(newIndex) }
            scripts[script] = languages
        }
        required = required.mapValues { remap[$0]! }
    }

    // MARK: The variation store

    /// GDEF's VarStore once every scalar is read, and each row id's final variation index
    /// (nil: no variation). Nil when the file has no varying scalar. The store's bytes come from
    /// ItemVariationStore's encoder (wide columns first, NumShorts) and are read back through
    /// GDEF's description.
    func finishVariationStore() throws -> (store: StructValue, indexes: [Int?])? {
        guard let builder = variationStore, !builder.isEmpty else { return nil }
        let (store, indexes) = builder.build()
        let bytes = try store.encode(axisCount: axes.count)
        let value = try bytes.withUnsafeBytes {
            try StructureCodec.decode(BinaryReader($0), .record(GDEFTable.variationStore), name: "VarStore")
        }
        return (value, indexes)
    }

    /// `value` with every VariationIndex Device's row id replaced by the row's final index
    /// (0xFFFF/0xFFFF where the row turned out to be all zeros).
    static func remapVariationDevices(_ value: StructValue, _ indexes: [Int?]) -> StructValue {
        switch value {
        case .device(var d) where d.deltaFormat == 0x8000:
            let row = d.startSize << 16 | d.endSize
            let index = row < indexes.count ? indexes[row] : nil
            d.startSize = index.map { $0 >> 16 } ?? 0xFFFF
            d.endSize = index.map { $0 & 0xFFFF } ?? 0xFFFF
            return .device(d)
        case .record(let f): return .record(remapFields(f, indexes))
        case .formatted(let n, let f): return .formatted(n, remapFields(f, indexes))
        case .list(let items): return .list(items.map { remapVariationDevices($0, indexes) })
        case .switched(let n, let v): return .switched(n, remapVariationDevices(v, indexes))
        default: return value
        }
    }

    static func remapFields(_ fields: StructFields, _ indexes: [Int?]) -> StructFields {
        var out = StructFields(capacity: fields.names.count)
        for (name, v) in zip(fields.names, fields.values) { out[name] = remapVariationDevices(v, indexes) }
        return out
    }
}
