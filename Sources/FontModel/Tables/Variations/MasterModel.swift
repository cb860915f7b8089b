/// Values given at a few points of the design space (masters, in normalized coordinates) turned
/// into deltas over regions, as a variable font stores them. The masters are ordered and their
/// regions cut the way fontTools' VariationModel does it, so a feature file's variable values
/// get the regions and deltas feaLib gives them.
struct MasterModel {
    typealias Span = ItemVariationStore.AxisSpan

    /// The masters in model order: axis index → coordinate, zero coordinates left out.
    private(set) var locations: [[Int: Double]]
    /// Each master's region (axis index → span); the default master's is empty.
    private(set) var supports: [[Int: Span]]
    /// For master i: how much each earlier master's delta counts at i's location.
    private var deltaWeights: [[(master: Int, weight: Double)]]
    /// Model order → the order the masters were given in.
    private var givenIndex: [Int]

    struct ModelError: Error { let message: String }

    /// `masters`: one location per master (axis index → normalized coordinate); one of them
    /// must be the default (all zeros), and no two may be equal.
    init(_ masters: [[Int: Double]]) throws {
        let given = masters.map { $0.filter { $0.value != 0 } }
        guard Set(given).count == given.count else { throw ModelError(message: "two values are given for the same location") }
        guard given.contains(where: \.isEmpty) else { throw ModelError(message: "no value is given for the default location") }

        // The points each axis has masters at, counting only masters on one axis.
        var axisPoints: [Int: Set<Double>] = [:]
        for loc in given where loc.count == 1 { for (axis, v) in loc { axisPoints[axis, default: [0]].insert(v) } }
        func key(_ loc: [Int: Double]) -> (rank: Int, onPoint: Int, axes: [Int], signs: [Int], magnitudes: [Double]) {
            let sorted = loc.sorted { $0.key < $1.key }
            let onPoint = loc.filter { axisPoints[$0.key]?.contains($0.value) ?? false }.count
            return (loc.count, -onPoint, sorted.map(\.key), sorted.map { $0.value < 0 ? -1 : 1 }, sorted.map { abs($0.value) })
        }
        func precedes(_ a: [Int: Double], _ b: [Int: Double]) -> Bool {
            let x = key(a), y = key(b)
            if x.rank != y.rank { return x.rank < y.rank }
            if x.onPoint != y.onPoint { return x.onPoint < y.onPoint }
            if x.axes != y.axes { return x.axes.lexicographicallyPrecedes(y.axes) }
            if x.signs != y.signs { return x.signs.lexicographicallyPrecedes(y.signs) }
            return x.magnitudes.lexicographicallyPrecedes(y.magnitudes)
        }
        let order = given.indices.sorted { precedes(given[$0], given[$1]) }
        locations = order.map { given[$0] }
        givenIndex = order

        // Each master's region runs from the default to the axis's end through its location,
        // then is cut short by earlier masters inside it, on the axes where the cut is largest.
        var regions: [[Int: Span]] = locations.map { loc in
            loc.mapValues { v in v > 0 ? Span(start: 0, peak: v, end: 1) : Span(start: -1, peak: v, end: 0) }
        }
        for i in regions.indices {
            var region = regions[i]
            let axes = Set(region.keys)
            for previous in regions[..<i] where Set(previous.keys) == axes {
                let inside = region.allSatisfy { axis, s in
                    guard let p = previous[axis]?.peak else { return false }
                    return p == s.peak || (s.start < p && p < s.end)
                }
                guard inside else { continue }
                var best: [Int: Span] = [:]
                var bestRatio = -1.0
                for (axis, prev) in previous {
                    let p = prev.peak
                    guard var s = region[axis] else { continue }
                    let ratio: Double
                    if p < s.peak {
                        ratio = (p - s.peak) / (s.start - s.peak)
                        s.start = p
                    } else if s.peak < p {
                        ratio = (p - s.peak) / (s.end - s.peak)
                        s.end = p
                    } else {
                        continue
                    }
                    if ratio > bestRatio {
                        best = [:]
                        bestRatio = ratio
                    }
                    if ratio == bestRatio { best[axis] = s }
                }
                for (axis, s) in best { region[axis] = s }
            }
            regions[i] = region
        }
        supports = regions
        deltaWeights = locations.enumerated().map { i, loc in
            regions[..<i].enumerated().compactMap { j, support in
                let s = Self.scalar(at: loc, support)
                return s == 0 ? nil : (j, s)
            }
        }
    }

    /// How much a region's delta counts at a location (OpenType's rules: an axis with peak 0,
    /// or a span that crosses zero, does not restrict).
    static func scalar(at location: [Int: Double], _ support: [Int: Span]) -> Double {
        let axes = (Array(location.keys) + Array(support.keys)).max().map { $0 + 1 } ?? 0
        return ItemVariationStore.scalar(
            (0..<axes).map { support[$0] ?? Span(start: 0, peak: 0, end: 0) }, at: (0..<axes).map { location[$0] ?? 0 })
    }

    /// The deltas, in model order (the first is the default master's value), each rounded to
    /// an integer half to even (Python's `round`, which feaLib uses).
    func deltas(_ values: [Double]) -> [Double] {
        var out: [Double] = []
        for (i, weights) in deltaWeights.enumerated() {
            var delta = values[givenIndex[i]]
            for (j, w) in weights { delta -= w == 1 ? out[j] : out[j] * w }
            out.append(delta.rounded(.toNearestOrEven))
        }
        return out
    }
}
