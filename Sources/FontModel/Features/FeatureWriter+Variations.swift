/// Writing a variable font's layout as a variable feature file: a value whose VariationIndex
/// Device points into GDEF's store becomes a variable scalar (its default, and its value at the
/// peak of each region it has a delta for), and FeatureVariations become `conditionset` and
/// `variation` blocks. Each is written only when compiling it back gives the same regions,
/// deltas and substitutions; otherwise it is left out with a note.

/// Turns rows of GDEF's store into variable scalars.
final class ScalarWriter {
    let space: DesignSpace
    let store: ItemVariationStore
    /// Values written at their default only, because no variable scalar gives their deltas back.
    private(set) var inexpressible = 0
    /// Per row (outer << 16 | inner): each master's location as written and its value less the
    /// default; nil when the row cannot be written.
    private var rows: [Int: [(location: String, offset: Int)]?] = [:]

    init(space: DesignSpace, store: ItemVariationStore) {
        self.space = space
        self.store = store
    }

    /// `(DEFAULT wght=900:V …)` for a value whose device is a VariationIndex, nil to write the
    /// plain number (no variation, or one that cannot be written: counted in `inexpressible`).
    func text(_ value: Int64, _ device: StructValue?) -> String? {
        guard case .device(let d)? = device, d.deltaFormat == 0x8000, !(d.startSize == 0xFFFF && d.endSize == 0xFFFF) else { return nil }
        let key = d.startSize << 16 | d.endSize
        if rows[key] == nil { rows[key] = masters(outer: d.startSize, inner: d.endSize) }
        guard let masters = rows[key]! else {
            inexpressible += 1
            return nil
        }
        if masters.isEmpty { return nil }
        // A feature file's values at masters are 32 bits.
        guard masters.allSatisfy({ (-0x7FFF_FFFF...0x7FFF_FFFF).contains(value + Int64($0.offset)) }) else {
            inexpressible += 1
            return nil
        }
        return "(\(value) " + masters.map { "\($0.location):\(value + Int64($0.offset))" }.joined(separator: " ") + ")"
    }

    /// The masters of a row: one at the peak of each region with a delta. Nil unless compiling
    /// them back (the builder's normalization and master model) gives exactly these regions
    /// and deltas.
    private func masters(outer: Int, inner: Int) -> [(location: String, offset: Int)]? {
        guard outer < store.data.count, inner < store.data[outer].itemCount else { return nil }
        let data = store.data[outer]
        let n = data.regionIndexes.count
        var deltas: [Int: Int] = [:]
        for k in 0..<n where data.deltas[inner * n + k] != 0 {
            deltas[data.regionIndexes[k], default: 0] += Int(data.deltas[inner * n + k])
        }
        deltas = deltas.filter { $0.value != 0 }
        if deltas.isEmpty { return [] }
        // A region as the builder would make it: axes with peak 0 do not take part.
        func key(_ spans: [ItemVariationStore.AxisSpan]) -> [Int] {
            spans.flatMap { s in s.peak == 0 ? [0, 0, 0] : [s.start, s.peak, s.end].map(DesignSpace.quantized) }
        }
        let regions = deltas.keys.sorted()
        var expected: [[Int]: Int] = [:]
        for r in regions { expected[key(store.regions[r]), default: 0] += deltas[r]! }
        guard expected.count == regions.count else { return nil }

        var written: [(location: String, offset: Int)] = []
        var locations: [[Int: Double]] = [[:]]
        var offsets: [Double] = [0]
        for r in regions {
            let spans = store.regions[r]
            var text: [String] = []
            var location: [Int: Double] = [:]
            for (axis, s) in spans.enumerated() where s.peak != 0 {
                guard let c = space.userCoordinate(s.peak, axis: axis) else { return nil }
                text.append("\(space.axes[axis].tag.trimmed)=\(c.text)")
                location[axis] = c.normalized
            }
            guard !location.isEmpty else { return nil }
            // The value there, less the default: every region's delta times its weight there.
            let peak = spans.map(\.peak)
            let sum = regions.reduce(0.0) { $0 + Double(deltas[$1]!) * ItemVariationStore.scalar(store.regions[$1], at: peak) }
            guard abs(sum - sum.rounded()) < 1e-9 else { return nil }
            written.append((text.joined(separator: ","), Int(sum.rounded())))
            locations.append(location)
            offsets.append(sum.rounded())
        }
        // Compile them back as the builder would, and compare.
        guard let model = try? MasterModel(locations) else { return nil }
        let back = model.deltas(offsets)
        var got: [[Int]: Int] = [:]
        for k in 1..<back.count {
            let spans = (0..<space.axes.count).map { model.supports[k][$0] ?? ItemVariationStore.AxisSpan(start: 0, peak: 0, end: 0) }
            got[key(spans), default: 0] += Int(back[k])
        }
        return got.filter({ $0.value != 0 }) == expected ? written : nil
    }
}

