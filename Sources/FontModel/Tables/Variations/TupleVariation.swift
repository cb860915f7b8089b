/// One tuple variation of gvar (a glyph's points) or cvar (the control values): a region of the
/// design space and the deltas that apply at its peak, for all points or for the listed ones.
/// Decoding follows the spec's TupleVariationStore: a header per tuple, then serialized point
/// numbers (shared or private) and packed deltas.
public struct TupleVariation: Equatable, Sendable {
    /// Peak coordinate per axis (normalized).
    public var peak: [Double]
    /// Intermediate region start and end per axis; nil means from 0 to the peak.
    public var start: [Double]?
    public var end: [Double]?
    /// The points the deltas are for, ascending; nil for every point.
    public var points: [Int]?
    /// x deltas (gvar) or control-value deltas (cvar), one per listed point.
    public var x: [Int]
    /// y deltas (gvar only).
    public var y: [Int]

    public init(peak: [Double], start: [Double]? = nil, end: [Double]? = nil, points: [Int]?, x: [Int], y: [Int]) {
        self.peak = peak; self.start = start; self.end = end; self.points = points; self.x = x; self.y = y
    }

    /// The tuple's weight at a normalized location (0 outside its region, 1 at its peak).
    public func scalar(at location: [Double]) -> Double {
        var spans: [ItemVariationStore.AxisSpan] = []
        spans.reserveCapacity(peak.count)
        for (i, p) in peak.enumerated() {
            let s = start?[i] ?? min(p, 0), e = end?[i] ?? max(p, 0)
            spans.append(.init(start: s, peak: p, end: e))
        }
        return ItemVariationStore.scalar(spans, at: location)
    }

    /// Decodes a TupleVariationStore. `reader` spans the store (gvar: one glyph's data; cvar:
    /// the whole table) and the header's data offset counts from its start; `headerAt` is where
    /// the tuple count is (gvar 0, cvar 4). `pointCount` counts the points deltas can name (gvar:
    /// the glyph's points plus four phantom points).
    /// `exact`: a tuple whose data holds more deltas than its points is an error (a glyph
    /// whose outline lost points since its deltas were made; the validator asks).
    static func decodeStore(
        _ reader: BinaryReader, headerAt headerStart: Int, axisCount: Int,
        sharedTuples: [[Double]], pointCount: Int, hasY: Bool, what: String, exact: Bool = false
    ) throws -> [TupleVariation] {
        var r = reader
        try r.seek(headerStart)
        let countField = Int(try r.u16())
        let dataOffset = Int(try r.u16())
        let sharedPoints = countField & 0x8000 != 0
        let tupleCount = countField & 0x0FFF
        var data = try reader.sub(from: dataOffset)
        var shared: [Int]?? = nil
        if sharedPoints { shared = .some(try readPoints(&data, pointCount: pointCount, what: what)) }
        var result: [TupleVariation] = []
        result.reserveCapacity(tupleCount)
        for t in 0..<tupleCount {
            let size = Int(try r.u16())
            let indexField = Int(try r.u16())
            var peak: [Double]
            if indexField & 0x8000 != 0 {
                peak = []
                for _ in 0..<axisCount { peak.append(try r.f2dot14().value) }
            } else {
                let i = indexField & 0x0FFF
                guard i < sharedTuples.count else {
                    throw r.error("\(what): tuple \(t) uses shared tuple \(i); there are \(sharedTuples.count)", at: r.offset - 2)
                }
                peak = sharedTuples[i]
            }
            var start: [Double]?, end: [Double]?
            if indexField & 0x4000 != 0 {
                var s: [Double] = [], e: [Double] = []
                for _ in 0..<axisCount { s.append(try r.f2dot14().value) }
                for _ in 0..<axisCount { e.append(try r.f2dot14().value) }
                start = s; end = e
            }
            var body = try data.sub(data.offset, size)
            try data.skip(size)
            let points: [Int]?
            if indexField & 0x2000 != 0 {
                points = try readPoints(&body, pointCount: pointCount, what: what)
            } else if let s = shared {
                points = s
            } else {
                points = nil
            }
            let n = points?.count ?? pointCount
            let xs = try readDeltas(&body, count: n, what: what)
            let ys = hasY ? try readDeltas(&body, count: n, what: what) : []
            if exact && body.remaining > 1 {
                throw body.error("\(what): tuple \(t) holds \(body.remaining) bytes past its \(n) points' deltas")
            }
            result.append(TupleVariation(peak: peak, start: start, end: end, points: points, x: xs, y: ys))
        }
        return result
    }

