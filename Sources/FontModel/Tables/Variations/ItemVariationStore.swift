/// The ItemVariationStore that HVAR, VVAR, MVAR and GDEF (for GPOS) keep their deltas in:
/// regions of the design space, and rows of deltas (one per region a row's data uses),
/// addressed by (outer, inner) = (data index, row). A full instance applies the deltas and
/// drops the store; a partial one (`forPartialInstance`) keeps it for the axes left variable.
public struct ItemVariationStore: Sendable {
    /// One axis's share of a region, in normalized coordinates.
    public struct AxisSpan: Hashable, Sendable {
        public var start: Double, peak: Double, end: Double
    }

    public struct VariationData: Sendable {
        public var regionIndexes: [Int]
        /// Deltas by row, `regionIndexes.count` per row, row-major.
        public var deltas: [Int32]
        public var itemCount: Int
    }

    /// Regions by index; each has one span per fvar axis.
    public var regions: [[AxisSpan]]
    public var data: [VariationData]

    public init(regions: [[AxisSpan]], data: [VariationData]) { self.regions = regions; self.data = data }

    /// Reads a store that starts at `offset` of `reader` (the table holding it). `axisCount` is
    /// fvar's; `what` names the holder in messages ("HVAR", "GDEF").
    public init(_ reader: BinaryReader, at offset: Int, axisCount: Int, what: String) throws {
        var r = try reader.sub(from: offset)
        let format = try r.u16()
        guard format == 1 else { throw r.error("\(what) ItemVariationStore format \(format) is not 1", at: 0) }
        let regionListOffset = Int(try r.u32())
        let dataCount = Int(try r.u16())
        var dataOffsets: [Int] = []
        for _ in 0..<dataCount { dataOffsets.append(Int(try r.u32())) }

        var list = try r.sub(from: regionListOffset)
        let regionAxes = Int(try list.u16()), regionCount = Int(try list.u16())
        guard regionAxes == axisCount else {
            throw list.error("\(what) variation regions span \(regionAxes) axes but fvar has \(axisCount)", at: 0)
        }
        guard regionCount * regionAxes * 6 <= list.remaining else {
            throw list.error("\(what) claims \(regionCount) variation regions, more than the data holds")
        }
        regions = []
        regions.reserveCapacity(regionCount)
        for index in 0..<regionCount {
            var spans: [AxisSpan] = []
            for axis in 0..<regionAxes {
                let at = list.offset
                let s = AxisSpan(start: try list.f2dot14().value, peak: try list.f2dot14().value, end: try list.f2dot14().value)
                guard s.start <= s.peak, s.peak <= s.end else {
                    throw list.error(
                        "\(what) variation region \(index), axis \(axis): start \(s.start), peak \(s.peak), end \(s.end) are not in order",
                        at: at)
                }
                spans.append(s)
            }
            regions.append(spans)
        }

        data = []
        for (outer, dataOffset) in dataOffsets.enumerated() {
            var d = try r.sub(from: dataOffset)
            let itemCount = Int(try d.u16())
            let wordField = Int(try d.u16())
            let longWords = wordField & 0x8000 != 0
            let wordCount = wordField & 0x7FFF
            let regionIndexCount = Int(try d.u16())
            guard wordCount <= regionIndexCount else {
                throw d.error("\(what) variation data \(outer) has \(wordCount) wide columns of \(regionIndexCount)", at: 2)
            }
            var indexes: [Int] = []
            for _ in 0..<regionIndexCount {
                let at = d.offset
                let i = Int(try d.u16())
                guard i < regionCount else {
                    throw d.error("\(what) variation data \(outer) names region \(i); there are \(regionCount)", at: at)
                }
                indexes.append(i)
            }
            let wide = longWords ? 4 : 2, narrow = longWords ? 2 : 1
            let rowSize = wordCount * wide + (regionIndexCount - wordCount) * narrow
            guard itemCount * rowSize <= d.remaining else {
                throw d.error("\(what) variation data \(outer) claims \(itemCount) rows of \(rowSize) bytes, more than the data holds")
            }
            var deltas: [Int32] = []
            deltas.reserveCapacity(itemCount * regionIndexCount)
            for _ in 0..<itemCount {
                for column in 0..<regionIndexCount {
                    if column < wordCount {
                        deltas.append(longWords ? try d.i32() : Int32(try d.i16()))
                    } else {
                        deltas.append(longWords ? Int32(try d.i16()) : Int32(try d.i8()))
                    }
                }
            }
            data.append(VariationData(regionIndexes: indexes, deltas: deltas, itemCount: itemCount))
        }
    }

