/// `gvar` — TrueType glyph variations. Each glyph's variation data is read from the table's
/// bytes when asked for, as `glyf` reads its glyphs; a glyph's block can be replaced so that it
/// moves with its outline (the all-caps edit in a variable font).
public final class GvarTable: DecodableTable {
    public static let tableTag: Tag = "gvar"

    let majorVersion: UInt16, minorVersion: UInt16, axisCount: UInt16
    let sharedTuples: [UInt8]
    let sharedTupleCount: UInt16
    let flags: UInt16
    /// The table as read; points into `sourceBytes`, which this table keeps alive.
    private let data: BinaryReader
    private var sourceBytes: FontBytes?
    public func keepSource(_ bytes: FontBytes) { sourceBytes = bytes }
    /// Where each glyph's block starts in `data`, and where the last one ends.
    private let starts: [Int]
    /// Blocks replacing the original, by glyph id.
    private var overrides: [Int: [UInt8]] = [:]
    public private(set) var isEdited = false

    init(reader: BinaryReader) throws {
        var r = reader
        majorVersion = try r.u16(); minorVersion = try r.u16()
        axisCount = try r.u16(); sharedTupleCount = try r.u16()
        let sharedTuplesOffset = Int(try r.u32())
        let glyphCount = Int(try r.u16())
        flags = try r.u16()
        let dataOffset = Int(try r.u32())
        let long = flags & 1 != 0
        var starts: [Int] = []
        starts.reserveCapacity(glyphCount + 1)
        for i in 0...glyphCount {
            let start = dataOffset + (long ? Int(try r.u32()) : Int(try r.u16()) * 2)
            if let previous = starts.last, start < previous { throw r.error("gvar offsets run backwards at glyph \(i - 1)") }
            starts.append(start)
        }
        if let last = starts.last, last > reader.count {
            throw reader.error("gvar's glyph data ends at \(last), past the table's \(reader.count) bytes", at: 12)
        }
        sharedTuples = try reader.sub(sharedTuplesOffset, Int(sharedTupleCount) * Int(axisCount) * 2).bytes.map { $0 }
        self.starts = starts
        data = reader
    }

    /// Glyphs with a block (variation data, possibly empty).
    public var glyphCount: Int { starts.count - 1 }

    /// Glyph `id`'s current variation data (empty when it has none).
    public func glyphData(_ id: Int) throws -> [UInt8] {
        try withGlyphReader(id) { Array($0.bytes) }
    }