    /// Adds a store's deltas at a location to `dx`/`dy` (one entry per point), without
    /// materializing the tuples: a tuple whose weight there is 0 is skipped unread, and
    /// all-point tuples are added as they are unpacked. Sparse tuples get their untouched
    /// points inferred from `original` and `ends` (IUP). The same sums as decoding every
    /// tuple and adding `scalar × delta`. `w` holds the buffers, reused from call to call.
    static func accumulateStore(
        _ reader: BinaryReader, axisCount: Int, sharedTuples: [[Double]], location: [Double],
        original: [PointXY], ends: [Int], what: @autoclosure () -> String,
        into dx: inout [Double], _ dy: inout [Double], workspace w: inout TupleWorkspace
    ) throws {
        let pointCount = original.count
        var r = reader
        let countField = Int(try r.u16())
        let dataOffset = Int(try r.u16())
        let tupleCount = countField & 0x0FFF
        var data = try reader.sub(from: dataOffset)
        // Shared point numbers: none (every tuple lists its own or all), all points, or listed.
        let hasSharedPoints = countField & 0x8000 != 0
        let sharedListed = hasSharedPoints ? try readPoints(&data, pointCount: pointCount, what: what(), into: &w.sharedPoints) : false
        if w.spans.count != axisCount { w.spans = .init(repeating: .init(start: 0, peak: 0, end: 0), count: axisCount) }
        for t in 0..<tupleCount {
            let size = Int(try r.u16())
            let indexField = Int(try r.u16())
            if indexField & 0x8000 != 0 {
                for a in 0..<axisCount { w.spans[a].peak = try r.f2dot14().value }
            } else {
                let i = indexField & 0x0FFF
                guard i < sharedTuples.count, sharedTuples[i].count >= axisCount else {
                    throw r.error("\(what()): tuple \(t) uses shared tuple \(i); there are \(sharedTuples.count)", at: r.offset - 2)
                }
                for a in 0..<axisCount { w.spans[a].peak = sharedTuples[i][a] }
            }
            if indexField & 0x4000 != 0 {
                for a in 0..<axisCount { w.spans[a].start = try r.f2dot14().value }
                for a in 0..<axisCount { w.spans[a].end = try r.f2dot14().value }
            } else {
                for a in 0..<axisCount { w.spans[a].start = min(w.spans[a].peak, 0); w.spans[a].end = max(w.spans[a].peak, 0) }
            }
            var body = try data.sub(data.offset, size)
            try data.skip(size)
            let weight = ItemVariationStore.scalar(w.spans, at: location)
            if weight == 0 { continue }
            let privatePoints = indexField & 0x2000 != 0
            let listed = privatePoints ? try readPoints(&body, pointCount: pointCount, what: what(), into: &w.points) : sharedListed
            if listed {
                let points = privatePoints ? w.points : w.sharedPoints
                try readDeltas(&body, count: points.count, what: what(), into: &w.x)
                try readDeltas(&body, count: points.count, what: what(), into: &w.y)
                w.untouched.prepare(pointCount)
                UntouchedPoints.add(
                    points: points, x: w.x, y: w.y, weight: weight, original: original, ends: ends,
                    into: &dx, &dy, scratch: &w.untouched)
            } else {
                try addDeltas(&body, count: pointCount, weight: weight, what: what(), into: &dx)
                try addDeltas(&body, count: pointCount, weight: weight, what: what(), into: &dy)
            }
        }
    }

