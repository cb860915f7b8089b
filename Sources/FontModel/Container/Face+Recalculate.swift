#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values derived from other tables, recomputed on save when what they derive from was edited.
/// An unedited face changes nothing here.
extension Face {
    /// Recomputes loca format, head bounds, maxp glyph maxima and hhea/vhea metrics as needed.
    /// Returns one line per changed value ("head.xMin -1020 → -1000"). `forRendering` (a preview
    /// of an edited face) skips what needs every CFF glyph's bounds (head's box, hhea's bearing
    /// extremes): no renderer reads them, and running 65,535 charstrings took 0.6 s per edit.
    func recalculateDerived(forRendering: Bool = false) throws -> [String] {
        var changes: [String] = []
        let glyf = slots["glyf"]?.decoded as? GlyfTable
        let cff = slots["CFF "]?.decoded as? CFFTable
        let glyfEdited = glyf?.isEdited ?? false
        let outlinesEdited = glyfEdited || (cff?.outlinesEdited ?? false)
        let hmtxEdited = slots["hmtx"]?.decoded?.isEdited ?? false
        let vmtxEdited = slots["vmtx"]?.decoded?.isEdited ?? false
        // A metrics table written anew (fused from XML: re-encoded even when unchanged) may hold
        // fewer long metrics than it was read with, so its header's count follows it too.
        let hmtxRewritten = hmtxEdited || (slots["hmtx"]?.reencode ?? false)
        let vmtxRewritten = vmtxEdited || (slots["vmtx"]?.reencode ?? false)

        if let glyf, glyfEdited {
            try context("glyf") {
                let head = try self.head, maxp = try self.maxp
                changes += [head.setInt("indexToLocFormat", try glyf.compile().isShortLoca ? 0 : 1)].compactMap { $0 }
                let s = try glyf.statistics()
                if maxp.has("maxPoints") {
                    changes += [
                        maxp.setInt("maxPoints", s.maxPoints), maxp.setInt("maxContours", s.maxContours),
                        maxp.setInt("maxCompositePoints", s.maxCompositePoints),
                        maxp.setInt("maxCompositeContours", s.maxCompositeContours),
                        maxp.setInt("maxComponentElements", s.maxComponentElements),
                        maxp.setInt("maxComponentDepth", s.maxComponentDepth),
                        // Never lowered: hinting programs outside glyf may need the larger value.
                        maxp.setInt("maxSizeOfInstructions", max(maxp.int("maxSizeOfInstructions"), s.maxSizeOfInstructions)),
                    ].compactMap { $0 }
                }
            }
        }
        var bounds: [GlyphBounds?] = []
        if outlinesEdited || hmtxEdited {
            if let glyf = try self.glyf {
                bounds = try context("glyf") { try glyf.allBounds() }
            } else if !forRendering, let cff = try self.cff {
                bounds = try context("CFF ") { try cff.allBounds() }
            } else if !forRendering, let cff2 = try self.cff2 {
                bounds = try context("CFF2") { try cff2.allBounds() }
            }
        }
        if outlinesEdited {
            let head = try self.head
            if let all = bounds.compactMap({ $0 }).reduce(nil, { (u: GlyphBounds?, b) in u?.union(b) ?? b }) {
                changes += [
                    head.setInt("xMin", all.xMin), head.setInt("yMin", all.yMin),
                    head.setInt("xMax", all.xMax), head.setInt("yMax", all.yMax),
                ].compactMap { $0 }
            }
        }
        if outlinesEdited || hmtxEdited, let hmtx = try table(HmtxTable.self) {
            let hhea = try self.hhea
            // Rendering without CFF bounds: leave the bearing extremes, they need every glyph's box.
            let extremes = !(bounds.isEmpty && forRendering)
            var minLSB = Int.max, minRSB = Int.max, maxExtent = Int.min
            // Read once: each read of the table's own arrays is an exclusivity check.
            let advances = hmtx.advances, sideBearings = hmtx.sideBearings, glyphCount = hmtx.glyphCount
            for (id, b) in bounds.enumerated() {
                guard let b, id < glyphCount else { continue }
                let lsb = sideBearings[id], width = b.xMax - b.xMin
                minLSB = min(minLSB, lsb)
                minRSB = min(minRSB, advances[id] - lsb - width)
                maxExtent = max(maxExtent, lsb + width)
            }
            if minLSB == .max { minLSB = 0; minRSB = 0; maxExtent = 0 }
            changes += [hhea.setInt("advanceWidthMax", advances.max() ?? 0)].compactMap { $0 }
            if extremes {
                changes += [
                    hhea.setInt("minLeftSideBearing", minLSB), hhea.setInt("minRightSideBearing", minRSB),
                    hhea.setInt("xMaxExtent", maxExtent),
                ].compactMap { $0 }
            }
        }
        if hmtxRewritten, let hmtx = try table(HmtxTable.self) {
            changes += [try hhea.setInt("numberOfHMetrics", hmtx.longMetricsCount)].compactMap { $0 }
        }
        if vmtxRewritten, let vmtx = try table(VmtxTable.self), let vhea = try self.vhea {
            changes += [vhea.setInt("numOfLongVerMetrics", vmtx.longMetricsCount)].compactMap { $0 }
            if vmtxEdited { changes += [vhea.setInt("advanceHeightMax", vmtx.advances.max() ?? 0)].compactMap { $0 } }
        }
        // The CFF pass read every charstring; let those mapped pages go until the writer needs them
        // (glyf's survey does the same itself).
        if outlinesEdited || hmtxEdited, let cff { bytes.dropPages(cff.data.bytes) }
        return changes
    }
}
