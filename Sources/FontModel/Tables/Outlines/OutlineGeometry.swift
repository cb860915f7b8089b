/// Geometry over a glyph's contours, for checks and scripts that would otherwise walk every
/// point in Lua: each contour's signed area, which contours cross each other, and where a curve
/// reaches a horizontal or vertical extreme without a point there.
///
/// Contours are points as `Face.outlinePoints` gives them: TrueType's quadratic (two off-curve
/// points in a row imply an on-curve point between them) or, with `cubic`, CFF's (two off-curve
/// controls before each on-curve end).
public struct OutlineGeometry {
    public let contours: [[GlyphPoint]]
    public let cubic: Bool

    public init(_ contours: [[GlyphPoint]], cubic: Bool) { self.contours = contours; self.cubic = cubic }

    /// Edge comparisons `crossingContours` makes at most before it gives up (about a second).
    public static let crossingBudget = 200_000_000

    struct Point { var x, y: Double }

    /// A piece of a contour: a line (degree 1), a quadratic (one control, `c1`) or a cubic
    /// (two, `c1` and `c2`).
    struct Segment {
        var degree: Int
        var start: Point, c1: Point, c2: Point, end: Point

        func at(_ t: Double) -> Point {
            let u = 1 - t
            switch degree {
            case 2:
                return Point(x: u * u * start.x + 2 * u * t * c1.x + t * t * end.x, y: u * u * start.y + 2 * u * t * c1.y + t * t * end.y)
            case 3:
                let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                return Point(x: a * start.x + b * c1.x + c * c2.x + d * end.x, y: a * start.y + b * c1.y + c * c2.y + d * end.y)
            default:
                return Point(x: u * start.x + t * end.x, y: u * start.y + t * end.y)
            }
        }

        /// Twice the signed area this piece adds (the integral of x dy − y dx along it), exact
        /// for lines, quadratics and cubics.
        var doubledArea: Double {
            func cross(_ p: Point, _ q: Point) -> Double { p.x * q.y - q.x * p.y }
            switch degree {
            case 2: return (2 * cross(start, c1) + 2 * cross(c1, end) + cross(start, end)) / 3
            case 3:
                return
                    (6 * cross(start, c1) + 3 * cross(start, c2) + cross(start, end) + 3 * cross(c1, c2) + 3 * cross(c1, end)
                    + 6 * cross(c2, end)) / 10
            default: return cross(start, end)
            }
        }
    }

