/// Partial instances: some axes pinned, the others left variable (`InstanceOptions.partial`,
/// fontTools' instancer with axes left out). The new default is the full instance at the pinned
/// coordinates with the kept axes at their defaults, which `Face.instance` computes as for a
/// static instance; this file then writes the variation tables back for the kept axes:
///
/// - gvar and cvar: each tuple scaled by its weight on the pinned axes, which it loses; tuples
///   that named only pinned axes are in the new default already; tuples left with the same
///   region merged (`TupleVariation.pinning`). Kept tuples list every point (fontTools then
///   drops the points IUP can infer, which makes its gvar smaller; ours is larger, not different
///   in what it draws).
/// - HVAR, VVAR, MVAR and GDEF's store likewise, region by region
///   (`ItemVariationStore.pinning`); items keep their indexes, so the maps, MVAR's records and
///   GPOS's device tables still point at the right rows.
/// - fvar loses the pinned axes and the named instances that are not at the pinned
///   coordinates; avar (version 1) loses their maps; STAT keeps the values that hold at the
///   pinned coordinates and every value of a kept axis.
///
/// - FeatureVariations: conditions on pinned axes decided, the others renumbered
///   (`FeatureVariationResolver.pin`).
///
/// Refused, with a message: CFF2 outlines and avar version 2.
extension Face {
    /// The partial instance's variation tables, written into `target` (which holds the new
    /// default), but for fvar, whose new bytes are returned (STAT and name pruning need the
    /// old one first). `pins[axis]` is the pinned normalized coordinate, nil for a kept axis.
    func keepVariations(into target: Face, pins: [Double?], location: VariationLocation) throws -> [UInt8] {
        guard let fvar = try table(FvarTable.self) else { throw FontError("the face has no fvar", path: path, face: faceLabel) }
        let kept = pins.indices.filter { pins[$0] == nil }

        if has("gvar") {
            let variator = try GlyphVariator(face: self)
            let count = variator.glyf.glyphCount
            var glyphs: [[TupleVariation]] = []
            glyphs.reserveCapacity(count)
            for id in 0..<count { glyphs.append(try variator.pinnedVariations(id, pins: pins)) }
            target.setRawTable("gvar", try context("gvar") { try GvarTable.build(axisCount: kept.count, glyphs: glyphs) })
        }
        if let cvar = try table(CvarTable.self), let cvt = try target.rawTable("cvt ") {
            let tuples = TupleVariation.pinning(cvar.variations, pins: pins, pointCount: cvt.count / 2, hasY: false, original: nil, ends: [])
            if tuples.isEmpty { target.removeTable("cvar") } else {
                var w = BinaryWriter()
                w.u16(1); w.u16(0)
                w.append(try context("cvar") { try TupleVariation.encodeStore(tuples, sharedPeaks: [:], hasY: false, dataOffsetBase: 4, what: "cvar") })
                target.setRawTable("cvar", w.bytes)
            }
        }
        for tag: Tag in ["HVAR", "VVAR"] {
            guard let raw = try rawTable(tag), raw.count >= 20 else { continue }
            let store = tag == "HVAR" ? try table(HvarTable.self)?.store : try table(VvarTable.self)?.store
            guard let store else { continue }
            // Header: store offset at 4, then the maps' offsets (4 of them in HVAR, 5 in VVAR).
            // The maps (leaf structures) must lie before the store for it to be cut off.
            let mapFields = tag == "HVAR" ? [8, 12, 16] : [8, 12, 16, 20]
            let maps = mapFields.filter { $0 + 4 <= raw.count }.map { at in (0..<4).reduce(0) { $0 << 8 | Int(raw[at + $1]) } }
            let storeAt = (0..<4).reduce(0) { $0 << 8 | Int(raw[4 + $1]) }
            target.setRawTable(tag, try context(tag) {
                try Self.replacingStore(in: raw, offsetAt: 4, wide: true, keepBefore: maps.allSatisfy { $0 < storeAt } ? mapFields.last! + 4 : raw.count,
                                        with: store.pinning(pins).store, axisCount: kept.count)
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
            target.setRawTable("MVAR", try context("MVAR") {
                try Self.replacingStore(in: sorted, offsetAt: 10, wide: false, keepBefore: recordsEnd,
                                        with: store.pinning(pins).store, axisCount: kept.count)
            })
        }

        // fvar: the kept axes, and the named instances at the pinned coordinates.
        let instances = fvar.instances.filter { instance in
            pins.indices.allSatisfy { a in pins[a] == nil || instance.coordinates[a] == location.user[a] }
        }.map { instance in
            var i = instance
            i.coordinates = kept.map { instance.coordinates[$0] }
            return i
        }
        if let avar = try table(AvarTable.self) {
            target.setRawTable("avar", try AvarTable(maps: kept.map { avar.maps[$0] }, majorVersion: 1, version2Tail: []).encode())
        }
        return try FvarTable(axes: kept.map { fvar.axes[$0] }, instances: instances, hasPostScriptNameIDs: fvar.hasPostScriptNameIDs).encode()
    }

    /// What a partial instance cannot do yet, as an error naming it; nil when it can.
    func partialInstanceRefusal() throws -> String? {
        if has("CFF2") { return "partial instancing of CFF2 outlines is not supported yet (pin every axis)" }
        if let avar = try table(AvarTable.self), avar.hasVersion2Mappings {
            return "partial instancing of a font with avar version 2 is not supported yet (pin every axis)"
        }
        return nil
    }

    /// A table whose ItemVariationStore is replaced: the new store goes where the old one
    /// started when the old one starts at or after `keepBefore` (everything else the table
    /// holds lies before it), else at the end (the old bytes stay, unreferenced). `offsetAt`
    /// holds the store's offset (32-bit when `wide`).
    static func replacingStore(in raw: [UInt8], offsetAt: Int, wide: Bool, keepBefore: Int, with store: ItemVariationStore,
                               axisCount: Int) throws -> [UInt8] {
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
