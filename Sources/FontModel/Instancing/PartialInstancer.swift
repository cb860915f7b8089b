// Partial instances: some axes pinned, some narrowed to a smaller range, the others left
// variable (`InstanceOptions.partial` and `.ranges`; fontTools' instancer with axes left out or
// given MIN:MAX). The new default is the full instance at the new default location (pinned
// coordinates, narrowed axes at their new default, the rest at theirs), which `Face.instance`
// computes as for a static instance; this file then writes the variation tables back for the
// axes that stay variable:
//
// - gvar and cvar: each tuple is scaled by its weight on the pinned axes, which it loses, and
//   on a narrowed axis becomes the tents that vary the same over the new range
//   (`AxisLimits.rebase`); what is left constant is in the new default already; tuples left
//   with the same region are merged (`TupleVariation.forPartialInstance`); gvar's then leave out
//   the points a reader infers (`IUPOptimizer`), as fontTools' do.
// - HVAR, VVAR, MVAR and GDEF's store the same way, region by region
//   (`ItemVariationStore.forPartialInstance`); items keep their indexes, so the maps, MVAR's records and
//   GPOS's device tables still point at the right rows; the tables are laid out again around
//   the new store.
// - fvar, avar (version 1), STAT and FeatureVariations (`FeatureVariationResolver.forPartialInstance`) lose
//   the pinned axes and what only they used, and are rescaled for the narrowed ones.
//
// - CFF2: glyphs at the new default with the deltas that still vary in blends, against a new
//   store laid out by the same plan (`CFF2Table.partiallyInstanced`, CFF2PartialInstance.swift).
//
// Refused, with a message: avar version 2.

/// How a partial instance treats each axis, in normalized coordinates (avar applied).
struct AxisLimits: Sendable {
    typealias Span = ItemVariationStore.AxisSpan
    /// A narrowed axis in user values: its new minimum, default and maximum.
    typealias UserRange = (min: Double, origin: Double, max: Double)
    /// The pinned coordinate of each axis; nil for an axis that stays variable.
    var pins: [Double?]
    /// A kept axis's new range in the old normalized space: lower ≤ origin ≤ upper, the origin
    /// being the new default (0 unless the range leaves the old default out, when it is the
    /// range's end nearest to it); nil keeps the whole range.
    var ranges: [(lower: Double, origin: Double, upper: Double)?]

    var kept: [Int] { pins.indices.filter { pins[$0] == nil } }
    /// The new default, in the old normalized space.
    var location: [Double] { pins.indices.map { pins[$0] ?? ranges[$0]?.origin ?? 0 } }

    /// A coordinate of a kept axis in its new normalized space (the new range's ends are ±1,
    /// its origin 0).
    func rebased(_ x: Double, axis: Int) -> Double {
        guard let r = ranges[axis] else { return x }
        if x > r.origin { return r.upper > r.origin ? min((x - r.origin) / (r.upper - r.origin), 1) : 1 }
        if x < r.origin { return r.lower < r.origin ? max((x - r.origin) / (r.origin - r.lower), -1) : -1 }
        return 0
    }

    /// A tent (any span) at a coordinate of the old normalized space.
    static func value(_ s: Span, at x: Double) -> Double { ItemVariationStore.scalar([s], at: [x]) }

