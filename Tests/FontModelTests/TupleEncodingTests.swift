import Testing
@testable import FontModel

/// gvar tuples as partial instances write them: points a reader infers left out
/// (`IUPOptimizer`), deltas packed, point numbers shared. Each optimized tuple is read back
/// through the reader's own inference (`UntouchedPoints`), which must give every point's delta
/// within 0.5.
@Suite struct TupleEncodingTests {
    /// A small deterministic generator, so a failure names a case that can be run again.
    struct Generator {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
    }

    /// The deltas a reader gets from the kept points alone (every listed delta, the rest inferred).
    func readBack(_ kept: [Int], x: [Int], y: [Int], original: [PointXY], ends: [Int]) -> (x: [Double], y: [Double]) {
        var dx = [Double](repeating: 0, count: original.count), dy = dx
        var scratch = UntouchedPoints.Scratch(original.count)
        UntouchedPoints.add(
            points: kept, x: kept.map { x[$0] }, y: kept.map { y[$0] }, weight: 1, original: original, ends: ends,
            into: &dx, &dy, scratch: &scratch)
        return (dx, dy)
    }

    @Test func pointsOnALineWithDeltasAlongItKeepOnlyTheTurningPoints() {
        // A contour out along x and back, each point's delta a tenth of its x: the two ends
        // carry it, the points between are inferred exactly.
        let xs = [0, 100, 200, 300, 400, 300, 200, 100]
        let original = xs.map { PointXY($0, 0) }
        let dx = xs.map { $0 / 10 }, dy = [Int](repeating: 0, count: xs.count)
        var optimizer = IUPOptimizer()
        let kept = optimizer.keptPoints(x: dx, y: dy, original: original, ends: [7])
        #expect(kept == [0, 4])
        let back = readBack(kept, x: dx, y: dy, original: original, ends: [7])
        #expect(back.x == dx.map(Double.init))
    }

    @Test func stillAndRigidContoursKeepNothingOrOnePoint() {
        let original = [PointXY(0, 0), PointXY(10, 0), PointXY(10, 10), PointXY(50, 50), PointXY(60, 50), PointXY(0, 0)]
        // Contour 0 (points 0-2) does not move, contour 1 (3-4) moves as one, point 5 is a
        // one-point contour (a phantom point) that moves.
        let dx = [0, 0, 0, 7, 7, 3], dy = [0, 0, 0, -2, -2, 0]
        var optimizer = IUPOptimizer()
        #expect(optimizer.keptPoints(x: dx, y: dy, original: original, ends: [2, 4, 5]) == [3, 5])
    }