extension FeatureWriter {
    /// GSUB's or GPOS's FeatureVariations as `conditionset` and `variation` blocks, or nil
    /// with the reason when compiling blocks back could not give the same records: a
    /// substitute that is not the feature's own lookups followed by others (`rvrn`: preceded
    /// by them) or not the same for every record of its tag, conditions a user coordinate
    /// cannot give, two records with equal conditions, or records the compiler would reorder.
    func featureVariationBlocks(
        _ table: String, _ root: StructFields, space: DesignSpace?, lookupName: (Int) -> String?, conditionSetPrefix: String
    ) -> (text: String, conditionSets: String)? {
        guard let space, let variations = root["FeatureVariations"]?.fields else { return nil }
        let features = Self.list(root["FeatureList"]?.fields?["FeatureRecord"]).map { r in
            (
                tag: Tag(UInt32(r.fields?["FeatureTag"]?.int ?? 0)).description,
                lookups: Self.list(r.fields?["Feature"]?.fields?["LookupListIndex"]).map { Int($0.int ?? 0) }
            )
        }
        // Where each feature record is used: (script, language) pairs.
        var uses: [Int: [(script: String, language: String)]] = [:]
        for system in Self.languageSystems(root) {
            for fi in system.features { uses[fi, default: []].append((system.script, system.language)) }
        }

        var conditionSets = "", blocks = ""
        var seenConditions: [[Int]] = []
        var tagsInOrder: [String] = []
        for (k, record) in Self.list(variations["FeatureVariationRecord"]).enumerated() {
            let f = record.fields ?? StructFields()
            // The conditions, as user ranges.
            var lines: [String] = []
            var raw: [Int] = []
            for c in Self.list(f["ConditionSet"]?.fields?["ConditionTable"]) {
                guard case .formatted(1, let ct) = c else { return nil }
                let axis = Int(ct["AxisIndex"]?.int ?? 0)
                guard axis < space.axes.count else { return nil }
                let low = Double(ct["FilterRangeMinValue"]?.int ?? 0) / F2Dot14.scale
                let high = Double(ct["FilterRangeMaxValue"]?.int ?? 0) / F2Dot14.scale
                guard let a = space.userCoordinate(low, axis: axis), let b = space.userCoordinate(high, axis: axis) else { return nil }
                lines.append("    \(space.axes[axis].tag.trimmed) \(a.text) \(b.text);")
                raw += [axis, DesignSpace.quantized(low), DesignSpace.quantized(high)]
            }
            // A record matches (and stops the search) even when it substitutes nothing; the
            // blocks cannot make such a record.
            guard !seenConditions.contains(raw), !Self.list(f["FeatureTableSubstitution"]?.fields?["SubstitutionRecord"]).isEmpty
            else { return nil }
            seenConditions.append(raw)
            let name = raw.isEmpty ? "NULL" : "\(conditionSetPrefix)\(k)"
            if !raw.isEmpty { conditionSets += "conditionset \(name) {\n" + lines.joined(separator: "\n") + "\n} \(name);\n\n" }

            // Per feature tag: the lookups added to its records.
            var added: [String: [Int]] = [:]
            var substituted: [String: Set<Int>] = [:]
            for s in Self.list(f["FeatureTableSubstitution"]?.fields?["SubstitutionRecord"]) {
                let index = Int(s.fields?["FeatureIndex"]?.int ?? 0)
                guard index < features.count else { return nil }
                let (tag, own) = features[index]
                let lookups = Self.list(s.fields?["Feature"]?.fields?["LookupListIndex"]).map { Int($0.int ?? 0) }
                let extra: [Int]
                if tag == "rvrn" {
                    guard lookups.count >= own.count, Array(lookups.suffix(own.count)) == own else { return nil }
                    extra = Array(lookups.dropLast(own.count))
                } else {
                    guard lookups.count >= own.count, Array(lookups.prefix(own.count)) == own else { return nil }
                    extra = Array(lookups.dropFirst(own.count))
                }
                if let other = added[tag], other != extra { return nil }
                added[tag] = extra
                substituted[tag, default: []].insert(index)
            }
            for (tag, extra) in added.sorted(by: { $0.key < $1.key }) {
                // Every used record of the tag is substituted (the compiler substitutes them all).
                let records = Set(features.indices.filter { features[$0].tag == tag && uses[$0] != nil })
                guard records == substituted[tag] else { return nil }
                if !tagsInOrder.contains(tag) { tagsInOrder.append(tag) }
                blocks += "variation \(tag.trimmingSpaces) \(name) {\n"
                let systems = records.sorted().flatMap { uses[$0]! }
                let byScript = Dictionary(grouping: systems, by: \.script)
                for (script, list) in byScript.sorted(by: { ($0.key == "DFLT" ? 0 : 1, $0.key) < ($1.key == "DFLT" ? 0 : 1, $1.key) }) {
                    blocks += "    script \(script.trimmingSpaces);\n"
                    for language in Set(list.map(\.language)).sorted(by: { ($0 == "dflt" ? 0 : 1, $0) < ($1 == "dflt" ? 0 : 1, $1) }) {
                        if language != "dflt" { blocks += "    language \(language.trimmingSpaces) exclude_dflt;\n" }
                        for l in extra { if let n = lookupName(l) { blocks += "    lookup \(n);\n" } }
                    }
                }
                blocks += "} \(tag.trimmingSpaces);\n\n"
            }
        }
        // The compiler orders records by tag (first seen) and then condition set: that must be
        // the records' own order.
        var compiled: [[Int]] = []
        for tag in tagsInOrder {
            for (k, record) in Self.list(variations["FeatureVariationRecord"]).enumerated() {
                let tags = Self.list(record.fields?["FeatureTableSubstitution"]?.fields?["SubstitutionRecord"]).compactMap { s -> String? in
                    let i = Int(s.fields?["FeatureIndex"]?.int ?? 0)
                    return i < features.count ? features[i].tag : nil
                }
                if tags.contains(tag), !compiled.contains(seenConditions[k]) { compiled.append(seenConditions[k]) }
            }
        }
        guard compiled == seenConditions else { return nil }
        return (blocks, conditionSets)
    }
}