    /// Packed deltas for every point, each times `weight`, added to `target`.
    static func addDeltas(_ r: inout BinaryReader, count: Int, weight: Double, what: @autoclosure () -> String, into target: inout [Double])
        throws
    {
        var i = 0
        while i < count {
            let control = Int(try r.u8())
            let run = (control & 0x3F) + 1
            guard run <= count - i else { throw r.error("\(what()): a delta run passes the last point") }
            switch control & 0xC0 {
            case 0x80: break
            case 0x40: for k in 0..<run { target[i + k] += Double(try r.i16()) * weight }
            case 0xC0: for k in 0..<run { target[i + k] += Double(try r.i32()) * weight }
            default: for k in 0..<run { target[i + k] += Double(try r.i8()) * weight }
            }
            i += run
        }
    }

    /// Packed point numbers: nil for "all points".
    static func readPoints(_ r: inout BinaryReader, pointCount: Int, what: String) throws -> [Int]? {
        var points: [Int] = []
        return try readPoints(&r, pointCount: pointCount, what: what, into: &points) ? points : nil
    }

    /// Packed point numbers into `points` (emptied first); false for "all points".
    static func readPoints(_ r: inout BinaryReader, pointCount: Int, what: @autoclosure () -> String, into points: inout [Int]) throws
        -> Bool
    {
        points.removeAll(keepingCapacity: true)
        var count = Int(try r.u8())
        if count == 0 { return false }
        if count & 0x80 != 0 { count = (count & 0x7F) << 8 | Int(try r.u8()) }
        guard count <= r.remaining else { throw r.error("\(what()): \(count) point numbers, more than the data holds") }
        points.reserveCapacity(count)
        var last = 0
        while points.count < count {
            let control = Int(try r.u8())
            let run = (control & 0x7F) + 1
            for _ in 0..<min(run, count - points.count) {
                last += control & 0x80 != 0 ? Int(try r.u16()) : Int(try r.u8())
                guard last < pointCount else {
                    throw r.error("\(what()): point number \(last) is out of range (the glyph has \(pointCount) points with phantoms)")
                }
                points.append(last)
            }
        }
        return true
    }

    /// Packed deltas: runs of zeros, bytes, words or (the 2024 spec's) 32-bit longs.
    static func readDeltas(_ r: inout BinaryReader, count: Int, what: String) throws -> [Int] {
        var deltas: [Int] = []
        try readDeltas(&r, count: count, what: what, into: &deltas)
        return deltas
    }

    /// Packed deltas into `deltas` (emptied first).
    static func readDeltas(_ r: inout BinaryReader, count: Int, what: @autoclosure () -> String, into deltas: inout [Int]) throws {
        deltas.removeAll(keepingCapacity: true)
        deltas.reserveCapacity(count)
        while deltas.count < count {
            let control = Int(try r.u8())
            let run = (control & 0x3F) + 1
            guard run <= count - deltas.count else { throw r.error("\(what()): a delta run passes the last point") }
            switch control & 0xC0 {
            case 0x80: deltas.append(contentsOf: repeatElement(0, count: run))
            case 0x40: for _ in 0..<run { deltas.append(Int(try r.i16())) }
            case 0xC0: for _ in 0..<run { deltas.append(Int(try r.i32())) }
            default: for _ in 0..<run { deltas.append(Int(try r.i8())) }
            }
        }
    }
}

/// The buffers `TupleVariation.accumulateStore` fills for each glyph, kept from glyph to glyph
/// so that summing a glyph's deltas allocates nothing once they have grown (an instancing run
/// keeps one per thread). `dx`, `dy` and `ends` are for its callers (`GlyphVariator.deltas`).
struct TupleWorkspace {
    var spans: [ItemVariationStore.AxisSpan] = []
    var sharedPoints: [Int] = [], points: [Int] = [], x: [Int] = [], y: [Int] = []
    var untouched = UntouchedPoints.Scratch(0)
    var dx: [Double] = [], dy: [Double] = [], ends: [Int] = []
}

/// A point's integer coordinates (a struct, not a tuple: arrays of tuples look their type up
/// at run time, which showed in instancing profiles).
public struct PointXY: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public init(_ x: Int, _ y: Int) { self.x = x; self.y = y }
}

