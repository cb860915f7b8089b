/// The ItemVariationStore that HVAR, VVAR, MVAR and GDEF (for GPOS) keep their deltas in:
/// regions of the design space, and rows of deltas (one per region a row's data uses),
/// addressed by (outer, inner) = (data index, row). Read-only: instancing applies the deltas
/// and drops the store.
public struct ItemVariationStore: Sendable {
    /// One axis's share of a region, in normalized coordinates.
    public struct AxisSpan: Equatable, Sendable {
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
                let s = AxisSpan(start: Double(try list.i16()) / 16384, peak: Double(try list.i16()) / 16384, end: Double(try list.i16()) / 16384)
                guard s.start <= s.peak, s.peak <= s.end else {
                    throw list.error("\(what) variation region \(index), axis \(axis): start \(s.start), peak \(s.peak), end \(s.end) are not in order", at: at)
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
                guard i < regionCount else { throw d.error("\(what) variation data \(outer) names region \(i); there are \(regionCount)", at: at) }
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
                    if column < wordCount { deltas.append(longWords ? try d.i32() : Int32(try d.i16())) }
                    else { deltas.append(longWords ? Int32(try d.i16()) : Int32(try d.i8())) }
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
}