    /// A kept axis's tent in its new normalized space: (scalar, span) pairs whose weighted sum
    /// equals the old tent at every coordinate of the new range (the default stays, so the
    /// tent is still 0 there). A tent cut by the range's end becomes one that peaks there at
    /// the value the old tent had, plus the part before its old peak.
    func rebase(_ s: Span, axis: Int) -> [(Double, Span)] {
        guard let r = ranges[axis], s.peak != 0 else { return [(1, s)] }
        if r.origin != 0 { return rebaseAroundNewDefault(s, r) }
        let flip = s.peak < 0
        // Work on the positive side: mirror a negative tent.
        let (l, p, u) = flip ? (-s.end, -s.peak, -s.start) : (s.start, s.peak, s.end)
        let limit = flip ? -r.lower : r.upper
        guard limit > 0, l < limit else { return [] }   // the tent starts past the range
        if limit >= 1 { return [(1, s)] }
        var parts: [(Double, Span)] = []
        if p <= limit {
            if u <= limit {
                parts = [(1, Span(start: l / limit, peak: p / limit, end: u / limit))]
            } else {
                parts = [(1, Span(start: l / limit, peak: p / limit, end: 1))]
                let atEnd = (u - limit) / (u - p)
                if atEnd != 0 && p < limit { parts.append((atEnd, Span(start: p / limit, peak: 1, end: 1))) }
            }
        } else {
            parts = [((limit - l) / (p - l), Span(start: l / limit, peak: 1, end: 1))]
        }
        return flip ? parts.map { ($0.0, Span(start: -$0.1.end, peak: -$0.1.peak, end: -$0.1.start)) } : parts
    }

    /// The same when the default moves (to `r.origin`): the tent's value there becomes a
    /// constant part (a zero span, for the new default or for the other axes' tuples), and what
    /// is left, 0 at the new default and linear between the images of the tent's corners, is a
    /// sum of hat-shaped tents peaking at those images and at the range's ends.
    private func rebaseAroundNewDefault(_ s: Span, _ r: (lower: Double, origin: Double, upper: Double)) -> [(Double, Span)] {
        let atOrigin = Self.value(s, at: r.origin)
        var parts: [(Double, Span)] = atOrigin == 0 ? [] : [(atOrigin, Span(start: 0, peak: 0, end: 0))]
        for side in [1.0, -1.0] {
            let length = side > 0 ? r.upper - r.origin : r.origin - r.lower
            guard length > 0 else { continue }
            // Where the tent bends, in the new space (on this side, inside it), and the end.
            var bends = [s.start, s.peak, s.end].map { ($0 - r.origin) / length * side }.filter { $0 > 0 && $0 < 1 }
            bends = Array(Set(bends)).sorted() + [1]
            for (k, b) in bends.enumerated() {
                let old = r.origin + side * b * length
                let height = Self.value(s, at: old) - atOrigin
                guard height != 0 else { continue }
                let before = k == 0 ? 0 : bends[k - 1], after = k + 1 < bends.count ? bends[k + 1] : 1
                let hat = side > 0 ? Span(start: before, peak: b, end: after) : Span(start: -after, peak: -b, end: -before)
                parts.append((height, hat))
            }
        }
        return parts
    }

    /// A region's share of the partial instance: its weight on the pinned axes, and the kept
    /// axes' spans it becomes, each with its scalar (more than one when a range cuts a tent).
    func split(_ spans: [Span]) -> (weight: Double, parts: [(scalar: Double, spans: [Span])]) {
        var pinnedPart = spans
        for a in kept where a < pinnedPart.count { pinnedPart[a] = Span(start: 0, peak: 0, end: 0) }
        let weight = ItemVariationStore.scalar(pinnedPart, at: location)
        guard weight != 0 else { return (0, []) }
        var parts: [(scalar: Double, spans: [Span])] = [(1, [])]
        for a in kept {
            let span = a < spans.count ? spans[a] : Span(start: 0, peak: 0, end: 0)
            let options = rebase(span, axis: a)
            parts = parts.flatMap { part in options.map { (part.scalar * $0.0, part.spans + [$0.1]) } }
        }
        return (weight, parts)
    }
}