/// Interpolation of untouched points (IUP): the deltas a tuple leaves out of a contour are
/// inferred from the nearest touched points before and after them, by coordinate.
enum UntouchedPoints {
    /// Work space for `add`, reused across the tuples of a glyph.
    struct Scratch {
        var x: [Double], y: [Double], touched: [Bool]
        init(_ n: Int) { x = [Double](repeating: 0, count: n); y = x; touched = [Bool](repeating: false, count: n) }
        /// Room for `n` points (`add` clears what it uses).
        mutating func prepare(_ n: Int) {
            guard x.count < n else { return }
            x = [Double](repeating: 0, count: n); y = x; touched = [Bool](repeating: false, count: n)
        }
    }

    /// Adds a tuple that lists only some points to `dx`/`dy`: the listed deltas times `weight`,
    /// and for each contour with a listed point, its other points' deltas inferred from the
    /// nearest listed points before and after them. `original` are the default coordinates;
    /// `ends` the last point of each contour (phantom points and composite components are
    /// one-point contours, so unlisted ones stay put). A point listed twice keeps its last
    /// delta, as fontTools reads it.
    static func add(
        points: [Int], x: [Int], y: [Int], weight: Double, original: [PointXY], ends: [Int],
        into dx: inout [Double], _ dy: inout [Double], scratch s: inout Scratch
    ) {
        let n = original.count
        for i in 0..<n { s.x[i] = 0; s.y[i] = 0; s.touched[i] = false }
        for (k, p) in points.enumerated() where p < n {
            s.x[p] = Double(x[k]) * weight; s.y[p] = Double(y[k]) * weight; s.touched[p] = true
        }
        var start = 0
        for end in ends {
            defer { start = end + 1 }
            guard end < n, start <= end else { continue }
            guard var a = (start...end).first(where: { s.touched[$0] }) else { continue }
            let first = a
            // Walk the contour from listed point to listed point, filling the points between.
            while true {
                var b = a == end ? start : a + 1
                while !s.touched[b] { b = b == end ? start : b + 1 }
                var i = a == end ? start : a + 1
                while i != b {
                    if a == b {
                        s.x[i] = s.x[a]; s.y[i] = s.y[a]   // one listed point: the whole contour moves with it
                    } else {
                        s.x[i] = interpolate(original[i].x, original[a].x, original[b].x, s.x[a], s.x[b])
                        s.y[i] = interpolate(original[i].y, original[a].y, original[b].y, s.y[a], s.y[b])
                    }
                    i = i == end ? start : i + 1
                }
                if b == first { break }
                a = b
            }
        }
        for i in 0..<n { dx[i] += s.x[i]; dy[i] += s.y[i] }
    }

    static func interpolate(_ v: Int, _ c1: Int, _ c2: Int, _ d1: Double, _ d2: Double) -> Double {
        var (x1, x2, e1, e2) = (c1, c2, d1, d2)
        if x1 == x2 { return e1 == e2 ? e1 : 0 }
        if x1 > x2 { swap(&x1, &x2); swap(&e1, &e2) }
        if v <= x1 { return e1 }
        if v >= x2 { return e2 }
        let scale = (e2 - e1) / Double(x2 - x1)
        return e1 + Double(v - x1) * scale
    }
}

extension TupleVariation {
    /// The region's span on each axis (start and end implied by the peak when not given).
    var spans: [ItemVariationStore.AxisSpan] {
        peak.indices.map { i in .init(start: start?[i] ?? min(peak[i], 0), peak: peak[i], end: end?[i] ?? max(peak[i], 0)) }
    }