    /// A contour as pieces, starting at its first on-curve point (or, when every point is off
    /// the curve, at the implied point between the first two), closed back to the start.
    func segments(_ contour: [GlyphPoint]) -> [Segment] {
        let n = contour.count
        guard n >= 2 else { return [] }
        func point(_ p: GlyphPoint) -> Point { Point(x: Double(p.x), y: Double(p.y)) }
        func middle(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        var ordered: [(Point, Bool)] = []
        ordered.reserveCapacity(n + 2)
        if let first = contour.firstIndex(where: \.onCurve) {
            for k in 0..<n { let p = contour[(first + k) % n]; ordered.append((point(p), p.onCurve)) }
        } else {
            ordered.append((middle(point(contour[0]), point(contour[1])), true))
            for k in 1..<n { ordered.append((point(contour[k]), false)) }
            ordered.append((point(contour[0]), false))
        }
        ordered.append(ordered[0])
        var out: [Segment] = []
        out.reserveCapacity(n)
        var start = ordered[0].0
        var controls: [Point] = []
        for (p, on) in ordered.dropFirst() {
            if on {
                switch controls.count {
                case 0: out.append(Segment(degree: 1, start: start, c1: start, c2: p, end: p))
                case 1: out.append(Segment(degree: 2, start: start, c1: controls[0], c2: controls[0], end: p))
                case 2 where cubic: out.append(Segment(degree: 3, start: start, c1: controls[0], c2: controls[1], end: p))
                default: out.append(Segment(degree: 1, start: start, c1: start, c2: p, end: p))   // not a curve either format draws
                }
                start = p
                controls.removeAll(keepingCapacity: true)
            } else if !cubic, let previous = controls.last {
                let implied = middle(previous, p)
                out.append(Segment(degree: 2, start: start, c1: previous, c2: previous, end: implied))
                start = implied
                controls = [p]
            } else {
                controls.append(p)
            }
        }
        return out
    }

    /// Each contour's signed area in square font units: positive when it runs
    /// counter-clockwise (y up), negative clockwise. Exact for the curves as drawn.
    public var contourAreas: [Double] {
        contours.map { segments($0).reduce(0) { $0 + $1.doubledArea } / 2 }
    }

    /// The pairs of contours (0-based, lower first, sorted) whose outlines cross: each curve is
    /// cut into `steps` straight pieces, and only a true crossing counts (touching at a point
    /// or running along each other does not). Throws when the glyph needs more than `budget`
    /// edge comparisons.
    public func crossingContours(steps: Int = 3, budget: Int = crossingBudget) throws -> [(Int, Int)] {
        guard contours.count > 1 else { return [] }
        struct Edge { var a, b: Point; var contour: Int; var minX, maxX, minY, maxY: Double }
        var edges: [Edge] = []
        for (index, contour) in contours.enumerated() {
            var previous: Point?
            func add(_ p: Point) {
                if let q = previous, q.x != p.x || q.y != p.y {
                    edges.append(
                        Edge(a: q, b: p, contour: index, minX: min(q.x, p.x), maxX: max(q.x, p.x), minY: min(q.y, p.y), maxY: max(q.y, p.y))
                    )
                }
                previous = p
            }
            for segment in segments(contour) {
                if previous == nil { add(segment.start) }
                if segment.degree > 1 { for k in 1..<max(1, steps) { add(segment.at(Double(k) / Double(steps))) } }
                add(segment.end)
            }
        }
        // A sweep along x: each edge is compared with the edges of other contours still open.
        edges.sort { $0.minX < $1.minX }
        func orient(_ a: Point, _ b: Point, _ c: Point) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
        func crosses(_ p: Edge, _ q: Edge) -> Bool {
            let d1 = orient(q.a, q.b, p.a), d2 = orient(q.a, q.b, p.b)
            let d3 = orient(p.a, p.b, q.a), d4 = orient(p.a, p.b, q.b)
            return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
        }
        var found = Set<Int>()
        var open: [Int] = []
        var comparisons = 0
        let count = contours.count
        for (i, edge) in edges.enumerated() {
            open.removeAll { edges[$0].maxX < edge.minX }
            comparisons += open.count
            if comparisons > budget {
                throw FontError("the glyph's \(edges.count) edges are too many to test for crossings")
            }
            for j in open {
                let other = edges[j]
                guard other.contour != edge.contour, other.minY <= edge.maxY, edge.minY <= other.maxY else { continue }
                let key = min(edge.contour, other.contour) * count + max(edge.contour, other.contour)
                if !found.contains(key), crosses(edge, other) { found.insert(key) }
            }
            open.append(i)
        }
        return found.sorted().map { ($0 / count, $0 % count) }
    }

    /// Where curves reach a horizontal or vertical extreme more than `tolerance` units past
    /// both their ends: the points a designer would add (in contour order, rounded to units).
    public func missingExtrema(tolerance: Double = 1) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        for contour in contours {
            for segment in segments(contour) where segment.degree > 1 {
                for vertical in [false, true] {
                    let value: (Point) -> Double = vertical ? { $0.y } : { $0.x }
                    let low = min(value(segment.start), value(segment.end)), high = max(value(segment.start), value(segment.end))
                    for t in Self.turningTimes(segment, value) {
                        let p = segment.at(t), v = value(p)
                        if v < low - tolerance || v > high + tolerance { out.append((Int(p.x.rounded()), Int(p.y.rounded()))) }
                    }
                }
            }
        }
        return out
    }

    /// The times strictly inside (0, 1) where a curve's coordinate stops rising or falling.
    static func turningTimes(_ s: Segment, _ value: (Point) -> Double) -> [Double] {
        let a = value(s.start), b = value(s.end), c1 = value(s.c1), c2 = value(s.c2)
        var roots: [Double] = []
        if s.degree == 2 {
            let denominator = a - 2 * c1 + b
            if denominator != 0 { roots.append((a - c1) / denominator) }
        } else {
            // The derivative over 3: (d0 − 2d1 + d2)t² + 2(d1 − d0)t + d0, with d the control steps.
            let d0 = c1 - a, d1 = c2 - c1, d2 = b - c2
            let qa = d0 - 2 * d1 + d2, qb = 2 * (d1 - d0), qc = d0
            if qa == 0 {
                if qb != 0 { roots.append(-qc / qb) }
            } else {
                let discriminant = qb * qb - 4 * qa * qc
                if discriminant >= 0 {
                    let root = discriminant.squareRoot()
                    roots.append((-qb + root) / (2 * qa))
                    if root > 0 { roots.append((-qb - root) / (2 * qa)) }
                }
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }
}