extension Face {
    /// The partial instance's variation tables, written into `target` (which holds the new
    /// default), but for fvar, whose new bytes are returned (STAT and name pruning need the
    /// old one first). `userRanges` are the narrowed axes' new user ranges.
    func keepVariations(
        into target: Face, limits: AxisLimits, location: VariationLocation,
        userRanges: [Int: AxisLimits.UserRange], optimizeDeltas: Bool
    ) throws -> [UInt8] {
        guard let fvar = try table(FvarTable.self) else { throw FontError("the face has no fvar", path: path, face: faceLabel) }
        let kept = limits.kept, pins = limits.pins

        if has("gvar") {
            let variator = try GlyphVariator(face: self)
            let count = variator.glyf.glyphCount
            let newDefault = optimizeDeltas ? try GlyphVariator(face: target, variations: false) : nil
            // Glyphs are independent: on every core (the variators only read decoded tables).
            let glyphs = try ParallelWork.map(count) { ids in
                var optimizer = IUPOptimizer()
                return try ids.map { try variator.partialVariations($0, limits: limits, newDefault: newDefault, optimizer: &optimizer) }
            }
            target.setRawTable("gvar", try context("gvar") { try GvarTable.build(axisCount: kept.count, glyphs: glyphs) })
        }
        if let cff2 = try table(CFF2Table.self) {
            target.setRawTable("CFF2", try context("CFF2") { try cff2.partiallyInstanced(limits, axisCount: kept.count) })
        }
        if let cvar = try table(CvarTable.self), let cvt = try target.rawTable("cvt ") {
            let tuples = TupleVariation.forPartialInstance(
                cvar.variations, limits: limits, pointCount: cvt.count / 2, hasY: false, original: nil, ends: [])
            if tuples.isEmpty {
                target.removeTable("cvar")
            } else {
                var w = BinaryWriter()
                w.u16(1); w.u16(0)
                w.append(
                    try context("cvar") {
                        try TupleVariation.encodeStore(tuples, sharedPeaks: [:], hasY: false, dataOffsetBase: 4, what: "cvar")
                    })
                target.setRawTable("cvar", w.bytes)
            }
        }
        for tag: Tag in ["HVAR", "VVAR"] {
            // Header: version, the store's offset at 4, then the maps' offsets (3 in HVAR, 4 in VVAR).
            let mapFields = tag == "HVAR" ? [8, 12, 16] : [8, 12, 16, 20]
            guard let raw = try rawTable(tag), raw.count >= 8 + 4 * mapFields.count else { continue }
            let store = tag == "HVAR" ? try table(HvarTable.self)?.store : try table(VvarTable.self)?.store
            guard let store else { continue }
            target.setRawTable(
                tag,
                try context(tag) {
                    try Self.metricsVariations(
                        raw, mapFields: mapFields, with: store.forPartialInstance(limits).store, axisCount: kept.count)
                })
        }
        if let mvar = try table(MvarTable.self), let store = mvar.store, let raw = try rawTable("MVAR") {
            // The records end where the store may begin; nothing else follows them. They are
            // sorted by tag on the way, as the spec asks (some fonts have them out of order).
            let recordSize = Int(raw[6]) << 8 | Int(raw[7])
            let recordsEnd = 12 + mvar.records.count * recordSize
            var sorted = raw
            if recordsEnd <= raw.count {
                let records = (0..<mvar.records.count).map { Array(raw[(12 + $0 * recordSize)..<(12 + ($0 + 1) * recordSize)]) }
                sorted.replaceSubrange(12..<recordsEnd, with: records.sorted { $0[0..<4].lexicographicallyPrecedes($1[0..<4]) }.joined())
            }
            target.setRawTable(
                "MVAR",
                try context("MVAR") {
                    try Self.replacingStore(
                        in: sorted, offsetAt: 10, wide: false, keepBefore: recordsEnd,
                        with: store.forPartialInstance(limits).store, axisCount: kept.count)
                })
        }

        // fvar: the kept axes (narrowed ones with their new range), and the named instances at
        // the pinned coordinates and inside the new ranges.
        let instances = fvar.instances.filter { instance in
            pins.indices.allSatisfy { a in
                if pins[a] != nil { return instance.coordinates[a] == location.user[a] }
                guard let r = userRanges[a] else { return true }
                return r.min <= instance.coordinates[a] && instance.coordinates[a] <= r.max
            }
        }.map { instance in
            var i = instance
            i.coordinates = kept.map { instance.coordinates[$0] }
            return i
        }
        if let avar = try table(AvarTable.self) {
            let maps = kept.map { a -> AvarTable.SegmentMap in
                guard let r = userRanges[a] else { return avar.maps[a] }
                return Self.narrowedMap(avar.maps[a], axis: fvar.axes[a], to: r, limits: limits, index: a)
            }
            target.setRawTable("avar", try AvarTable(maps: maps, majorVersion: 1, version2Tail: []).encode())
        }
        let axes = kept.map { a -> FvarTable.Axis in
            var axis = fvar.axes[a]
            if let r = userRanges[a] { axis.minimum = r.min; axis.defaultValue = r.origin; axis.maximum = r.max }
            return axis
        }
        return try FvarTable(axes: axes, instances: instances, hasPostScriptNameIDs: fvar.hasPostScriptNameIDs).encode()
    }