    /// Each region's weight at a normalized location (one coordinate per axis).
    public func scalars(at location: [Double]) -> [Double] {
        regions.map { Self.scalar($0, at: location) }
    }

    /// How much of a region's deltas apply at a location: 1 at its peak, falling linearly to 0
    /// at its start and end on every axis it names (the spec's algorithm, as fontTools and
    /// HarfBuzz run it).
    public static func scalar(_ spans: [AxisSpan], at location: [Double]) -> Double {
        var scalar = 1.0
        for (axis, s) in spans.enumerated() {
            if s.peak == 0 || s.start > s.peak || s.peak > s.end || (s.start < 0 && s.end > 0) { continue }
            let v = axis < location.count ? location[axis] : 0
            if v == s.peak { continue }
            if v <= s.start || v >= s.end { return 0 }
            scalar *= v < s.peak ? (v - s.start) / (s.peak - s.start) : (v - s.end) / (s.peak - s.end)
        }
        return scalar
    }

    /// The delta of item (outer, inner) given the regions' scalars, unrounded. 0xFFFF/0xFFFF
    /// (no variation) and indexes past the data are 0.
    public func delta(outer: Int, inner: Int, scalars: [Double]) -> Double {
        guard outer < data.count else { return 0 }
        let d = data[outer]
        guard inner < d.itemCount else { return 0 }
        let n = d.regionIndexes.count
        var sum = 0.0
        for k in 0..<n {
            let s = scalars[d.regionIndexes[k]]
            if s != 0 { sum += s * Double(d.deltas[inner * n + k]) }
        }
        return sum
    }

    /// The store for a partial instance (`AxisLimits`), as fontTools' instancer makes it: a
    /// region's deltas are scaled by its weight on the pinned axes; a region cut by a narrowed
    /// axis becomes the regions that give the same over the new range (`AxisLimits.rebase`: a
    /// column can split in two); regions that named only pinned axes leave the store, their
    /// scaled deltas summed per item into `defaults` (what the new default adds to the values
    /// the items move); regions that become equal are merged. Items keep their (outer, inner),
    /// so references into the store stay valid. Deltas are rounded as fontTools rounds them.
    func forPartialInstance(_ limits: AxisLimits) -> (store: ItemVariationStore, defaults: [[Double]]) {
        let plan = partialPlan(limits)
        var newData: [VariationData] = [], defaults: [[Double]] = []
        for (d, columnPlan) in zip(data, plan.data) {
            let n = d.regionIndexes.count, width = columnPlan.columns.count
            var sums = [Double](repeating: 0, count: d.itemCount * width)
            var itemDefaults = [Double](repeating: 0, count: d.itemCount)
            for item in 0..<d.itemCount {
                for k in 0..<n {
                    let w = columnPlan.weights[k]
                    guard w != 0 else { continue }
                    let v = Double(d.deltas[item * n + k]) * w
                    if let targets = columnPlan.targets[k] {
                        for (c, scalar) in targets { sums[item * width + c] += v * scalar }
                    } else {
                        itemDefaults[item] += v
                    }
                }
            }
            let rounded = sums.map { Int32(clamping: $0.otRoundedInt) }
            newData.append(VariationData(regionIndexes: columnPlan.columns, deltas: rounded, itemCount: d.itemCount))
            defaults.append(itemDefaults)
        }
        return (ItemVariationStore(regions: plan.regions, data: newData), defaults)
    }

