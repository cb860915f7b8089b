import Testing
@testable import FontModel

@Suite struct OutlineGeometryTests {
    /// A cubic circle (four arcs with the usual 0.5523 handles) has about πr² of area, with the
    /// sign of its direction; a CFF square's extremes are its corners.
    @Test func cubicAreasAndExtrema() {
        let r = 1000, k = 552
        func p(_ x: Int, _ y: Int, _ on: Bool = true) -> GlyphPoint { GlyphPoint(x: x, y: y, onCurve: on) }
        let circle = [
            p(r, 0), p(r, k, false), p(k, r, false), p(0, r), p(-k, r, false), p(-r, k, false), p(-r, 0),
            p(-r, -k, false), p(-k, -r, false), p(0, -r), p(k, -r, false), p(r, -k, false),
        ]
        let area = OutlineGeometry([circle], cubic: true).contourAreas[0]
        #expect(abs(area - Double.pi * Double(r * r)) < 0.001 * Double(r * r), "\(area)")
        #expect(OutlineGeometry([circle.reversed()], cubic: true).contourAreas[0] == -area)
        #expect(OutlineGeometry([circle], cubic: true).missingExtrema().isEmpty)
        // Rotated by 45°, the circle's extremes fall inside its arcs: four of them, one per arc.
        let rotated = circle.map {
            p(Int((Double($0.x - $0.y) * 0.7071).rounded()), Int((Double($0.x + $0.y) * 0.7071).rounded()), $0.onCurve)
        }
        let missing = OutlineGeometry([rotated], cubic: true).missingExtrema(tolerance: 1)
        #expect(missing.count == 4, "\(missing)")
        #expect(missing.allSatisfy { abs(Double($0.x * $0.x + $0.y * $0.y).squareRoot() - Double(r)) < 5 }, "\(missing)")
    }

    /// Work is bounded: a glyph whose edges all share one x-range stops at the budget with an
    /// error rather than comparing every pair.
    @Test func crossingsStopAtTheirBudget() throws {
        func zigzag(_ y: Int) -> [GlyphPoint] { (0..<400).map { GlyphPoint(x: $0 % 2 == 0 ? 0 : 1000, y: y + $0, onCurve: true) } }
        let geometry = OutlineGeometry([zigzag(0), zigzag(2000)], cubic: false)
        #expect(throws: FontError.self) { try geometry.crossingContours(budget: 10_000) }
        #expect(try geometry.crossingContours().isEmpty)
    }
}
