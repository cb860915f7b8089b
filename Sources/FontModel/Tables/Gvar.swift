/// `gvar` — TrueType glyph variations. Kept as per-glyph byte blocks so a glyph's variation data
/// can move with its outline (the all-caps edit in a variable font); everything else is copied.
public final class GvarTable: DecodableTable {
    public static let tableTag: Tag = "gvar"

    let majorVersion: UInt16, minorVersion: UInt16, axisCount: UInt16
    let sharedTuples: [UInt8]
    let sharedTupleCount: UInt16
    let flags: UInt16
    /// Each glyph's GlyphVariationData, possibly empty.
    public private(set) var glyphData: [[UInt8]]
    /// Where each glyph's data was in the file, for messages.
    private var glyphDataStarts: [Int] = []
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
        var offsets: [Int] = []
        offsets.reserveCapacity(glyphCount + 1)
        for _ in 0...glyphCount { offsets.append(long ? Int(try r.u32()) : Int(try r.u16()) * 2) }
        sharedTuples = try reader.sub(sharedTuplesOffset, Int(sharedTupleCount) * Int(axisCount) * 2).bytes.map { $0 }
        glyphData = []
        glyphData.reserveCapacity(glyphCount)
        for i in 0..<glyphCount {
            guard offsets[i + 1] >= offsets[i] else {
                throw r.error("gvar offsets run backwards at glyph \(i)")
            }
            let block = try reader.sub(dataOffset + offsets[i], offsets[i + 1] - offsets[i])
            glyphData.append(Array(block.bytes))
            glyphDataStarts.append(block.base)
        }
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
                return Double(Int16(bitPattern: UInt16(sharedTuples[i]) << 8 | UInt16(sharedTuples[i + 1]))) / 16384
            }
        }
    }

    /// Adds glyph `id`'s deltas at a normalized location to `dx`/`dy` (see
    /// `TupleVariation.accumulateStore`); `original` are its points plus the four phantom points.
    func accumulateVariations(glyph id: Int, location: [Double], original: [PointXY], ends: [Int], sharedPeaks: [[Double]],
                              into dx: inout [Double], _ dy: inout [Double], workspace: inout TupleWorkspace) throws {
        guard glyphData.indices.contains(id) else {
            throw FontError("glyph id \(id) out of range for gvar (\(glyphData.count) glyphs)", table: "gvar")
        }
        guard !glyphData[id].isEmpty else { return }
        try glyphData[id].withUnsafeBytes { buffer in
            try TupleVariation.accumulateStore(BinaryReader(buffer, base: id < glyphDataStarts.count ? glyphDataStarts[id] : 0),
                                               axisCount: Int(axisCount), sharedTuples: sharedPeaks, location: location,
                                               original: original, ends: ends, what: "glyph \(id)", into: &dx, &dy,
                                               workspace: &workspace)
        }
    }

    /// Glyph `id`'s tuple variations. `pointCount` is its point count plus the four phantom
    /// points (a composite: its components plus four).
    public func variations(glyph id: Int, pointCount: Int, sharedPeaks: [[Double]]? = nil) throws -> [TupleVariation] {
        guard glyphData.indices.contains(id) else {
            throw FontError("glyph id \(id) out of range for gvar (\(glyphData.count) glyphs)", table: "gvar")
        }
        let data = glyphData[id]
        guard !data.isEmpty else { return [] }
        return try data.withUnsafeBytes { buffer in
            try TupleVariation.decodeStore(BinaryReader(buffer, base: id < glyphDataStarts.count ? glyphDataStarts[id] : 0), headerAt: 0, axisCount: Int(axisCount),
                                           sharedTuples: sharedPeaks ?? peakTuples, pointCount: pointCount, hasY: true,
                                           what: "glyph \(id)")
        }
    }

    /// Gives glyph `target` the variation data of glyph `source`.
    public func copyVariations(from source: Int, to target: Int) throws {
        guard glyphData.indices.contains(source), glyphData.indices.contains(target) else {
            throw FontError("glyph id out of range for gvar (\(glyphData.count) glyphs)", table: "gvar")
        }
        if glyphData[target] != glyphData[source] { glyphData[target] = glyphData[source]; isEdited = true }
    }

    /// A new table's bytes: each glyph's TupleVariationStore (`TupleVariation.encodeStore`),
    /// with the peaks that more than one tuple uses shared (most used first, as fontTools
    /// orders them).
    static func build(axisCount: Int, glyphs: [[TupleVariation]]) throws -> [UInt8] {
        var uses: [[Double]: Int] = [:], firstSeen: [[Double]] = []
        for tuples in glyphs { for t in tuples { if uses[t.peak] == nil { firstSeen.append(t.peak) }; uses[t.peak, default: 0] += 1 } }
        let counted = firstSeen.enumerated().map { (order: $0.offset, peak: $0.element, uses: uses[$0.element, default: 0]) }
        let shared = Array(counted.filter { $0.uses > 1 }.sorted { $0.uses != $1.uses ? $0.uses > $1.uses : $0.order < $1.order }
            .map(\.peak).prefix(0x0FFF))
        let index = Dictionary(uniqueKeysWithValues: shared.enumerated().map { ($1, $0) })
        var tuplesBytes: [UInt8] = []
        for peak in shared { for v in peak { let bits = UInt16(bitPattern: Int16(clamping: (v * 16384).otRoundedInt)); tuplesBytes += [UInt8(bits >> 8), UInt8(bits & 0xFF)] } }
        let glyphData = try ParallelWork.map(glyphs.count) { ids in
            try ids.map { try TupleVariation.encodeStore(glyphs[$0], sharedPeaks: index, hasY: true, dataOffsetBase: 0, what: "gvar glyph \($0)") }
        }
        return try bytes(version: (1, 0), axisCount: axisCount, sharedTuples: tuplesBytes, sharedTupleCount: shared.count, flags: 0, glyphData: glyphData)
    }

    public func encode() throws -> [UInt8] {
        try Self.bytes(version: (majorVersion, minorVersion), axisCount: Int(axisCount), sharedTuples: sharedTuples,
                       sharedTupleCount: Int(sharedTupleCount), flags: flags, glyphData: glyphData)
    }

    static func bytes(version: (UInt16, UInt16), axisCount: Int, sharedTuples: [UInt8], sharedTupleCount: Int, flags: UInt16,
                      glyphData: [[UInt8]]) throws -> [UInt8] {
        var padded = glyphData.map { d -> [UInt8] in d.count % 2 == 0 ? d : d + [0] }
        let total = padded.reduce(0) { $0 + $1.count }
        let long = total / 2 > 0xFFFF
        if long { padded = glyphData }
        let headerSize = 20 + (glyphData.count + 1) * (long ? 4 : 2)
        var w = BinaryWriter(capacity: headerSize + sharedTuples.count + total)
        w.u16(version.0); w.u16(version.1); try w.u16(axisCount, "gvar axis count"); try w.u16(sharedTupleCount, "gvar shared tuple count")
        try w.u32(headerSize, "gvar shared tuples offset"); try w.u16(glyphData.count, "gvar glyph count"); w.u16(long ? flags | 1 : flags & ~1)
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
