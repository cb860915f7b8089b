/// `glyf` — TrueType outlines. A glyph is decoded when asked for; unedited glyphs are written back
/// by copying their bytes, edited ones are re-encoded with fresh bounds.
public final class GlyfTable: DecodableTable {
    public static let tableTag: Tag = "glyf"
    public static let maxComponentDepth = 32
    /// Most points a composite may have once flattened: maxp.maxCompositePoints is 16 bits.
    public static let maximumFlattenedPoints = 65535

    /// Points into `sourceBytes`, which this table keeps alive.
    let data: BinaryReader
    var sourceBytes: FontBytes?
    public func keepSource(_ bytes: FontBytes) { sourceBytes = bytes }
    let loca: LocaTable
    /// Glyph data replacing the original, by glyph id: empty until the first edit, then one
    /// slot per glyph (an instance replaces every glyph; a dictionary spent more time hashing
    /// and growing than the glyphs took to store).
    private var overrides: [[UInt8]?] = []
    private func replacement(_ id: Int) -> [UInt8]? { id < overrides.count ? overrides[id] : nil }
    public private(set) var isEdited = false
    private var compiled: Compiled?
    /// File and face, for errors raised when glyphs are decoded later.
    var origin: (path: String?, face: Int?) = (nil, nil)

    func located<T>(_ body: () throws -> T) throws -> T {
        try withContext(path: origin.path, face: origin.face, table: "glyf", body)
    }
    private var cachedStatistics: Statistics?

    struct Compiled {
        var chunks: [ByteChunk]
        var offsets: [Int]
        var isShortLoca: Bool
    }

    /// The maxp fields glyf determines.
    public struct Statistics: Equatable {
        public var maxPoints = 0, maxContours = 0, maxCompositePoints = 0, maxCompositeContours = 0
        public var maxComponentElements = 0, maxComponentDepth = 0, maxSizeOfInstructions = 0
    }

