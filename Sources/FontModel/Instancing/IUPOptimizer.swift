/// Which points of a gvar tuple can be left out because a reader infers their deltas (IUP)
/// from the points kept around them, within a tolerance: what makes a partial instance's gvar
/// as small as fontTools' (its `iup_delta_optimize`, tolerance 0.5 by default).
///
/// Per contour: all deltas zero keeps nothing; all equal keeps one point (a contour with one
/// listed point moves with it); otherwise, from a point that must be kept (or, when none must,
/// the one that moves most), the fewest kept points around the contour are found
/// by dynamic programming: a span from one kept point to the next is allowed when every point
/// between is inferred, by the same rule `UntouchedPoints` reads with, within the tolerance of
/// its delta. Spans look back at most `lookback` points, so the work is linear in the points
/// (at most about points × lookback² steps, far fewer in practice: a span stops at the first
/// point it cannot infer); the result is always valid, if not always the very fewest.
struct IUPOptimizer {
    static let lookback = 16
    let tolerance: Double
    // Work space reused across contours and tuples: one contour from its anchor round to the
    // anchor again, flat (point numbers, coordinates, deltas), and the search's table.
    private var index: [Int] = [], cx: [Int] = [], cy: [Int] = [], dx: [Double] = [], dy: [Double] = []
    private var cost: [Int] = [], previous: [Int] = []

    init(tolerance: Double = 0.5) { self.tolerance = tolerance }

    /// The point numbers to keep (ascending) of a tuple with deltas `x`/`y` for every point of
    /// an outline whose default coordinates are `original`; `ends` are the contours' last
    /// points (phantom points and composite components are one-point contours).
    mutating func keptPoints(x: [Int], y: [Int], original: [PointXY], ends: [Int]) -> [Int] {
        let n = original.count
        guard x.count == n, y.count == n else { return Array(0..<min(x.count, y.count)) }
        var kept: [Int] = []
        var start = 0
        for end in ends {
            defer { start = end + 1 }
            guard end < n, start <= end else { continue }
            keepInContour(start...end, x: x, y: y, original: original, into: &kept)
        }
        // Points past the last contour end (none in a well-formed outline) are kept as they are.
        if start < n { kept += Array(start..<n) }
        return kept.sorted()
    }

    private mutating func keepInContour(_ contour: ClosedRange<Int>, x: [Int], y: [Int], original: [PointXY], into kept: inout [Int]) {
        let first = contour.lowerBound
        if contour.allSatisfy({ x[$0] == 0 && y[$0] == 0 }) { return }
        if contour.allSatisfy({ x[$0] == x[first] && y[$0] == y[first] }) { kept.append(first); return }
        // From a point every solution keeps when there is one (then the result is the fewest
        // within the lookback), else from the point that moves most.
        let anchor =
            forcedPoint(contour, x, tolerance) ?? forcedPoint(contour, y, tolerance)
            ?? contour.max { abs(x[$0]) + abs(y[$0]) < abs(x[$1]) + abs(y[$1]) }!
        keepAround(anchor, contour, x: x, y: y, original: original, into: &kept)
    }

    /// A point no pair of others can infer: a delta `d` beyond every other point's by more
    /// than the tolerance (inferred deltas lie between their two references' deltas, or are 0
    /// when the references share a coordinate, hence a forced delta is not near 0).
    private func forcedPoint(_ contour: ClosedRange<Int>, _ d: [Int], _ tolerance: Double) -> Int? {
        var high = contour.lowerBound, low = contour.lowerBound
        for k in contour {
            if d[k] > d[high] { high = k }
            if d[k] < d[low] { low = k }
        }
        var secondHigh = Int.min, secondLow = Int.max
        for k in contour {
            if k != high { secondHigh = max(secondHigh, d[k]) }
            if k != low { secondLow = min(secondLow, d[k]) }
        }
        if Double(d[high] - secondHigh) > tolerance, Double(abs(d[high])) > tolerance { return high }
        if Double(secondLow - d[low]) > tolerance, Double(abs(d[low])) > tolerance { return low }
        return nil
    }