    /// A narrowed axis's avar map in the new spaces: in both, the new range's ends are ±1 and
    /// its default 0, so a pair (from, to) inside the range is rescaled on each side, and
    /// (-1, -1), (0, 0), (1, 1) frame it. Each side of the new range lies on one side of the old
    /// default (a moved default sits at an end), so the user scale stays linear and the
    /// rescaled pairs draw the old map exactly.
    static func narrowedMap(
        _ map: AvarTable.SegmentMap, axis: FvarTable.Axis, to r: AxisLimits.UserRange,
        limits: AxisLimits, index: Int
    ) -> AvarTable.SegmentMap {
        guard !map.isEmpty else { return map }
        // In F2Dot14, as the map's own pairs are, so a pair at the range's end is not kept twice.
        let (low, origin, high) = (
            quantized(normalize(r.min, axis)), quantized(normalize(r.origin, axis)), quantized(normalize(r.max, axis))
        )
        var out: AvarTable.SegmentMap = [(-1, -1)]
        for (from, to) in map where from > low && from < high && from != origin {
            let f = from > origin ? (from - origin) / (high - origin) : (from - origin) / (origin - low)
            out.append((f, limits.rebased(to, axis: index)))
        }
        if !out.contains(where: { $0.from == 0 }) { out.append((0, 0)); out.sort { $0.from < $1.from } }
        out.append((1, 1))
        return out
    }

    static func quantized(_ v: Double) -> Double { (v * F2Dot14.scale).rounded() / F2Dot14.scale }

    /// What a partial instance does with each axis (nil: a full instance), and the narrowed
    /// axes' new user ranges by axis index. Axes given a coordinate are pinned; axes given a
    /// range are narrowed; the others are kept whole with `partial`, else pinned at their
    /// default.
    func axisLimits(_ options: InstanceOptions, _ location: VariationLocation) throws
        -> (AxisLimits?, [Int: AxisLimits.UserRange])
    {
        let tags = location.tags.map(\.trimmed)
        for key in options.ranges.keys where !tags.contains(key) {
            throw FontError(
                "no axis '\(key)' in this font (axes: \(tags.joined(separator: ", ")))", path: path, face: faceLabel, table: "fvar")
        }
        for key in options.ranges.keys where options.coordinates[key] != nil {
            throw FontError("axis '\(key)' is given both a value and a range", path: path, face: faceLabel)
        }
        guard options.partial || !options.ranges.isEmpty else { return (nil, [:]) }
        let given = tags.map { options.coordinates[$0] != nil }
        guard given.contains(true) || !options.ranges.isEmpty else {
            throw FontError(
                "a partial instance needs at least one axis to pin or narrow (axes: \(tags.joined(separator: ", ")))",
                path: path, face: faceLabel)
        }
        // Without --partial, axes given nothing are pinned at their default.
        let pinned = tags.map { options.coordinates[$0] != nil || (!options.partial && options.ranges[$0] == nil) }
        guard pinned.contains(false) else { return (nil, [:]) }
        if let refusal = try partialInstanceRefusal() { throw FontError(refusal, path: path, face: faceLabel) }
        let axes = try variationAxes
        var ranges: [(lower: Double, origin: Double, upper: Double)?] = Array(repeating: nil, count: tags.count)
        var userRanges: [Int: AxisLimits.UserRange] = [:]
        for (a, tag) in tags.enumerated() {
            guard let r = options.ranges[tag] else { continue }
            let axis = axes[a]
            let low = max(r.lowerBound, axis.minimum), high = min(r.upperBound, axis.maximum)
            guard low <= high else {
                throw FontError(
                    "axis '\(tag)': the range \(Self.short(r.lowerBound))…\(Self.short(r.upperBound)) lies outside \(Self.short(axis.minimum))…\(Self.short(axis.maximum))",
                    path: path, face: faceLabel)
            }
            if low == axis.minimum && high == axis.maximum { continue }
            // A range that leaves the default out moves it to the range's nearest end, as
            // fontTools does.
            let origin = min(max(axis.defaultValue, low), high)
            ranges[a] = (
                try self.location([tag: low]).normalized[a], try self.location([tag: origin]).normalized[a],
                try self.location([tag: high]).normalized[a]
            )
            userRanges[a] = (low, origin, high)
        }
        let pins = zip(pinned, location.normalized).map { $0 ? $1 : nil }
        return (AxisLimits(pins: pins, ranges: ranges), userRanges)
    }