    /// Where each data's columns go in a partial instance: the new regions, and per data the
    /// new columns (indexes into those regions) and, per old column, its weight on the pinned
    /// axes and the new columns it becomes with their scalars (nil: it named no kept axis, so
    /// it goes to the defaults; empty: it is 0 everywhere on the kept axes).
    struct PartialPlan {
        struct Data {
            var columns: [Int]
            var weights: [Double]
            var targets: [[(column: Int, scalar: Double)]?]
        }
        var regions: [[AxisSpan]]
        var data: [Data]
    }

    func partialPlan(_ limits: AxisLimits) -> PartialPlan {
        // Each old region: its weight on the pinned axes, and the kept axes' regions it becomes
        // with their scalars (none when it named no kept axis: its deltas go to the defaults).
        var weights: [Double] = [], keptParts: [[(scalar: Double, spans: [AxisSpan])]?] = []
        for region in regions {
            let (weight, parts) = limits.split(region)
            weights.append(weight)
            let varying = parts.filter { $0.spans.contains { $0.peak != 0 } }
            keptParts.append(varying.isEmpty && parts.count == 1 ? nil : varying)
        }
        var newRegions: [[AxisSpan]] = []
        var newIndex: [[AxisSpan]: Int] = [:]
        var plans: [PartialPlan.Data] = []
        for d in data {
            let n = d.regionIndexes.count
            var columns: [Int] = []   // new region per merged column
            var columnsOf = [[(column: Int, scalar: Double)]?](repeating: [], count: n)
            for (k, r) in d.regionIndexes.enumerated() where weights[r] != 0 {
                guard let parts = keptParts[r] else { columnsOf[k] = nil; continue }
                columnsOf[k] = parts.map { scalar, spans in
                    let index =
                        newIndex[spans]
                        ?? {
                            newRegions.append(spans); newIndex[spans] = newRegions.count - 1; return newRegions.count - 1
                        }()
                    let column =
                        columns.firstIndex(of: index)
                        ?? {
                            columns.append(index); return columns.count - 1
                        }()
                    return (column, scalar)
                }
            }
            plans.append(PartialPlan.Data(columns: columns, weights: d.regionIndexes.map { weights[$0] }, targets: columnsOf))
        }
        return PartialPlan(regions: newRegions, data: plans)
    }

    /// The store's bytes (format 1): region list, then each data with its columns ordered
    /// wide first, as the format requires, and 32-bit columns only when a delta needs them.
    public func encode(axisCount: Int) throws -> [UInt8] {
        var w = BinaryWriter()
        w.u16(1)
        let regionListAt = 8 + 4 * data.count
        try w.u32(regionListAt, "ItemVariationStore region list offset")
        try w.u16(data.count, "ItemVariationStore data count")
        var body = BinaryWriter()
        try body.u16(axisCount, "region axis count"); try body.u16(regions.count, "region count")
        for region in regions {
            for span in region { for v in [span.start, span.peak, span.end] { body.f2dot14(F2Dot14(clamping: v)) } }
        }
        var dataOffsets: [Int] = []
        for d in data {
            dataOffsets.append(regionListAt + body.bytes.count)
            let n = d.regionIndexes.count
            let column = { (k: Int) in (0..<d.itemCount).map { d.deltas[$0 * n + k] } }
            let needs32 = (0..<n).contains { k in column(k).contains { $0 < -32768 || $0 > 32767 } }
            let wideLimit: ClosedRange<Int32> = needs32 ? -32768...32767 : -128...127
            let wide = (0..<n).filter { k in column(k).contains { !wideLimit.contains($0) } }
            let order = wide + (0..<n).filter { !wide.contains($0) }
            try body.u16(d.itemCount, "variation data item count")
            try body.u16(wide.count | (needs32 ? 0x8000 : 0), "variation data word count")
            try body.u16(n, "variation data region count")
            for k in order { try body.u16(d.regionIndexes[k], "variation data region index") }
            for item in 0..<d.itemCount {
                for (position, k) in order.enumerated() {
                    let v = d.deltas[item * n + k]
                    switch (needs32, position < wide.count) {
                    case (true, true): body.i32(v)
                    case (true, false), (false, true): body.i16(Int16(v))
                    case (false, false): body.i8(Int8(v))
                    }
                }
            }
        }
        for o in dataOffsets { try w.u32(o, "variation data offset") }
        w.append(body.bytes)
        return w.bytes
    }
}