    /// The fewest points to keep in a contour that keeps `anchor`.
    private mutating func keepAround(
        _ anchor: Int, _ contour: ClosedRange<Int>, x: [Int], y: [Int], original: [PointXY],
        into kept: inout [Int]
    ) {
        let first = contour.lowerBound, n = contour.count
        index.removeAll(keepingCapacity: true); cx.removeAll(keepingCapacity: true); cy.removeAll(keepingCapacity: true)
        dx.removeAll(keepingCapacity: true); dy.removeAll(keepingCapacity: true)
        for p in 0...n {
            let k = first + (anchor - first + p) % n
            index.append(k); cx.append(original[k].x); cy.append(original[k].y); dx.append(Double(x[k])); dy.append(Double(y[k]))
        }
        // A contour where no point is inferred from its two neighbours keeps every point (a
        // point inferred from farther ones only is rare, and missing it costs a few bytes).
        if !(1..<n).contains(where: { inferred($0 - 1, $0 + 1) }) {
            kept += index[0..<n]
            return
        }
        cost.removeAll(keepingCapacity: true); previous.removeAll(keepingCapacity: true)
        cost.append(0); previous.append(0)
        // cost[j]: the fewest kept points after the anchor up to and including position j.
        for j in 1...n {
            let step = j == n ? 0 : 1   // position n is the anchor, already counted
            var best = cost[j - 1] + step, from = j - 1
            for i in stride(from: j - 2, through: max(0, j - Self.lookback), by: -1) where cost[i] + step < best && inferred(i, j) {
                best = cost[i] + step
                from = i
            }
            cost.append(best); previous.append(from)
        }
        kept.append(anchor)
        var p = previous[n]
        while p != 0 { kept.append(index[p]); p = previous[p] }
    }

    /// Whether every point strictly between positions i and j is inferred from them, by the
    /// rule `UntouchedPoints` reads with.
    private func inferred(_ i: Int, _ j: Int) -> Bool {
        for q in (i + 1)..<j {
            let ix = UntouchedPoints.interpolate(cx[q], cx[i], cx[j], dx[i], dx[j])
            if abs(ix - dx[q]) > tolerance { return false }
            let iy = UntouchedPoints.interpolate(cy[q], cy[i], cy[j], dy[i], dy[j])
            if abs(iy - dy[q]) > tolerance { return false }
        }
        return true
    }
}

extension TupleVariation {
    /// This gvar tuple (deltas for every point) with the points a reader infers within 0.5
    /// left out (`IUPOptimizer`), when that encodes smaller (point numbers cost bytes too), as
    /// fontTools' instancer optimizes the tuples it keeps. `original` and `ends` describe the
    /// outline the tuple applies to: the font's default glyph with its four phantom points.
    func droppingInferredPoints(original: [PointXY], ends: [Int], optimizer: inout IUPOptimizer) throws -> TupleVariation {
        guard points == nil, x.count == original.count, y.count == original.count else { return self }
        let kept = optimizer.keptPoints(x: x, y: y, original: original, ends: ends)
        // No points listed would mean every point: a tuple that moves nothing is dropped before.
        guard !kept.isEmpty, kept.count < x.count else { return self }
        var sparse = self
        sparse.points = kept
        sparse.x = kept.map { x[$0] }
        sparse.y = kept.map { y[$0] }
        return try sparse.encodedSize() < encodedSize() ? sparse : self
    }

    /// The bytes of this tuple's point numbers and deltas in a TupleVariationStore.
    func encodedSize() throws -> Int {
        var body = BinaryWriter()
        if let points { try TupleVariation.packPoints(points, into: &body, what: "gvar") } else { body.u8(0) }
        try TupleVariation.packDeltas(x, into: &body, what: "gvar")
        try TupleVariation.packDeltas(y, into: &body, what: "gvar")
        return body.bytes.count
    }
}
