/// TrueType glyphs at a location: gvar's tuple deltas, scaled by each tuple's weight there,
/// untouched points inferred (IUP), added to the default outline and its four phantom points
/// (left and right side, top and bottom), then rounded as fontTools rounds.
public struct VariedGlyph: Sendable {
    /// The outline at the location: points moved, component offsets moved; bounds as stored
    /// (recomputed when encoded).
    public var glyph: TrueTypeGlyph
    /// Phantom points after the deltas, unrounded: left x, right x, top y, bottom y.
    public var left: Double, right: Double, top: Double, bottom: Double

    public var advance: Int { max(0, (right - left).otRoundedInt) }
    public var verticalAdvance: Int { max(0, (top - bottom).otRoundedInt) }
}

/// What reading glyphs at a location needs once per face, not once per glyph.
public final class GlyphVariator {
    let glyf: GlyfTable
    let gvar: GvarTable?
    let peaks: [[Double]]
    let hmtx: HmtxTable
    let vmtx: VmtxTable?
    let face: Face

    public init(face: Face) throws {
        guard let glyf = try face.glyf else {
            throw FontError("the face has no 'glyf' table: only TrueType outlines vary through gvar (CFF2 is not instanced yet)",
                            path: face.path, face: face.faceLabel)
        }
        self.face = face
        self.glyf = glyf
        gvar = try face.gvar
        peaks = gvar?.peakTuples ?? []
        hmtx = try face.hmtx
        vmtx = try face.vmtx
    }

    /// Glyph `id` at a normalized location.
    public func glyph(_ id: Int, at location: [Double]) throws -> VariedGlyph {
        let original = try glyf.glyph(id)
        var coordinates: [(x: Int, y: Int)] = []
        var ends: [Int] = []
        if original.isComposite {
            for (i, c) in original.components.enumerated() {
                let xy = c.flags & GlyphComponent.argsAreXYValues != 0
                coordinates.append(xy ? (c.arg1, c.arg2) : (0, 0))
                ends.append(i)
            }
        } else {
            for contour in original.contours {
                for p in contour { coordinates.append((p.x, p.y)) }
                ends.append(coordinates.count - 1)
            }
        }
        let bounds = original.bounds ?? GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0)
        let leftX = bounds.xMin - (try hmtx.sideBearing(id))
        let rightX = leftX + (try hmtx.advance(id))
        var topY = 0, bottomY = 0
        if let vmtx, id < vmtx.glyphCount {
            topY = (try vmtx.sideBearing(id)) + bounds.yMax
            bottomY = topY - (try vmtx.advance(id))
        }
        let outlineCount = coordinates.count
        coordinates += [(leftX, 0), (rightX, 0), (0, topY), (0, bottomY)]
        for k in 0..<4 { ends.append(outlineCount + k) }

        var dx = [Double](repeating: 0, count: coordinates.count), dy = dx
        if let gvar, !location.allSatisfy({ $0 == 0 }) {
            let tuples = try face.context("gvar") { try gvar.variations(glyph: id, pointCount: coordinates.count, sharedPeaks: peaks) }
            for t in tuples {
                let s = t.scalar(at: location)
                if s == 0 { continue }
                if let points = t.points {
                    let sx = t.x.map { Double($0) * s }, sy = t.y.map { Double($0) * s }
                    let inferred = UntouchedPoints.infer(points: points, x: sx, y: sy, original: coordinates, ends: ends)
                    for i in 0..<dx.count { dx[i] += inferred.x[i]; dy[i] += inferred.y[i] }
                } else {
                    for i in 0..<min(dx.count, t.x.count) { dx[i] += Double(t.x[i]) * s; dy[i] += Double(t.y[i]) * s }
                }
            }
        }
        var glyph = original
        if original.isComposite {
            for i in glyph.components.indices where glyph.components[i].flags & GlyphComponent.argsAreXYValues != 0 {
                glyph.components[i].arg1 = (Double(coordinates[i].x) + dx[i]).otRoundedInt
                glyph.components[i].arg2 = (Double(coordinates[i].y) + dy[i]).otRoundedInt
            }
        } else {
            var k = 0
            for c in glyph.contours.indices {
                for p in glyph.contours[c].indices {
                    glyph.contours[c][p].x = (Double(coordinates[k].x) + dx[k]).otRoundedInt
                    glyph.contours[c][p].y = (Double(coordinates[k].y) + dy[k]).otRoundedInt
                    k += 1
                }
            }
        }
        let n = outlineCount
        return VariedGlyph(glyph: glyph,
                           left: Double(leftX) + dx[n], right: Double(rightX) + dx[n + 1],
                           top: Double(topY) + dy[n + 2], bottom: Double(bottomY) + dy[n + 3])
    }
}