    init(data: BinaryReader, loca: LocaTable) {
        self.data = data
        self.loca = loca
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> GlyfTable {
        let loca = try face.required(LocaTable.self)
        if let last = loca.offsets.last, last > reader.count {
            throw FontError("loca's last offset \(last) is past the end of glyf (\(reader.count) bytes)", table: "loca")
        }
        let table = GlyfTable(data: reader, loca: loca)
        table.origin = (face.path, face.faceLabel)
        let bytes = face.bytes
        table.releasePages = { bytes.dropPages($0) }
        loca.glyf = table
        return table
    }

    public var glyphCount: Int { loca.offsets.count - 1 }

    func checkID(_ id: Int) throws {
        guard id >= 0, id < glyphCount else { throw FontError("glyph id \(id) out of range (0..<\(glyphCount))", table: "glyf") }
    }

    /// The glyph's current bytes (empty for an empty glyph).
    public func glyphData(_ id: Int) throws -> [UInt8] {
        try checkID(id)
        if let o = replacement(id) { return o }
        return try Array(originalReader(id).bytes)
    }

    func originalReader(_ id: Int) throws -> BinaryReader {
        let start = loca.offsets[id], end = loca.offsets[id + 1]
        return try data.sub(start, end - start)
    }

    /// Runs `body` with a reader over the glyph's current bytes, without copying unedited glyphs.
    func withGlyphReader<T>(_ id: Int, _ body: (BinaryReader) throws -> T) throws -> T {
        try checkID(id)
        if let o = replacement(id) { return try o.withUnsafeBytes { try body(BinaryReader($0)) } }
        return try body(try originalReader(id))
    }

    /// Whether glyph `id` is a composite (its numberOfContours is negative), without decoding it.
    public func isComposite(_ id: Int) throws -> Bool {
        try withGlyphReader(id) { r in try r.count >= 2 && r.u16(at: 0) & 0x8000 != 0 }
    }

    public func glyph(_ id: Int) throws -> TrueTypeGlyph {
        do {
            return try withGlyphReader(id) { try TrueTypeGlyph.decode($0) }
        } catch let error as FontError {
            var e = error
            e.message = "glyph \(id): " + e.message
            throw e.adding(path: origin.path, face: origin.face, table: "glyf")
        }
    }

    /// Bounds from the glyph header; nil for an empty glyph.
    public func bounds(_ id: Int) throws -> GlyphBounds? {
        try withGlyphReader(id) { reader in
            guard reader.count > 0 else { return nil }
            var r = reader
            _ = try r.i16()
            return GlyphBounds(xMin: Int(try r.i16()), yMin: Int(try r.i16()), xMax: Int(try r.i16()), yMax: Int(try r.i16()))
        }
    }

    /// Bounds of every glyph (from the glyph headers), computed once per edit state; faces
    /// sharing the table share the work.
    public func allBounds() throws -> [GlyphBounds?] {
        try survey()
        return cachedBounds ?? []
    }
    private var cachedBounds: [GlyphBounds?]?

    /// Called with the glyph data once a pass over every glyph is done, so the font can let
    /// those mapped pages go (set by the face that decoded the table).
    var releasePages: ((UnsafeRawBufferPointer) -> Void)?

    /// Replaces a glyph's bytes as they are (used to copy one glyph onto another).
    public func setGlyphData(_ id: Int, _ bytes: [UInt8]) throws {
        try setGlyphData(CollectionOfOne((id, bytes)))
    }

    /// Replaces many glyphs' bytes at once (an instance replaces every glyph): the table's
    /// state is touched once, not once per glyph.
    public func setGlyphData(_ replacements: some Sequence<(Int, [UInt8])>) throws {
        var slots = overrides.isEmpty ? Array(repeating: nil, count: glyphCount) : overrides
        overrides = []   // so `slots` is the only reference and is changed in place
        defer { overrides = slots; edited() }
        for (id, bytes) in replacements {
            try checkID(id)
            var padded = bytes
            while padded.count % 4 != 0 { padded.append(0) }
            slots[id] = padded
        }
    }

    /// Replaces a glyph with a new outline; its bounds are recomputed (composites from their components).
    public func setGlyph(_ id: Int, _ glyph: TrueTypeGlyph) throws {
        try located { try replaceGlyph(id, glyph) }
    }

    private func replaceGlyph(_ id: Int, _ glyph: TrueTypeGlyph) throws {
        try checkID(id)
        for c in glyph.components {
            try checkID(c.glyphID)
            if c.glyphID == id { throw FontError("glyph \(id) cannot use itself as a component", table: "glyf") }
        }
        let composite = glyph.isComposite ? try compositeBounds(glyph, depth: 0, visiting: [id]) : nil
        try setGlyphData(id, try glyph.encode(compositeBounds: composite))
    }

    private func edited() {
        isEdited = true
        compiled = nil
        cachedStatistics = nil
        cachedBounds = nil
    }

    // MARK: writing

    func compile() throws -> Compiled {
        if let compiled { return compiled }
        var chunks: [ByteChunk] = []
        var offsets = [0]
        offsets.reserveCapacity(glyphCount + 1)
        var position = 0
        var runStart: Int?   // start of a run of unedited glyphs, copied as one chunk
        for id in 0..<glyphCount {
            if let o = replacement(id) {
                if let s = runStart { chunks.append(.borrowed(try data.sub(s, loca.offsets[id] - s).bytes)); runStart = nil }
                chunks.append(.owned(o))
                position += o.count
            } else {
                if runStart == nil { runStart = loca.offsets[id] }
                position += loca.offsets[id + 1] - loca.offsets[id]
            }
            offsets.append(position)
        }
        if let s = runStart, let end = loca.offsets.last { chunks.append(.borrowed(try data.sub(s, end - s).bytes)) }
        let short = position / 2 <= 0xFFFF && offsets.allSatisfy { $0 % 2 == 0 }
        let result = Compiled(chunks: chunks, offsets: offsets, isShortLoca: short)
        compiled = result
        return result
    }

    public func encodeChunks() throws -> [ByteChunk] { try compile().chunks }

    public func encode() throws -> [UInt8] {
        var out: [UInt8] = []
        for chunk in try compile().chunks { chunk.withBytes { out.append(contentsOf: $0) } }
        return out
    }

    // MARK: statistics and bounds

    /// maxp's glyph maxima, computed over every glyph (composites flattened).
    public func statistics() throws -> Statistics {
        try survey()
        return cachedStatistics ?? Statistics()
    }

    /// One pass over every glyph header: maxp statistics and bounds together.
    /// Takes what a pass over every glyph already worked out (instancing moves points but keeps
    /// every count, and bounds each glyph as it goes), so saving need not survey again. Call
    /// after the pass's last glyph edit.
    func adoptSurvey(_ statistics: Statistics, bounds: [GlyphBounds?]) {
        guard bounds.count == glyphCount else { return }
        cachedStatistics = statistics
        cachedBounds = bounds
    }

    private func survey() throws {
        guard cachedStatistics == nil || cachedBounds == nil else { return }
        try located { try computeSurvey() }
        releasePages?(data.bytes)
    }

    private func computeSurvey() throws {
        var allBounds = [GlyphBounds?](repeating: nil, count: glyphCount)
        var s = Statistics()
        // Per glyph: (points, contours, depth) after flattening; nil while being computed (cycle check).
        var memo = [(points: Int, contours: Int, depth: Int)?](repeating: nil, count: glyphCount)
        var visiting = Set<Int>()
        func measure(_ id: Int, level: Int) throws -> (points: Int, contours: Int, depth: Int) {
            if let m = memo[id] { return m }
            guard level <= Self.maxComponentDepth else {
                throw FontError("composite glyphs nest deeper than \(Self.maxComponentDepth) levels at glyph \(id)", table: "glyf")
            }
            guard visiting.insert(id).inserted else {
                throw FontError("composite glyph \(id) references itself through its components", table: "glyf")
            }
            defer { visiting.remove(id) }
            var result = (points: 0, contours: 0, depth: 0)
            let decoded: (contours: Int, points: Int, instructions: Int, composite: TrueTypeGlyph?) = try withGlyphReader(id) { reader in
                var r = reader
                guard r.count > 0 else { return (0, 0, 0, nil) }
                let contours = Int(try r.i16())
                allBounds[id] = GlyphBounds(xMin: Int(try r.i16()), yMin: Int(try r.i16()), xMax: Int(try r.i16()), yMax: Int(try r.i16()))
                if contours < 0 { return (0, 0, 0, try TrueTypeGlyph.decode(reader)) }
                var points = 0
                if contours > 0 {
                    try r.seek(10 + 2 * (contours - 1))
                    points = Int(try r.u16()) + 1
                }
                try r.seek(10 + 2 * contours)
                return (contours, points, Int(try r.u16()), nil)
            }
            do {
                if let glyph = decoded.composite {
                    s.maxComponentElements = max(s.maxComponentElements, glyph.components.count)
                    s.maxSizeOfInstructions = max(s.maxSizeOfInstructions, glyph.instructions.count)
                    var depth = 0
                    for c in glyph.components {
                        guard c.glyphID < glyphCount else {
                            throw FontError("composite glyph \(id) uses glyph \(c.glyphID), which does not exist", table: "glyf")
                        }
                        let m = try measure(c.glyphID, level: level + 1)
                        // Saturating: components that fan out must not overflow the count.
                        result.points = min(result.points + m.points, 1 << 40)
                        result.contours = min(result.contours + m.contours, 1 << 40)
                        depth = max(depth, m.depth)
                    }
                    result.depth = depth + 1
                    s.maxCompositePoints = max(s.maxCompositePoints, result.points)
                    s.maxCompositeContours = max(s.maxCompositeContours, result.contours)
                    s.maxComponentDepth = max(s.maxComponentDepth, result.depth)
                } else {
                    s.maxSizeOfInstructions = max(s.maxSizeOfInstructions, decoded.instructions)
                    s.maxPoints = max(s.maxPoints, decoded.points)
                    s.maxContours = max(s.maxContours, decoded.contours)
                    result = (decoded.points, decoded.contours, 0)
                }
            }
            memo[id] = result
            return result
        }
        for id in 0..<glyphCount { _ = try measure(id, level: 0) }
        cachedStatistics = s
        cachedBounds = allBounds
    }

    /// The points of a glyph with its components placed, for composite bounds.
    func flattenedPoints(_ id: Int, depth: Int, visiting: Set<Int>) throws -> [GlyphPoint] {
        guard depth <= Self.maxComponentDepth else { throw FontError("composite glyphs nest too deep at glyph \(id)", table: "glyf") }
        let g = try glyph(id)
        if !g.isComposite { return g.contours.flatMap { $0 } }
        return try placeComponents(g, depth: depth, visiting: visiting)
    }

    private func placeComponents(_ g: TrueTypeGlyph, depth: Int, visiting: Set<Int>) throws -> [GlyphPoint] {
        var result: [GlyphPoint] = []
        for c in g.components {
            guard !visiting.contains(c.glyphID) else {
                throw FontError("composite glyph references itself through glyph \(c.glyphID)", table: "glyf")
            }
            try checkID(c.glyphID)
            let child = try flattenedPoints(c.glyphID, depth: depth + 1, visiting: visiting.union([c.glyphID]))
            let t = c.transform
            func apply(_ p: GlyphPoint) -> (Double, Double) {
                let x = Double(p.x), y = Double(p.y)
                return ((x * Double(t.xx) + y * Double(t.yx)) / F2Dot14.scale, (x * Double(t.xy) + y * Double(t.yy)) / F2Dot14.scale)
            }
            var dx = 0.0, dy = 0.0
            if c.flags & GlyphComponent.argsAreXYValues != 0 {
                dx = Double(c.arg1); dy = Double(c.arg2)
            } else {
                guard c.arg1 < result.count, c.arg2 < child.count else {
                    throw FontError("component point numbers (\(c.arg1), \(c.arg2)) out of range", table: "glyf")
                }
                let (cx, cy) = apply(child[c.arg2])
                dx = Double(result[c.arg1].x) - cx; dy = Double(result[c.arg1].y) - cy
            }
            guard result.count + child.count <= Self.maximumFlattenedPoints else {
                throw FontError(
                    "a composite glyph flattens to more than \(Self.maximumFlattenedPoints) points (components fan out)", table: "glyf")
            }
            for p in child {
                let (x, y) = apply(p)
                result.append(GlyphPoint(x: Int((x + dx).rounded()), y: Int((y + dy).rounded()), onCurve: p.onCurve))
            }
        }
        return result
    }

    func compositeBounds(_ g: TrueTypeGlyph, depth: Int, visiting: Set<Int>) throws -> GlyphBounds? {
        TrueTypeGlyph.pointBounds(try placeComponents(g, depth: depth, visiting: visiting))
    }
}

extension GlyfTable: GlyphDataTable {}