    /// What a partial instance cannot do yet, as an error naming it; nil when it can.
    func partialInstanceRefusal() throws -> String? {
        if let avar = try table(AvarTable.self), avar.hasVersion2Mappings {
            return "partial instancing of a font with avar version 2 is not supported yet (pin every axis)"
        }
        return nil
    }

    /// GDEF with each ligature caret that varies (format 3, a VariationIndex device) moved by
    /// its delta at the new default; the devices stay. Everything else byte for byte.
    static func foldingCarets(_ raw: [UInt8], delta: (Int, Int) -> Int) throws -> [UInt8] {
        var out = raw
        func u16(_ at: Int) throws -> Int {
            guard at >= 0, at + 2 <= raw.count else {
                throw FontError("GDEF data at \(at) runs past the table's \(raw.count) bytes", table: "GDEF", offset: at)
            }
            return Int(raw[at]) << 8 | Int(raw[at + 1])
        }
        let list = try u16(8)
        guard list != 0 else { return out }
        var seen = Set<Int>()
        for g in 0..<(try u16(list + 2)) {
            let glyph = list + (try u16(list + 4 + 2 * g))
            for c in 0..<(try u16(glyph)) {
                let caret = glyph + (try u16(glyph + 2 + 2 * c))
                guard seen.insert(caret).inserted, try u16(caret) == 3 else { continue }
                let device = try u16(caret + 4)
                guard device != 0, try u16(caret + device + 4) == 0x8000 else { continue }
                let d = delta(try u16(caret + device), try u16(caret + device + 2))
                let old = try u16(caret + 2)
                let new = (old >= 0x8000 ? old - 0x10000 : old) + d
                guard (-32768...32767).contains(new) else {
                    throw FontError("a ligature caret becomes \(new), past Int16", table: "GDEF", offset: caret)
                }
                let bits = UInt16(bitPattern: Int16(new))
                out[caret + 2] = UInt8(bits >> 8); out[caret + 3] = UInt8(bits & 0xFF)
            }
        }
        return out
    }