    /// A glyph's (or cvar's) tuples for a partial instance (`AxisLimits`), as fontTools'
    /// `instantiateTupleVariationStore` makes them: each tuple is scaled by its weight on the
    /// pinned axes and loses them, and on a narrowed axis becomes the tents that draw the same
    /// over the new range (`AxisLimits.rebase`); what is left constant is in the new default
    /// already (a full instance there adds it); tuples whose remaining regions are equal are
    /// merged, then rounded. Every kept tuple lists every point (`droppingInferredPoints` may
    /// thin gvar's afterwards): with `original` and `ends` (gvar) a sparse tuple's untouched
    /// points are inferred against the old default outline first, since the new default moves.
    static func forPartialInstance(
        _ tuples: [TupleVariation], limits: AxisLimits, pointCount: Int, hasY: Bool,
        original: [PointXY]?, ends: [Int]
    ) -> [TupleVariation] {
        // The merged tuples in order of first appearance, found by region.
        var regions: [[ItemVariationStore.AxisSpan]] = [], xs: [[Double]] = [], ys: [[Double]] = []
        var slot: [[ItemVariationStore.AxisSpan]: Int] = [:]
        var scratch: UntouchedPoints.Scratch?
        for t in tuples {
            let (pinnedWeight, parts) = limits.split(t.spans)
            for (scalar, keptPart) in parts where keptPart.contains(where: { $0.peak != 0 }) {
                let weight = pinnedWeight * scalar
                guard weight != 0 else { continue }
                let m =
                    slot[keptPart]
                    ?? {
                        regions.append(keptPart)
                        xs.append([Double](repeating: 0, count: pointCount))
                        ys.append(hasY ? [Double](repeating: 0, count: pointCount) : [])
                        slot[keptPart] = regions.count - 1
                        return regions.count - 1
                    }()
                if let points = t.points, let original, hasY {
                    var work = scratch ?? UntouchedPoints.Scratch(pointCount)
                    scratch = nil   // so `work` holds the only reference and is not copied
                    UntouchedPoints.add(
                        points: points, x: t.x, y: t.y, weight: weight, original: original, ends: ends,
                        into: &xs[m], &ys[m], scratch: &work)
                    scratch = work
                } else {
                    for (k, d) in t.x.enumerated() {
                        let i = t.points?[k] ?? k
                        guard i < pointCount else { continue }
                        xs[m][i] += Double(d) * weight
                        if hasY, k < t.y.count { ys[m][i] += Double(t.y[k]) * weight }
                    }
                }
            }
        }
        return regions.indices.compactMap { m in
            let (spans, x, y) = (regions[m], xs[m], ys[m])
            let rx = x.map(\.otRoundedInt), ry = y.map(\.otRoundedInt)
            guard rx.contains(where: { $0 != 0 }) || ry.contains(where: { $0 != 0 }) else { return nil }
            let implied = spans.allSatisfy { $0.start == min($0.peak, 0) && $0.end == max($0.peak, 0) }
            return TupleVariation(
                peak: spans.map(\.peak), start: implied ? nil : spans.map(\.start), end: implied ? nil : spans.map(\.end),
                points: nil, x: rx, y: ry)
        }
    }

    /// A TupleVariationStore's bytes (gvar: a glyph's data, `dataOffsetBase` 0; cvar: after its
    /// 4-byte version, base 4). The point numbers most tuples list (none listed means every
    /// point) are written once as the shared ones when that saves bytes; the other tuples carry
    /// their own. Peaks found in `sharedPeaks` are written as its indexes.
    static func encodeStore(
        _ tuples: [TupleVariation], sharedPeaks: [[Double]: Int], hasY: Bool, dataOffsetBase: Int,
        what: String
    ) throws -> [UInt8] {
        guard !tuples.isEmpty else { return [] }
        guard tuples.count <= 0x0FFF else { throw FontError("\(what) has \(tuples.count) tuple variations, more than 4,095") }
        // Each tuple's packed point numbers; the most used (first on a tie) is shared when
        // writing it once instead of in each of its tuples saves bytes.
        var packed: [[UInt8]] = []
        var uses: [[UInt8]: Int] = [:]
        for t in tuples {
            var w = BinaryWriter()
            if let points = t.points { try packPoints(points, into: &w, what: what) } else { w.u8(0) }
            packed.append(w.bytes)
            uses[w.bytes, default: 0] += 1
        }
        var shared: [UInt8]?
        func saving(_ p: [UInt8]) -> Int { (uses[p, default: 0] - 1) * p.count }
        for p in packed where saving(p) > shared.map(saving) ?? 0 { shared = p }
        var headers = BinaryWriter(), data = BinaryWriter()
        if let shared { data.append(shared) }
        for (t, points) in zip(tuples, packed) {
            var body = BinaryWriter()
            if points != shared { body.append(points) }
            try packDeltas(t.x, into: &body, what: what)
            if hasY { try packDeltas(t.y, into: &body, what: what) }
            try headers.u16(body.bytes.count, "\(what) tuple data size")
            var index = points == shared ? 0 : 0x2000   // private point numbers
            if let shared = sharedPeaks[t.peak] { index |= shared } else { index |= 0x8000 }
            if t.start != nil { index |= 0x4000 }
            headers.u16(UInt16(index))
            if index & 0x8000 != 0 { for p in t.peak { headers.f2dot14(F2Dot14(clamping: p)) } }
            if let s = t.start, let e = t.end {
                for v in s { headers.f2dot14(F2Dot14(clamping: v)) }
                for v in e { headers.f2dot14(F2Dot14(clamping: v)) }
            }
            data.append(body.bytes)
        }
        var w = BinaryWriter()
        w.u16(UInt16(tuples.count | (shared == nil ? 0 : 0x8000)))
        try w.u16(dataOffsetBase + 4 + headers.bytes.count, "\(what) tuple data offset")
        w.append(headers.bytes)
        w.append(data.bytes)
        return w.bytes
    }