    @Test(arguments: 0..<200) func everyOmittedDeltaIsInferredWithinHalfAUnit(_ seed: Int) {
        var g = Generator(state: UInt64(seed) &+ 12345)
        var original: [PointXY] = [], ends: [Int] = [], dx: [Int] = [], dy: [Int] = []
        for _ in 0..<g.next(1...4) {
            let n = g.next(1...40)
            // Smooth deltas (a scale and a shift, which IUP reproduces) plus some noise, and now
            // and then repeated coordinates and equal deltas, the cases the reader treats apart.
            let scale = Double(g.next(-20...20)) / 100, shift = g.next(-30...30), noise = g.next(0...3)
            for _ in 0..<n {
                let x = g.next(0...5) == 0 ? (original.last?.x ?? 0) : g.next(-500...1500)
                let y = g.next(-300...900)
                original.append(PointXY(x, y))
                dx.append(Int((Double(x) * scale).rounded()) + shift + g.next(-noise...noise))
                dy.append(Int((Double(y) * scale).rounded()) + g.next(-noise...noise))
            }
            ends.append(original.count - 1)
        }
        for _ in 0..<4 {
            original.append(PointXY(g.next(-100...100), 0)); dx.append(g.next(-5...5)); dy.append(0); ends.append(original.count - 1)
        }
        var optimizer = IUPOptimizer()
        let kept = optimizer.keptPoints(x: dx, y: dy, original: original, ends: ends)
        #expect(kept == kept.sorted() && Set(kept).count == kept.count && kept.allSatisfy { $0 < original.count })
        let back = readBack(kept, x: dx, y: dy, original: original, ends: ends)
        for i in original.indices {
            #expect(
                abs(back.x[i] - Double(dx[i])) <= 0.5 && abs(back.y[i] - Double(dy[i])) <= 0.5,
                "seed \(seed), point \(i): \(back.x[i]), \(back.y[i]) for \(dx[i]), \(dy[i])")
        }
    }

    @Test func aSparseTupleIsKeptOnlyWhenItEncodesSmaller() throws {
        let xs = [0, 100, 200, 300, 400, 300, 200, 100, 0, 0, 0, 0]   // eight outline points, four phantoms
        let original = xs.map { PointXY($0, 0) }
        let ends = [7, 8, 9, 10, 11]
        var optimizer = IUPOptimizer()
        let line = TupleVariation(peak: [1], start: nil, end: nil, points: nil, x: xs.map { $0 / 10 }, y: [Int](repeating: 0, count: 12))
        let sparse = try line.droppingInferredPoints(original: original, ends: ends, optimizer: &optimizer)
        #expect(sparse.points == [0, 4] && sparse.x == [0, 40] && sparse.y == [0, 0])
        #expect(try sparse.encodedSize() < line.encodedSize())
        // Every point moving its own way: nothing to leave out, the tuple stays as it was.
        let scattered = TupleVariation(
            peak: [1], start: nil, end: nil, points: nil, x: [5, -9, 14, -3, 22, -17, 8, -1, 0, 0, 0, 0],
            y: [Int](repeating: 0, count: 12))
        #expect(try scattered.droppingInferredPoints(original: original, ends: ends, optimizer: &optimizer) == scattered)
    }

    @Test func deltasPackedAndReadBack() throws {
        var g = Generator(state: 99)
        for _ in 0..<300 {
            let deltas = (0..<g.next(1...200)).map { _ in
                switch g.next(0...3) {
                case 0: 0;
                case 1: g.next(-128...127);
                case 2: g.next(-32768...32767);
                default: g.next(-300...300)
                }
            }
            var w = BinaryWriter()
            try TupleVariation.packDeltas(deltas, into: &w, what: "test")
            let (read, left) = try w.bytes.withUnsafeBytes { raw -> ([Int], Int) in
                var r = BinaryReader(raw)
                return (try TupleVariation.readDeltas(&r, count: deltas.count, what: "test"), r.remaining)
            }
            #expect(read == deltas && left == 0)
        }
        // One byte-sized value between wide ones stays in the word run: a header and three
        // words (7 bytes), not three runs (9).
        var w = BinaryWriter()
        try TupleVariation.packDeltas([300, 5, 300], into: &w, what: "test")
        #expect(w.bytes == [0x42, 0x01, 0x2C, 0x00, 0x05, 0x01, 0x2C])
    }

    @Test func pointNumbersMostTuplesShareAreWrittenOnce() throws {
        let all = TupleVariation(peak: [1], start: nil, end: nil, points: nil, x: [1, 2, 3], y: [4, 5, 6])
        let other = TupleVariation(peak: [-1], start: nil, end: nil, points: nil, x: [3, 2, 1], y: [0, 0, 1])
        let some = TupleVariation(peak: [0.5], start: nil, end: nil, points: [0, 2], x: [7, 8], y: [9, 10])
        let tuples = [all, other, some]
        let bytes = try TupleVariation.encodeStore(tuples, sharedPeaks: [:], hasY: true, dataOffsetBase: 0, what: "test")
        #expect(bytes[0] & 0x80 != 0)   // shared point numbers
        let read = try bytes.withUnsafeBytes {
            try TupleVariation.decodeStore(
                BinaryReader($0), headerAt: 0, axisCount: 1, sharedTuples: [], pointCount: 3, hasY: true, what: "test")
        }
        #expect(read == tuples)
    }
}