    /// Runs `body` with a reader over glyph `id`'s current block, without copying unedited ones;
    /// its base is where the block is in the file, for messages.
    private func withGlyphReader<T>(_ id: Int, _ body: (BinaryReader) throws -> T) throws -> T {
        guard id >= 0, id < glyphCount else {
            throw FontError("glyph id \(id) out of range for gvar (\(glyphCount) glyphs)", table: "gvar")
        }
        if let o = overrides[id] { return try o.withUnsafeBytes { try body(BinaryReader($0)) } }
        return try body(try data.sub(starts[id], starts[id + 1] - starts[id]))
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> GvarTable {
        let table = try GvarTable(reader: reader)
        if let fvar = try face.table(FvarTable.self), fvar.axes.count != Int(table.axisCount) {
            throw FontError("gvar has \(table.axisCount) axes but fvar has \(fvar.axes.count)", offset: reader.base + 4)
        }
        return table
    }

    /// Shared peak tuples, one coordinate per axis each.
    public var peakTuples: [[Double]] {
        let axes = Int(axisCount)
        guard axes > 0 else { return [] }
        return (0..<Int(sharedTupleCount)).map { t in
            (0..<axes).map { a in
                let i = (t * axes + a) * 2
                return F2Dot14(raw: Int16(bitPattern: UInt16(sharedTuples[i]) << 8 | UInt16(sharedTuples[i + 1]))).value
            }
        }
    }

    /// Adds glyph `id`'s deltas at a normalized location to `dx`/`dy` (see
    /// `TupleVariation.accumulateStore`); `original` are its points plus the four phantom points.
    func accumulateVariations(
        glyph id: Int, location: [Double], original: [PointXY], ends: [Int], sharedPeaks: [[Double]],
        into dx: inout [Double], _ dy: inout [Double], workspace: inout TupleWorkspace
    ) throws {
        try withGlyphReader(id) { reader in
            guard reader.count > 0 else { return }
            try TupleVariation.accumulateStore(
                reader, axisCount: Int(axisCount), sharedTuples: sharedPeaks, location: location,
                original: original, ends: ends, what: "glyph \(id)", into: &dx, &dy,
                workspace: &workspace)
        }
    }

    /// Glyph `id`'s tuple variations. `pointCount` is its point count plus the four phantom
    /// points (a composite: its components plus four).
    public func variations(glyph id: Int, pointCount: Int, sharedPeaks: [[Double]]? = nil, exact: Bool = false) throws -> [TupleVariation] {
        try withGlyphReader(id) { reader in
            guard reader.count > 0 else { return [] }
            return try TupleVariation.decodeStore(
                reader, headerAt: 0, axisCount: Int(axisCount), sharedTuples: sharedPeaks ?? peakTuples,
                pointCount: pointCount, hasY: true, what: "glyph \(id)", exact: exact)
        }
    }

    /// Glyph `id` no longer varies (its outline was replaced: the old deltas fit other points).
    public func removeVariations(_ id: Int) throws {
        if try !glyphData(id).isEmpty { overrides[id] = []; isEdited = true }
    }

    /// Gives glyph `target` the variation data of glyph `source`.
    public func copyVariations(from source: Int, to target: Int) throws {
        let moved = try glyphData(source)
        if try glyphData(target) != moved { overrides[target] = moved; isEdited = true }
    }

    /// A new table's bytes: each glyph's TupleVariationStore (`TupleVariation.encodeStore`),
    /// with the peaks that more than one tuple uses shared (most used first, as fontTools
    /// orders them).
    static func build(axisCount: Int, glyphs: [[TupleVariation]]) throws -> [UInt8] {
        var uses: [[Double]: Int] = [:], firstSeen: [[Double]] = []
        for tuples in glyphs { for t in tuples { if uses[t.peak] == nil { firstSeen.append(t.peak) }; uses[t.peak, default: 0] += 1 } }
        let counted = firstSeen.enumerated().map { (order: $0.offset, peak: $0.element, uses: uses[$0.element, default: 0]) }
        let shared = Array(
            counted.filter { $0.uses > 1 }.sorted { $0.uses != $1.uses ? $0.uses > $1.uses : $0.order < $1.order }
                .map(\.peak).prefix(0x0FFF))
        let index = Dictionary(uniqueKeysWithValues: shared.enumerated().map { ($1, $0) })
        var tuplesBytes: [UInt8] = []
        for peak in shared {
            for v in peak {
                let bits = UInt16(bitPattern: F2Dot14(clamping: v).raw); tuplesBytes += [UInt8(bits >> 8), UInt8(bits & 0xFF)]
            }
        }
        let glyphData = try ParallelWork.map(glyphs.count) { ids in
            try ids.map {
                try TupleVariation.encodeStore(glyphs[$0], sharedPeaks: index, hasY: true, dataOffsetBase: 0, what: "gvar glyph \($0)")
            }
        }
        return try bytes(
            version: (1, 0), axisCount: axisCount, sharedTuples: tuplesBytes, sharedTupleCount: shared.count, flags: 0, glyphData: glyphData
        )
    }

    /// A new table of these tuple variations, one list per glyph (what a TTX `<gvar>` says).
    public static func encoded(axisCount: Int, glyphs: [[TupleVariation]]) throws -> [UInt8] {
        try build(axisCount: axisCount, glyphs: glyphs)
    }

    public var version: (major: Int, minor: Int) { (Int(majorVersion), Int(minorVersion)) }

    public func encode() throws -> [UInt8] {
        try Self.bytes(
            version: (majorVersion, minorVersion), axisCount: Int(axisCount), sharedTuples: sharedTuples,
            sharedTupleCount: Int(sharedTupleCount), flags: flags, glyphData: try (0..<glyphCount).map { try glyphData($0) })
    }

    static func bytes(
        version: (UInt16, UInt16), axisCount: Int, sharedTuples: [UInt8], sharedTupleCount: Int, flags: UInt16,
        glyphData: [[UInt8]]
    ) throws -> [UInt8] {
        var padded = glyphData.map { d -> [UInt8] in d.count % 2 == 0 ? d : d + [0] }
        let total = padded.reduce(0) { $0 + $1.count }
        let long = total / 2 > 0xFFFF
        if long { padded = glyphData }
        let headerSize = 20 + (glyphData.count + 1) * (long ? 4 : 2)
        var w = BinaryWriter(capacity: headerSize + sharedTuples.count + total)
        w.u16(version.0); w.u16(version.1); try w.u16(axisCount, "gvar axis count"); try w.u16(sharedTupleCount, "gvar shared tuple count")
        try w.u32(headerSize, "gvar shared tuples offset"); try w.u16(glyphData.count, "gvar glyph count");
        w.u16(long ? flags | 1 : flags & ~1)
        try w.u32(headerSize + sharedTuples.count, "gvar variation data offset")
        var position = 0
        for d in padded {
            if long { try w.u32(position, "gvar data offset") } else { try w.u16(position / 2, "gvar data offset") }
            position += d.count
        }
        if long { try w.u32(position, "gvar data offset") } else { try w.u16(position / 2, "gvar data offset") }
        w.append(sharedTuples)
        for d in padded { w.append(d) }
        return w.bytes
    }
}

extension GvarTable: GlyphDataTable {}