    /// Packed point numbers: a count, then runs of up to 128 ascending differences.
    static func packPoints(_ points: [Int], into w: inout BinaryWriter, what: String) throws {
        guard points.count < 0x8000 else { throw FontError("\(what) lists \(points.count) points, more than 32,767") }
        if points.count < 0x80 { w.u8(UInt8(points.count)) } else { w.u16(UInt16(0x8000 | points.count)) }
        var i = 0, last = 0
        while i < points.count {
            let differences = points[i..<min(i + 128, points.count)].enumerated().map { k, p in p - (k == 0 ? last : points[i + k - 1]) }
            let words = differences.contains { $0 > 255 }
            w.u8(UInt8((words ? 0x80 : 0) | (differences.count - 1)))
            for d in differences {
                guard d >= 0, d <= 0xFFFF else { throw FontError("\(what) point numbers are not ascending") }
                if words { w.u16(UInt16(d)) } else { w.u8(UInt8(d)) }
            }
            last = points[i + differences.count - 1]
            i += differences.count
        }
    }

    /// Packed deltas: runs of up to 64 zeros, bytes or words.
    static func packDeltas(_ deltas: [Int], into w: inout BinaryWriter, what: String) throws {
        var i = 0
        while i < deltas.count {
            var j = i
            if deltas[i] == 0 {
                while j < deltas.count, j - i < 64, deltas[j] == 0 { j += 1 }
                w.u8(UInt8(truncatingIfNeeded: 0x80 | (j - i - 1)))   // runs hold at most 64
            } else if (-128...127).contains(deltas[i]) {
                // A byte run stops at a pair of zeros (a zero run is cheaper) or a wide value.
                while j < deltas.count, j - i < 64, (-128...127).contains(deltas[j]),
                    !(deltas[j] == 0 && j + 1 < deltas.count && deltas[j + 1] == 0)
                { j += 1 }
                w.u8(UInt8(truncatingIfNeeded: j - i - 1))
                for d in deltas[i..<j] { w.i8(Int8(d)) }
            } else {
                // A word run goes on through one byte-sized value between wide ones: two bytes
                // in the run against the three of ending it and starting another.
                func wide(_ k: Int) -> Bool { k < deltas.count && !(-128...127).contains(deltas[k]) }
                while j < deltas.count, j - i < 64, wide(j) || wide(j + 1) && j + 1 - i < 64 { j += 1 }
                w.u8(UInt8(truncatingIfNeeded: 0x40 | (j - i - 1)))
                for d in deltas[i..<j] {
                    guard (-32768...32767).contains(d) else { throw FontError("\(what) has a delta of \(d), past Int16") }
                    w.i16(Int16(d))
                }
            }
            i = j
        }
    }
}
