import FontModel
import LuaBridge

/// A glyph's outline geometry, worked out in Swift (`OutlineGeometry`) so that outline checks
/// stay short Lua files without walking every point in Lua: `g:contourAreas()`,
/// `g:overlaps()`, `g:missingExtrema(tolerance)`. A composite glyph has no contours of its own,
/// so each gives an empty list for it.
enum OutlineMethods {
    /// g:contourAreas() → each contour's signed area in square units (positive
    /// counter-clockwise, y up), exact for the curves.
    static let contourAreas: LuaFunction = { L in
        LuaCall.run(L, "contourAreas") { call in
            let (face, id) = try VariationMethods.glyph(call)
            let areas = try face.outlineGeometry(id).contourAreas
            let s = call.stack
            s.pushTable(arrayCount: Int32(areas.count))
            for (i, area) in areas.enumerated() { s.push(area); s.setIndex(i + 1, in: -2) }
            return 1
        }
    }

    /// g:overlaps() → {{1, 3}, …}: the pairs of contours (numbered from 1) whose outlines cross.
    static let overlaps: LuaFunction = { L in
        LuaCall.run(L, "overlaps") { call in
            let (face, id) = try VariationMethods.glyph(call)
            let pairs = try face.outlineGeometry(id).crossingContours()
            let s = call.stack
            s.pushTable(arrayCount: Int32(pairs.count))
            for (i, pair) in pairs.enumerated() {
                s.pushTable(arrayCount: 2)
                s.push(pair.0 + 1); s.setIndex(1, in: -2)
                s.push(pair.1 + 1); s.setIndex(2, in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    /// g:missingExtrema([tolerance = 1]) → {{x=, y=}, …}: where a curve reaches a horizontal or
    /// vertical extreme more than `tolerance` units past both its ends, with no point there.
    static let missingExtrema: LuaFunction = { L in
        LuaCall.run(L, "missingExtrema") { call in
            let (face, id) = try VariationMethods.glyph(call)
            let tolerance = call.isNoneOrNil(2) ? 1 : try call.number(2)
            guard tolerance.isFinite, tolerance >= 0 else { throw LuaArgumentError(2, "tolerance must be a number ≥ 0") }
            let points = try face.outlineGeometry(id).missingExtrema(tolerance: tolerance)
            let s = call.stack
            s.pushTable(arrayCount: Int32(points.count))
            for (i, p) in points.enumerated() {
                s.pushTable(fieldCount: 2)
                s.push(p.x); s.setField("x", in: -2)
                s.push(p.y); s.setField("y", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }
}