    /// HVAR or VVAR around a new ItemVariationStore: the header, the store, then each delta-set
    /// index map (at the header's `mapFields`) copied whole, so nothing of the old store is
    /// left behind wherever it was.
    static func metricsVariations(_ raw: [UInt8], mapFields: [Int], with store: ItemVariationStore, axisCount: Int) throws -> [UInt8] {
        let headerSize = 8 + 4 * mapFields.count
        guard raw.count >= headerSize else { throw FontError("the header needs \(headerSize) bytes; the table has \(raw.count)") }
        var out = Array(raw[0..<4]) + [UInt8](repeating: 0, count: headerSize - 4)
        func setOffset(_ field: Int, _ value: Int) {
            for k in 0..<4 { out[field + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
        }
        setOffset(4, headerSize)
        out += try store.encode(axisCount: axisCount)
        // Each map's place and length (DeltaSetIndexMap: format 0 has a 16-bit count, format 1 a 32-bit one).
        let maps: [(field: Int, at: Int, length: Int)] = try raw.withUnsafeBytes { bytes in
            let r = BinaryReader(bytes)
            return try mapFields.compactMap { field in
                let at = Int(try r.u32(at: field))
                guard at != 0 else { return nil }
                let format = Int(try r.u16(at: at) >> 8), entrySize = Int((try r.u16(at: at) & 0xFF) >> 4 & 3) + 1
                guard format <= 1 else { throw r.error("a delta-set index map of format \(format) (0 and 1 are defined)", at: at) }
                let count = format == 0 ? Int(try r.u16(at: at + 2)) : Int(try r.u32(at: at + 2))
                let length = (format == 0 ? 4 : 6) + count * entrySize
                guard at + length <= raw.count else {
                    throw r.error("a delta-set index map of \(length) bytes runs past the table's \(raw.count) bytes", at: at)
                }
                return (field, at, length)
            }
        }
        for map in maps {
            while out.count % 2 != 0 { out.append(0) }
            setOffset(map.field, out.count)
            out += raw[map.at..<(map.at + map.length)]
        }
        return out
    }

    /// GDEF around a new ItemVariationStore: everything else decoded and laid out again (read
    /// as version 1.2, which has no store), then the version 1.3 header pointing at the store
    /// after it, so nothing of the old store is left behind.
    static func layoutDefinitions(_ raw: [UInt8], with store: ItemVariationStore, axisCount: Int) throws -> [UInt8] {
        guard raw.count >= 18 else { throw FontError("GDEF version 1.3 needs 18 bytes of header; it has \(raw.count)") }
        var withoutStore = raw
        withoutStore.replaceSubrange(0..<4, with: [0, 1, 0, 2])
        let value = try withoutStore.withUnsafeBytes { try StructureCodec.decode(BinaryReader($0), GDEFTable.shape, name: "GDEF") }
        let body = try StructureCodec.encode(value, GDEFTable.shape, name: "GDEF")
        guard body.count >= 14 else { throw FontError("GDEF version 1.2 was written with \(body.count) bytes") }
        // Version 1.3's header is 4 bytes longer (the store's offset): the five subtable
        // offsets before it move by 4.
        var out: [UInt8] = [0, 1, 0, 3]
        for k in 0..<5 {
            let offset = Int(body[4 + 2 * k]) << 8 | Int(body[5 + 2 * k])
            let moved = offset == 0 ? 0 : offset + 4
            guard moved <= 0xFFFF else { throw FontError("GDEF's subtables move past a 16-bit offset with the store's offset added") }
            out += [UInt8(moved >> 8), UInt8(moved & 0xFF)]
        }
        out += [0, 0, 0, 0]
        out += body[14...]
        while out.count % 4 != 0 { out.append(0) }
        let at = out.count
        for k in 0..<4 { out[14 + k] = UInt8(truncatingIfNeeded: at >> (24 - 8 * k)) }
        out += try store.encode(axisCount: axisCount)
        return out
    }

    /// A table whose ItemVariationStore is replaced: the new store goes where the old one
    /// started when the old one starts at or after `keepBefore` (everything else the table
    /// holds lies before it), else at the end (the old bytes stay, unreferenced). `offsetAt`
    /// holds the store's offset (32-bit when `wide`).
    static func replacingStore(
        in raw: [UInt8], offsetAt: Int, wide: Bool, keepBefore: Int, with store: ItemVariationStore,
        axisCount: Int
    ) throws -> [UInt8] {
        let old = (0..<(wide ? 4 : 2)).reduce(0) { $0 << 8 | Int(raw[offsetAt + $1]) }
        var out = raw
        if old >= keepBefore, old <= raw.count { out = Array(raw[0..<old]) }
        while out.count % 4 != 0 { out.append(0) }
        let at = out.count
        guard wide || at <= 0xFFFF else { throw FontError("the new ItemVariationStore would start past a 16-bit offset") }
        for k in 0..<(wide ? 4 : 2) { out[offsetAt + k] = UInt8(truncatingIfNeeded: at >> (8 * ((wide ? 3 : 1) - k))) }
        out += try store.encode(axisCount: axisCount)
        return out
    }
}
