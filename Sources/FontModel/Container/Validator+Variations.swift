/// The `variation-consistency` check: a variable font's tables describe the same glyphs. An
/// outline edited without its gvar, or a gvar edited without HVAR, leaves text that shapes or
/// draws differently away from the default location, and no single table looks wrong.
extension Validator {
    /// The locations compared: each axis alone at its minimum and maximum, and the first shared
    /// peaks of gvar (where most masters sit), at most 12 in all.
    static func masterLocations(axisCount: Int, gvar: GvarTable?) -> [[Double]] {
        var locations: [[Double]] = []
        for a in 0..<axisCount {
            for v in [-1.0, 1.0] {
                var l = [Double](repeating: 0, count: axisCount)
                l[a] = v
                locations.append(l)
            }
        }
        for peak in gvar?.peakTuples ?? [] where !locations.contains(peak) { locations.append(peak) }
        return Array(locations.prefix(12))
    }

    /// Findings for one face (none for a static font).
    static func variationProblems(_ face: Face) throws -> [(severity: Finding.Severity, message: String)] {
        guard let fvar = try face.table(FvarTable.self) else { return [] }
        var out: [(Finding.Severity, String)] = []
        let names = try face.glyphNames()
        func listed(_ ids: [Int]) -> String {
            ids.prefix(5).map { $0 < names.count ? names[$0] : "glyph \($0)" }.joined(separator: ", ") + (ids.count > 5 ? " …" : "")
        }
        let gvar = try face.gvar, glyf = try face.glyf

        // gvar's deltas fit each glyph's points (its contours' points, or one per component,
        // and the four phantom points).
        var misfits: [Int] = []
        if let gvar, let glyf {
            for id in 0..<min(gvar.glyphCount, glyf.glyphCount) where try !gvar.glyphData(id).isEmpty {
                do { _ = try gvar.variations(glyph: id, pointCount: try face.gvarPointCount(id), exact: true) } catch { misfits.append(id) }
            }
            if !misfits.isEmpty {
                out.append(
                    (
                        .warning,
                        "gvar's deltas do not fit the outlines of \(misfits.count) glyphs (\(listed(misfits))): an outline changed without its variations"
                    ))
            }
        }

        // HVAR/VVAR say what gvar's phantom points say at the masters: each glyph is varied
        // once per location, and both tables compared with it.
        let locations = masterLocations(axisCount: fvar.axes.count, gvar: gvar)
        if let gvar, let glyf, !locations.isEmpty {
            let hmtx = try face.hmtx, vmtx = try face.vmtx
            let hvar: MetricsVariationsTable? = try face.table(HvarTable.self),
                vvar: MetricsVariationsTable? = vmtx == nil ? nil : try face.table(VvarTable.self)
            let tables = [("HVAR", hvar), ("VVAR", vvar)].compactMap { tag, table in
                table.map { (tag: tag, table: $0, scalars: locations.map($0.store.scalars(at:))) }
            }
            var stale = [[Int]](repeating: [], count: tables.count)
            let misfit = Set(misfits)   // said above; their phantom points cannot be found
            let variator = try GlyphVariator(face: face)
            for id in 0..<min(gvar.glyphCount, try face.glyphCount) where !tables.isEmpty && !misfit.contains(id) {
                let original = try glyf.glyph(id)
                let varied = try locations.map { try variator.glyph(id, original: original, at: $0) }
                for (t, entry) in tables.enumerated() {
                    let horizontal = entry.tag == "HVAR"
                    let base = horizontal ? try hmtx.advance(id) : try vmtx?.advance(id) ?? 0
                    let disagrees = varied.indices.contains { k in
                        let fromGvar = horizontal ? varied[k].advance : varied[k].verticalAdvance
                        return abs(fromGvar - max(0, base + entry.table.advanceDelta(id, scalars: entry.scalars[k]).otRoundedInt)) > 1
                    }
                    if disagrees { stale[t].append(id) }
                }
            }
            for (t, entry) in tables.enumerated() where !stale[t].isEmpty {
                out.append(
                    (
                        .warning,
                        "\(entry.tag) disagrees with gvar's phantom points on the advances of \(stale[t].count) glyphs (\(listed(stale[t]))): one was edited without the other"
                    ))
            }
        }

        // MVAR's values name items its store has.
        if let mvar = try face.table(MvarTable.self) {
            let missing = mvar.records.filter { r in
                guard let store = mvar.store, r.outer < store.data.count else { return true }
                return r.inner >= store.data[r.outer].itemCount
            }
            if !missing.isEmpty {
                out.append(
                    (
                        .warning,
                        "MVAR's \(missing.map(\.tag.description).joined(separator: ", ")) name variation items its store does not have"
                    ))
            }
        }

        // CFF2 charstrings blend as many values as their variation data has regions.
        if let cff2 = try face.cff2 {
            var failures: [String] = []
            for id in 0..<cff2.glyphCount {
                do { _ = try cff2.outline(id, at: locations.first ?? []) } catch { failures.append(listed([id]) + ": \(error)") }
            }
            if let first = failures.first { out.append((.error, "\(failures.count) CFF2 charstrings do not run, e.g. \(first)")) }
        }
        return out
    }
}