/// A DeltaSetIndexMap: entry i gives the (outer, inner) of item i; items past the end use the
/// last entry (HVAR's advance map, avar 2's axis map).
public struct DeltaSetIndexMap: Sendable {
    public var entries: [(outer: Int, inner: Int)]

    public init(_ reader: BinaryReader, at offset: Int, what: String) throws {
        var r = try reader.sub(from: offset)
        let format = try r.u8()
        guard format <= 1 else { throw r.error("\(what) DeltaSetIndexMap format \(format) is not 0 or 1", at: 0) }
        let entryFormat = Int(try r.u8())
        let count = format == 0 ? Int(try r.u16()) : Int(try r.u32())
        let size = ((entryFormat >> 4) & 3) + 1, innerBits = (entryFormat & 0xF) + 1
        guard count * size <= r.remaining else {
            throw r.error("\(what) DeltaSetIndexMap claims \(count) entries of \(size) bytes, more than the data holds")
        }
        entries = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            var v = 0
            for _ in 0..<size { v = v << 8 | Int(try r.u8()) }
            entries.append((v >> innerBits, v & ((1 << innerBits) - 1)))
        }
    }

    public func index(_ i: Int) -> (outer: Int, inner: Int)? {
        guard let last = entries.last else { return nil }
        return i < entries.count ? entries[i] : last
    }

    /// Item `i` takes `entry`; a map shorter than `i` is first filled out with its last entry
    /// (what the items past its end used).
    mutating func set(_ i: Int, _ entry: (outer: Int, inner: Int)) {
        if i >= entries.count, let last = entries.last { entries += repeatElement(last, count: i + 1 - entries.count) }
        if i < entries.count { entries[i] = entry }
    }

    /// The map's bytes in its smallest form: entries repeating the last are left off, each entry
    /// in as few bytes and inner bits as the largest needs (format 1 past 65,535 entries).
    public func encode() throws -> [UInt8] {
        var count = entries.count
        while count > 1, entries[count - 2] == entries[count - 1] { count -= 1 }
        let innerBits = max(1, Int.bitWidth - (entries.map(\.inner).max() ?? 0).leadingZeroBitCount)
        let outerBits = max(1, Int.bitWidth - (entries.map(\.outer).max() ?? 0).leadingZeroBitCount)
        let size = (innerBits + outerBits + 7) / 8
        guard size <= 4, innerBits <= 16 else {
            throw FontError("a DeltaSetIndexMap entry needs \(innerBits + outerBits) bits, more than 32")
        }
        var w = BinaryWriter()
        w.u8(count > 0xFFFF ? 1 : 0)
        w.u8(UInt8((size - 1) << 4 | (innerBits - 1)))
        if count > 0xFFFF { w.u32(UInt32(count)) } else { w.u16(UInt16(count)) }
        for (outer, inner) in entries.prefix(count) {
            let v = outer << innerBits | inner
            for k in stride(from: size - 1, through: 0, by: -1) { w.u8(UInt8(truncatingIfNeeded: v >> (8 * k))) }
        }
        return w.bytes
    }
}
