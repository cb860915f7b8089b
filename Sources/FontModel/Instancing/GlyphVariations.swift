/// TrueType glyphs at a location: gvar's tuple deltas, scaled by each tuple's weight there,
/// untouched points inferred (IUP), added to the default outline and its four phantom points
/// (left and right side, top and bottom), then rounded as fontTools rounds.
public struct VariedGlyph: Sendable {
    /// The outline at the location: points moved, component offsets moved; bounds as stored
    /// (recomputed when encoded).
    public var glyph: TrueTypeGlyph
    /// Phantom points after the deltas, unrounded: left x, right x, top y, bottom y.
    public var left: Double, right: Double, top: Double, bottom: Double

    public var advance: Int { max(0, (right - left).otRoundedInt) }
    public var verticalAdvance: Int { max(0, (top - bottom).otRoundedInt) }
}

extension Face {
    /// A glyph's contours at a normalized location: TrueType through gvar, CFF2 through its
    /// blends (cubic curves as two off-curve points, as `outlinePoints` gives them).
    public func outlinePoints(_ id: Int, at location: [Double]) throws -> [[GlyphPoint]] {
        if let cff2 = try cff2 { return Self.points(try context("CFF2") { try cff2.outline(id, at: location).path }) }
        return try GlyphVariator(face: self).glyph(id, at: location).glyph.contours
    }

    /// A glyph's advance width at a normalized location: TrueType from its moved phantom
    /// points, otherwise hmtx's advance plus HVAR's delta (rounded as fontTools rounds).
    public func advance(_ id: Int, at location: [Double]) throws -> Int {
        if has("glyf") { return try GlyphVariator(face: self).glyph(id, at: location).advance }
        let base = try hmtx.advance(id)
        guard let hvar = try table(HvarTable.self) else { return base }
        return max(0, base + hvar.advanceDelta(id, scalars: hvar.store.scalars(at: location)).otRoundedInt)
    }
}

/// What reading glyphs at a location needs once per face, not once per glyph.
public final class GlyphVariator {
    let glyf: GlyfTable
    let gvar: GvarTable?
    let peaks: [[Double]]
    let hmtx: HmtxTable
    let vmtx: VmtxTable?
    let face: Face

    /// `variations: false` reads the outlines and metrics only (the default outline a partial
    /// instance's tuples apply to), not gvar.
    public init(face: Face, variations: Bool = true) throws {
        guard let glyf = try face.glyf else {
            throw FontError(
                "the face has no 'glyf' table: only TrueType outlines vary through gvar (CFF2 is not instanced yet)",
                path: face.path, face: face.faceLabel)
        }
        self.face = face
        self.glyf = glyf
        gvar = variations ? try face.gvar : nil
        peaks = gvar?.peakTuples ?? []
        hmtx = try face.hmtx
        vmtx = try face.vmtx
    }

    /// Glyph `id` at a normalized location.
    public func glyph(_ id: Int, at location: [Double]) throws -> VariedGlyph {
        try glyph(id, original: try glyf.glyph(id), at: location)
    }

    /// The phantom points of a glyph from its stored bounds and metrics: left, right, top, bottom.
    func phantoms(_ id: Int, bounds: GlyphBounds?) throws -> [PointXY] {
        let b = bounds ?? GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0)
        let leftX = b.xMin - (try hmtx.sideBearing(id))
        let rightX = leftX + (try hmtx.advance(id))
        var topY = 0, bottomY = 0
        if let vmtx, id < vmtx.glyphCount {
            topY = (try vmtx.sideBearing(id)) + b.yMax
            bottomY = topY - (try vmtx.advance(id))
        }
        return [PointXY(leftX, 0), PointXY(rightX, 0), PointXY(0, topY), PointXY(0, bottomY)]
    }

    /// The summed, unrounded deltas of every point (phantoms last) at a location, into `w.dx`
    /// and `w.dy`. `ends` are the outline's contour ends (phantoms are added as one-point
    /// contours here).
    func deltas(_ id: Int, coordinates: [PointXY], ends outlineEnds: [Int], at location: [Double], into w: inout TupleWorkspace) throws {
        let n = coordinates.count
        // Taken out of `w` while it is passed on, so each has one owner and is not copied.
        var dx = w.dx, dy = w.dy, ends = w.ends
        w.dx = []; w.dy = []; w.ends = []
        defer { w.dx = dx; w.dy = dy; w.ends = ends }
        dx.removeAll(keepingCapacity: true); dx.append(contentsOf: repeatElement(0, count: n))
        dy.removeAll(keepingCapacity: true); dy.append(contentsOf: repeatElement(0, count: n))
        guard let gvar, !location.allSatisfy({ $0 == 0 }) else { return }
        ends.removeAll(keepingCapacity: true)
        ends += outlineEnds
        for k in (n - 4)..<n { ends.append(k) }
        try face.context("gvar") {
            try gvar.accumulateVariations(
                glyph: id, location: location, original: coordinates, ends: ends, sharedPeaks: peaks,
                into: &dx, &dy, workspace: &w)
        }
    }

    /// A glyph's points as gvar numbers them (a composite's component offsets) and its contour
    /// ends, without the phantom points.
    static func variedPoints(_ original: TrueTypeGlyph) -> (coordinates: [PointXY], ends: [Int]) {
        var coordinates: [PointXY] = []
        var ends: [Int] = []
        if original.isComposite {
            for (i, c) in original.components.enumerated() {
                let xy = c.flags & GlyphComponent.argsAreXYValues != 0
                coordinates.append(xy ? PointXY(c.arg1, c.arg2) : PointXY(0, 0))
                ends.append(i)
            }
        } else {
            for contour in original.contours {
                for p in contour { coordinates.append(PointXY(p.x, p.y)) }
                ends.append(coordinates.count - 1)
            }
        }
        return (coordinates, ends)
    }

    /// Glyph `id`'s tuple variations in a partial instance (`TupleVariation.forPartialInstance`):
    /// what it keeps of the glyph in gvar. With `newDefault` (the instance's glyphs, which the
    /// kept tuples apply to), the points a reader infers are left out (`IUPOptimizer`).
    func partialVariations(_ id: Int, limits: AxisLimits, newDefault: GlyphVariator? = nil, optimizer: inout IUPOptimizer) throws
        -> [TupleVariation]
    {
        guard let gvar else { return [] }
        let (coordinates, ends) = try pointsWithPhantoms(id)
        let tuples = try face.context("gvar") { try gvar.variations(glyph: id, pointCount: coordinates.count, sharedPeaks: peaks) }
        let kept = TupleVariation.forPartialInstance(
            tuples, limits: limits, pointCount: coordinates.count, hasY: true, original: coordinates, ends: ends)
        guard let newDefault, !kept.isEmpty else { return kept }
        let (moved, movedEnds) = try newDefault.pointsWithPhantoms(id)
        guard moved.count == coordinates.count else { return kept }
        return try kept.map { try $0.droppingInferredPoints(original: moved, ends: movedEnds, optimizer: &optimizer) }
    }

    /// A glyph's points as gvar numbers them, its four phantom points last, and the contour
    /// ends (each phantom point a contour of its own).
    func pointsWithPhantoms(_ id: Int) throws -> (coordinates: [PointXY], ends: [Int]) {
        let glyph = try glyf.glyph(id)
        var (coordinates, ends) = Self.variedPoints(glyph)
        coordinates += try phantoms(id, bounds: glyph.bounds)
        for k in (coordinates.count - 4)..<coordinates.count { ends.append(k) }
        return (coordinates, ends)
    }

    /// Glyph `id` (decoded as `original`) at a normalized location.
    func glyph(_ id: Int, original: TrueTypeGlyph, at location: [Double]) throws -> VariedGlyph {
        var (coordinates, ends) = Self.variedPoints(original)
        let outlineCount = coordinates.count
        let phantom = try phantoms(id, bounds: original.bounds)
        coordinates += phantom
        var w = TupleWorkspace()
        try deltas(id, coordinates: coordinates, ends: ends, at: location, into: &w)
        let (dx, dy) = (w.dx, w.dy)
        var glyph = original
        if original.isComposite {
            for i in glyph.components.indices where glyph.components[i].flags & GlyphComponent.argsAreXYValues != 0 {
                glyph.components[i].arg1 = (Double(coordinates[i].x) + dx[i]).otRoundedInt
                glyph.components[i].arg2 = (Double(coordinates[i].y) + dy[i]).otRoundedInt
            }
        } else {
            var k = 0
            for c in glyph.contours.indices {
                for p in glyph.contours[c].indices {
                    glyph.contours[c][p].x = (Double(coordinates[k].x) + dx[k]).otRoundedInt
                    glyph.contours[c][p].y = (Double(coordinates[k].y) + dy[k]).otRoundedInt
                    k += 1
                }
            }
        }
        let n = outlineCount
        return VariedGlyph(
            glyph: glyph,
            left: Double(phantom[0].x) + dx[n], right: Double(phantom[1].x) + dx[n + 1],
            top: Double(phantom[2].y) + dy[n + 2], bottom: Double(phantom[3].y) + dy[n + 3])
    }

    /// A simple glyph at a location, as bytes ready to store: its bounds, its unrounded phantom
    /// points (left, right, top, bottom) and the counts maxp needs.
    typealias VariedSimpleGlyph = (
        bytes: [UInt8], bounds: GlyphBounds?, phantoms: (Double, Double, Double, Double),
        counts: (points: Int, contours: Int, instructions: Int)
    )

    /// A simple glyph at a location straight from its bytes to new bytes (flat arrays, no
    /// contour objects): what instancing runs for every simple glyph. Returns the encoded
    /// glyph, its bounds, and the moved phantom points (left, right, top, bottom).
    func simpleGlyphBytes(_ id: Int, at location: [Double], overlap: Bool, workspace w: inout TupleWorkspace) throws -> VariedSimpleGlyph {
        var points = TrueTypeGlyph.SimplePoints()
        var stored: GlyphBounds?
        try glyf.withGlyphReader(id) { reader in
            guard reader.count > 0 else { return }
            var r = reader
            let contourCount = Int(try r.i16())
            stored = GlyphBounds(xMin: Int(try r.i16()), yMin: Int(try r.i16()), xMax: Int(try r.i16()), yMax: Int(try r.i16()))
            guard contourCount >= 0 else { throw r.error("glyph \(id) is a composite, not a simple glyph", at: 0) }
            points = try TrueTypeGlyph.decodeSimplePoints(&r, contourCount: contourCount)
        }
        let count = points.xs.count
        var coordinates: [PointXY] = []
        coordinates.reserveCapacity(count + 4)
        for i in 0..<count { coordinates.append(PointXY(points.xs[i], points.ys[i])) }
        let phantom = try phantoms(id, bounds: count == 0 ? nil : stored)
        coordinates += phantom
        try deltas(id, coordinates: coordinates, ends: points.ends, at: location, into: &w)
        let (dx, dy) = (w.dx, w.dy)
        for i in 0..<count {
            points.xs[i] = (Double(points.xs[i]) + dx[i]).otRoundedInt
            points.ys[i] = (Double(points.ys[i]) + dy[i]).otRoundedInt
        }
        let (bytes, bounds) = try TrueTypeGlyph.encodeSimple(points, overlap: overlap)
        return (
            bytes, bounds,
            (
                Double(phantom[0].x) + dx[count], Double(phantom[1].x) + dx[count + 1],
                Double(phantom[2].y) + dy[count + 2], Double(phantom[3].y) + dy[count + 3]
            ),
            (count, points.ends.count, points.instructions.count)
        )
    }

    /// A composite's components as stored: where each one's flags and arguments are, its
    /// glyph and offset. nil when a component is placed by matching points or is scaled,
    /// which the byte-level path below does not handle.
    struct StoredComponent {
        var flagsAt: Int, argsAt: Int, words: Bool, glyph: Int, x: Int, y: Int
    }

    static func storedComponents(_ reader: BinaryReader) throws -> (components: [StoredComponent], instructions: Int)? {
        var r = reader
        try r.seek(10)
        var out: [StoredComponent] = []
        var flags: UInt16
        repeat {
            let flagsAt = r.offset
            flags = try r.u16()
            let glyph = Int(try r.u16())
            let argsAt = r.offset
            let words = flags & GlyphComponent.argsAreWords != 0
            guard flags & GlyphComponent.argsAreXYValues != 0,
                flags & (GlyphComponent.weHaveAScale | GlyphComponent.weHaveAnXAndYScale | GlyphComponent.weHaveATwoByTwo) == 0
            else { return nil }
            let x = words ? Int(try r.i16()) : Int(try r.i8()), y = words ? Int(try r.i16()) : Int(try r.i8())
            out.append(StoredComponent(flagsAt: flagsAt, argsAt: argsAt, words: words, glyph: glyph, x: x, y: y))
            guard out.count <= 0xFFFF else { throw r.error("composite has too many components") }
        } while flags & GlyphComponent.moreComponents != 0
        let instructions = flags & GlyphComponent.weHaveInstructions != 0 ? Int(try r.u16()) : 0
        return (out, instructions)
    }

    /// A composite of translated components at a location, patched in its own bytes: offsets
    /// moved, the overlap flag set, bounds from the components' (already moved) bounds. nil
    /// when the glyph needs the general path (scaled or point-matched components, a moved
    /// offset that no longer fits its byte-sized arguments, a component past the glyph count).
    func compositeGlyphBytes(
        _ id: Int, at location: [Double], overlap: Bool, componentBounds: [GlyphBounds?],
        workspace w: inout TupleWorkspace
    ) throws
        -> (bytes: [UInt8], bounds: GlyphBounds?, phantoms: (Double, Double, Double, Double), glyphs: [Int], instructions: Int)?
    {
        try glyf.withGlyphReader(id) { reader in
            guard let (components, instructions) = try Self.storedComponents(reader) else { return nil }
            guard components.allSatisfy({ $0.glyph < componentBounds.count }) else { return nil }
            var r = reader
            try r.seek(2)
            let stored = GlyphBounds(xMin: Int(try r.i16()), yMin: Int(try r.i16()), xMax: Int(try r.i16()), yMax: Int(try r.i16()))
            var coordinates = components.map { PointXY($0.x, $0.y) }
            let phantom = try phantoms(id, bounds: stored)
            coordinates += phantom
            try deltas(id, coordinates: coordinates, ends: Array(components.indices), at: location, into: &w)
            let (dx, dy) = (w.dx, w.dy)
            var bytes = Array(reader.bytes)
            var union: GlyphBounds?
            for (i, c) in components.enumerated() {
                let x = (Double(c.x) + dx[i]).otRoundedInt, y = (Double(c.y) + dy[i]).otRoundedInt
                if c.words {
                    guard (-32768...32767).contains(x), (-32768...32767).contains(y) else { return nil }
                    bytes[c.argsAt] = UInt8(truncatingIfNeeded: x >> 8); bytes[c.argsAt + 1] = UInt8(truncatingIfNeeded: x)
                    bytes[c.argsAt + 2] = UInt8(truncatingIfNeeded: y >> 8); bytes[c.argsAt + 3] = UInt8(truncatingIfNeeded: y)
                } else {
                    guard (-128...127).contains(x), (-128...127).contains(y) else { return nil }
                    bytes[c.argsAt] = UInt8(truncatingIfNeeded: x); bytes[c.argsAt + 1] = UInt8(truncatingIfNeeded: y)
                }
                if let cb = componentBounds[c.glyph] {
                    let moved = GlyphBounds(xMin: cb.xMin + x, yMin: cb.yMin + y, xMax: cb.xMax + x, yMax: cb.yMax + y)
                    union = union?.union(moved) ?? moved
                }
            }
            if overlap { bytes[components[0].flagsAt] |= UInt8(GlyphComponent.overlapCompound >> 8) }
            let b = union ?? GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0)
            for (k, v) in [b.xMin, b.yMin, b.xMax, b.yMax].enumerated() {
                guard (-32768...32767).contains(v) else { throw FontError("glyph \(id): bounds \(v) do not fit Int16", table: "glyf") }
                bytes[2 + 2 * k] = UInt8(truncatingIfNeeded: v >> 8); bytes[3 + 2 * k] = UInt8(truncatingIfNeeded: v)
            }
            while bytes.count % 4 != 0 { bytes.append(0) }
            let n = components.count
            return (
                bytes, union,
                (
                    Double(phantom[0].x) + dx[n], Double(phantom[1].x) + dx[n + 1],
                    Double(phantom[2].y) + dy[n + 2], Double(phantom[3].y) + dy[n + 3]
                ),
                components.map(\.glyph), instructions
            )
        }
    }
}

extension Face {
    /// How many points gvar numbers for a glyph: its outline points (a composite: its
    /// components) plus the four phantom points.
    public func gvarPointCount(_ id: Int) throws -> Int {
        guard let glyf = try glyf else { throw FontError("gvar needs glyf outlines; the face has none") }
        return GlyphVariator.variedPoints(try glyf.glyph(id)).coordinates.count + 4
    }
}
