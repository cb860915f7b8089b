/// A point of a TrueType contour.
public struct GlyphPoint: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var onCurve: Bool
    public init(x: Int, y: Int, onCurve: Bool) { self.x = x; self.y = y; self.onCurve = onCurve }
}

/// A glyph's bounding box in font units.
public struct GlyphBounds: Equatable, Sendable {
    public var xMin: Int, yMin: Int, xMax: Int, yMax: Int
    public init(xMin: Int, yMin: Int, xMax: Int, yMax: Int) {
        self.xMin = xMin; self.yMin = yMin; self.xMax = xMax; self.yMax = yMax
    }
    public func union(_ o: GlyphBounds) -> GlyphBounds {
        GlyphBounds(xMin: min(xMin, o.xMin), yMin: min(yMin, o.yMin), xMax: max(xMax, o.xMax), yMax: max(yMax, o.yMax))
    }
}

/// One component of a composite glyph, with every flag kept as read.
public struct GlyphComponent: Equatable, Sendable {
    public static let argsAreWords: UInt16 = 0x0001
    public static let argsAreXYValues: UInt16 = 0x0002
    public static let roundXYToGrid: UInt16 = 0x0004
    public static let weHaveAScale: UInt16 = 0x0008
    public static let moreComponents: UInt16 = 0x0020
    public static let weHaveAnXAndYScale: UInt16 = 0x0040
    public static let weHaveATwoByTwo: UInt16 = 0x0080
    public static let weHaveInstructions: UInt16 = 0x0100
    public static let useMyMetrics: UInt16 = 0x0200
    public static let overlapCompound: UInt16 = 0x0400
    public static let scaledComponentOffset: UInt16 = 0x0800
    public static let unscaledComponentOffset: UInt16 = 0x1000

    public var glyphID: Int
    /// Flags as read; size and "more"/"instructions" bits are recomputed when written.
    public var flags: UInt16
    /// x/y offset when `argsAreXYValues`, else the point numbers to match.
    public var arg1: Int
    public var arg2: Int
    /// 2x2 transform in F2Dot14 units (16384 = 1.0): xx, xy (scale01), yx (scale10), yy.
    public var transform: (xx: Int, xy: Int, yx: Int, yy: Int)

    public init(
        glyphID: Int, flags: UInt16 = GlyphComponent.argsAreXYValues, arg1: Int, arg2: Int,
        transform: (xx: Int, xy: Int, yx: Int, yy: Int) = (16384, 0, 0, 16384)
    ) {
        self.glyphID = glyphID; self.flags = flags; self.arg1 = arg1; self.arg2 = arg2; self.transform = transform
    }

    public static func == (a: GlyphComponent, b: GlyphComponent) -> Bool {
        a.glyphID == b.glyphID && a.flags == b.flags && a.arg1 == b.arg1 && a.arg2 == b.arg2
            && a.transform.xx == b.transform.xx && a.transform.xy == b.transform.xy
            && a.transform.yx == b.transform.yx && a.transform.yy == b.transform.yy
    }
}

/// A decoded TrueType glyph: contours or components, plus its instructions as bytes.
public struct TrueTypeGlyph: Equatable, Sendable {
    public var contours: [[GlyphPoint]]
    public var components: [GlyphComponent]
    public var instructions: [UInt8]
    /// Bounds as stored in the glyph header (recomputed when the glyph is encoded).
    public var bounds: GlyphBounds?
    /// OVERLAP_SIMPLE flag on the first point.
    public var overlapSimple: Bool

    public init(
        contours: [[GlyphPoint]] = [], components: [GlyphComponent] = [], instructions: [UInt8] = [],
        bounds: GlyphBounds? = nil, overlapSimple: Bool = false
    ) {
        self.contours = contours; self.components = components; self.instructions = instructions
        self.bounds = bounds; self.overlapSimple = overlapSimple
    }

    public var isComposite: Bool { !components.isEmpty }
    public var isEmpty: Bool { contours.isEmpty && components.isEmpty }
    public var pointCount: Int { contours.reduce(0) { $0 + $1.count } }

    /// Whether gvar's deltas for `other` fit this glyph: as many contours of as many points,
    /// and as many components (each has one point).
    public func hasSamePoints(as other: TrueTypeGlyph) -> Bool {
        contours.map(\.count) == other.contours.map(\.count) && components.count == other.components.count
    }

    /// Decodes glyph data (the bytes between two loca offsets). Empty data is an empty glyph.
    public static func decode(_ reader: BinaryReader) throws -> TrueTypeGlyph {
        guard reader.count > 0 else { return TrueTypeGlyph() }
        var r = reader
        let numberOfContours = Int(try r.i16())
        let bounds = GlyphBounds(xMin: Int(try r.i16()), yMin: Int(try r.i16()), xMax: Int(try r.i16()), yMax: Int(try r.i16()))
        if numberOfContours >= 0 {
            return try decodeSimple(&r, contourCount: numberOfContours, bounds: bounds)
        }
        guard numberOfContours == -1 else {
            throw r.error("numberOfContours \(numberOfContours) is negative but not -1 (composite)", at: 0)
        }
        return try decodeComposite(&r, bounds: bounds)
    }

    /// A simple glyph's points as flat arrays: what instancing and the outline decoder share.
    public struct SimplePoints {
        /// Last point index of each contour.
        public var ends: [Int] = []
        /// Flag bytes as stored (bit 0: on curve; bit 6 on the first: OVERLAP_SIMPLE).
        public var flags: [UInt8] = []
        public var xs: [Int] = []
        public var ys: [Int] = []
        public var instructions: [UInt8] = []
        public init() {}
    }

    /// Reads a simple glyph's contours after the 10-byte header.
    static func decodeSimplePoints(_ r: inout BinaryReader, contourCount: Int) throws -> SimplePoints {
        var out = SimplePoints()
        out.ends.reserveCapacity(contourCount)
        var previous = -1
        for _ in 0..<contourCount {
            let end = Int(try r.u16())
            guard end > previous else {
                throw r.error("endPtsOfContours not increasing (\(end) after \(previous))", at: r.offset - 2)
            }
            out.ends.append(end)
            previous = end
        }
        let pointCount = (out.ends.last ?? -1) + 1
        let instructionLength = Int(try r.u16())
        out.instructions = try r.bytes(instructionLength)
        // Each point needs at least one flag byte: refuse counts the data cannot hold before allocating.
        guard pointCount <= r.remaining else {
            throw r.error("glyph claims \(pointCount) points, more than its \(r.remaining) remaining bytes can hold")
        }
        out.flags = [UInt8](repeating: 0, count: pointCount)
        var i = 0
        while i < pointCount {
            let flag = try r.u8()
            out.flags[i] = flag
            i += 1
            if flag & 0x08 != 0 {
                let repeatCount = Int(try r.u8())
                guard repeatCount <= pointCount - i else { throw r.error("flag repeat runs past the last point") }
                for _ in 0..<repeatCount { out.flags[i] = flag; i += 1 }
            }
        }
        out.xs = [Int](repeating: 0, count: pointCount)
        out.ys = out.xs
        var value = 0
        for j in 0..<pointCount {
            let f = out.flags[j]
            if f & 0x02 != 0 {
                let d = Int(try r.u8()); value += f & 0x10 != 0 ? d : -d
            } else if f & 0x10 == 0 {
                value += Int(try r.i16())
            }
            out.xs[j] = value
        }
        value = 0
        for j in 0..<pointCount {
            let f = out.flags[j]
            if f & 0x04 != 0 {
                let d = Int(try r.u8()); value += f & 0x20 != 0 ? d : -d
            } else if f & 0x20 == 0 {
                value += Int(try r.i16())
            }
            out.ys[j] = value
        }
        return out
    }

    private static func decodeSimple(_ r: inout BinaryReader, contourCount: Int, bounds: GlyphBounds) throws -> TrueTypeGlyph {
        let p = try decodeSimplePoints(&r, contourCount: contourCount)
        var contours: [[GlyphPoint]] = []
        contours.reserveCapacity(contourCount)
        var start = 0
        for end in p.ends {
            contours.append((start...end).map { GlyphPoint(x: p.xs[$0], y: p.ys[$0], onCurve: p.flags[$0] & 0x01 != 0) })
            start = end + 1
        }
        return TrueTypeGlyph(
            contours: contours, instructions: p.instructions, bounds: bounds,
            overlapSimple: (p.flags.first ?? 0) & 0x40 != 0)
    }

    private static func decodeComposite(_ r: inout BinaryReader, bounds: GlyphBounds) throws -> TrueTypeGlyph {
        var components: [GlyphComponent] = []
        var flags: UInt16
        repeat {
            flags = try r.u16()
            let glyphID = Int(try r.u16())
            let arg1: Int, arg2: Int
            switch (flags & argsWords != 0, flags & GlyphComponent.argsAreXYValues != 0) {
            case (true, true): arg1 = Int(try r.i16()); arg2 = Int(try r.i16())
            case (true, false): arg1 = Int(try r.u16()); arg2 = Int(try r.u16())
            case (false, true): arg1 = Int(try r.i8()); arg2 = Int(try r.i8())
            case (false, false): arg1 = Int(try r.u8()); arg2 = Int(try r.u8())
            }
            var t = (xx: 16384, xy: 0, yx: 0, yy: 16384)
            if flags & GlyphComponent.weHaveAScale != 0 {
                let s = Int(try r.i16()); t.xx = s; t.yy = s
            } else if flags & GlyphComponent.weHaveAnXAndYScale != 0 {
                t.xx = Int(try r.i16()); t.yy = Int(try r.i16())
            } else if flags & GlyphComponent.weHaveATwoByTwo != 0 {
                t.xx = Int(try r.i16()); t.xy = Int(try r.i16()); t.yx = Int(try r.i16()); t.yy = Int(try r.i16())
            }
            components.append(GlyphComponent(glyphID: glyphID, flags: flags, arg1: arg1, arg2: arg2, transform: t))
            guard components.count <= 0xFFFF else { throw r.error("composite has too many components") }
        } while flags & GlyphComponent.moreComponents != 0
        var instructions: [UInt8] = []
        if flags & GlyphComponent.weHaveInstructions != 0 {
            instructions = try r.bytes(Int(try r.u16()))
        }
        return TrueTypeGlyph(components: components, instructions: instructions, bounds: bounds)
    }
    private static let argsWords = GlyphComponent.argsAreWords

    /// Whether a composite carries an instructions field: it has instructions, or its last
    /// component says it does (some fonts give composites an empty program; kept as read).
    public var hasInstructions: Bool {
        !instructions.isEmpty || (components.last.map { $0.flags & GlyphComponent.weHaveInstructions != 0 } ?? false)
    }

    /// Encodes the glyph. `bounds` must be given for composites (they depend on other glyphs);
    /// simple glyphs compute theirs from the points.
    public func encode(compositeBounds: GlyphBounds? = nil) throws -> [UInt8] {
        if isEmpty { return [] }
        var w = BinaryWriter(capacity: 64)
        if isComposite {
            let b = compositeBounds ?? bounds ?? GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0)
            w.i16(-1); try writeBounds(b, &w)
            for (i, c) in components.enumerated() {
                guard (0...0xFFFF).contains(c.glyphID) else { throw FontError("component glyph id \(c.glyphID) out of range") }
                var flags =
                    c.flags
                    & ~(GlyphComponent.argsAreWords | GlyphComponent.moreComponents | GlyphComponent.weHaveInstructions
                    | GlyphComponent.weHaveAScale | GlyphComponent.weHaveAnXAndYScale | GlyphComponent.weHaveATwoByTwo)
                let xy = c.flags & GlyphComponent.argsAreXYValues != 0
                let fitsByte =
                    xy
                    ? ((-128...127).contains(c.arg1) && (-128...127).contains(c.arg2))
                    : ((0...255).contains(c.arg1) && (0...255).contains(c.arg2))
                if !fitsByte { flags |= GlyphComponent.argsAreWords }
                if i < components.count - 1 {
                    flags |= GlyphComponent.moreComponents
                } else if hasInstructions {
                    flags |= GlyphComponent.weHaveInstructions
                }
                let t = c.transform
                if t.xy != 0 || t.yx != 0 {
                    flags |= GlyphComponent.weHaveATwoByTwo
                } else if t.xx != t.yy {
                    flags |= GlyphComponent.weHaveAnXAndYScale
                } else if t.xx != 16384 {
                    flags |= GlyphComponent.weHaveAScale
                }
                w.u16(flags); try w.u16(c.glyphID, "component glyph id")
                if fitsByte {
                    w.u8(UInt8(truncatingIfNeeded: c.arg1)); w.u8(UInt8(truncatingIfNeeded: c.arg2))
                } else {
                    guard
                        xy
                            ? (-32768...32767).contains(c.arg1) && (-32768...32767).contains(c.arg2)
                            : (0...65535).contains(c.arg1) && (0...65535).contains(c.arg2)
                    else {
                        throw FontError("component offset (\(c.arg1), \(c.arg2)) does not fit 16 bits")
                    }
                    w.u16(UInt16(truncatingIfNeeded: c.arg1)); w.u16(UInt16(truncatingIfNeeded: c.arg2))
                }
                for (present, values) in [
                    (flags & GlyphComponent.weHaveAScale != 0, [t.xx]),
                    (flags & GlyphComponent.weHaveAnXAndYScale != 0, [t.xx, t.yy]),
                    (flags & GlyphComponent.weHaveATwoByTwo != 0, [t.xx, t.xy, t.yx, t.yy]),
                ] where present {
                    for v in values {
                        guard (-32768...32767).contains(v) else { throw FontError("component transform value \(v) does not fit F2Dot14") }
                        w.i16(Int16(v))
                    }
                }
            }
            if hasInstructions { try w.u16(instructions.count, "glyph instruction length"); w.append(instructions) }
        } else {
            var p = SimplePoints()
            var end = -1
            for c in contours {
                end += c.count
                p.ends.append(end)
                for point in c { p.xs.append(point.x); p.ys.append(point.y); p.flags.append(point.onCurve ? 1 : 0) }
            }
            p.instructions = instructions
            return try Self.encodeSimple(p, overlap: overlapSimple).bytes
        }
        return w.bytes
    }

    /// Encodes a simple glyph from flat points (only each flag's on-curve bit is read; the
    /// overlap flag goes on the first point when `overlap`). Returns the bytes and bounds;
    /// a glyph without points is empty.
    public static func encodeSimple(_ p: SimplePoints, overlap: Bool) throws -> (bytes: [UInt8], bounds: GlyphBounds?) {
        let count = p.xs.count
        guard p.ends.count <= 0x7FFF, count <= 0xFFFF else { throw FontError("glyph has too many contours or points") }
        guard p.instructions.count <= 0xFFFF else { throw FontError("glyph instructions longer than 65535 bytes") }
        guard count > 0 else { return ([], nil) }
        var b = GlyphBounds(xMin: p.xs[0], yMin: p.ys[0], xMax: p.xs[0], yMax: p.ys[0])
        for i in 1..<count {
            b.xMin = min(b.xMin, p.xs[i]); b.xMax = max(b.xMax, p.xs[i]); b.yMin = min(b.yMin, p.ys[i]); b.yMax = max(b.yMax, p.ys[i])
        }
        // Flags and coordinate bytes first, then the glyph in one buffer, padded to 4 bytes.
        var flags: [UInt8] = [], xBytes: [UInt8] = [], yBytes: [UInt8] = []
        flags.reserveCapacity(count); xBytes.reserveCapacity(2 * count); yBytes.reserveCapacity(2 * count)
        var px = 0, py = 0
        for i in 0..<count {
            let x = p.xs[i], y = p.ys[i]
            let dx = x - px, dy = y - py
            guard (-32768...32767).contains(dx), (-32768...32767).contains(dy) else {
                throw FontError("point \(i) is \(dx), \(dy) units from the previous one; TrueType stores at most ±32767")
            }
            var f: UInt8 = p.flags[i] & 0x01
            if i == 0 && overlap { f |= 0x40 }
            if dx == 0 {
                f |= 0x10
            } else if abs(dx) <= 255 {
                f |= 0x02 | (dx > 0 ? 0x10 : 0); xBytes.append(UInt8(abs(dx)))
            } else {
                xBytes.append(UInt8(truncatingIfNeeded: dx >> 8)); xBytes.append(UInt8(truncatingIfNeeded: dx))
            }
            if dy == 0 {
                f |= 0x20
            } else if abs(dy) <= 255 {
                f |= 0x04 | (dy > 0 ? 0x20 : 0); yBytes.append(UInt8(abs(dy)))
            } else {
                yBytes.append(UInt8(truncatingIfNeeded: dy >> 8)); yBytes.append(UInt8(truncatingIfNeeded: dy))
            }
            flags.append(f)
            px = x; py = y
        }
        var out: [UInt8] = []
        out.reserveCapacity(14 + 2 * p.ends.count + p.instructions.count + flags.count + xBytes.count + yBytes.count)
        func u16(_ v: Int) { out.append(UInt8(truncatingIfNeeded: v >> 8)); out.append(UInt8(truncatingIfNeeded: v)) }
        u16(p.ends.count)
        for v in [b.xMin, b.yMin, b.xMax, b.yMax] {
            guard (-32768...32767).contains(v) else { throw FontError("glyph bounds \(v) do not fit Int16") }
            u16(v)
        }
        for e in p.ends { u16(e) }
        u16(p.instructions.count); out.append(contentsOf: p.instructions)
        var i = 0
        while i < flags.count {
            var run = 0
            while i + run + 1 < flags.count && flags[i + run + 1] == flags[i] && run < 255 { run += 1 }
            if run > 0 { out.append(flags[i] | 0x08); out.append(UInt8(run)) } else { out.append(flags[i]) }
            i += run + 1
        }
        out.append(contentsOf: xBytes); out.append(contentsOf: yBytes)
        while out.count % 4 != 0 { out.append(0) }
        return (out, b)
    }

    private func writeBounds(_ b: GlyphBounds, _ w: inout BinaryWriter) throws {
        for v in [b.xMin, b.yMin, b.xMax, b.yMax] {
            guard (-32768...32767).contains(v) else { throw FontError("glyph bounds \(v) do not fit Int16") }
            w.i16(Int16(v))
        }
    }

    static func pointBounds(_ points: [GlyphPoint]) -> GlyphBounds? {
        guard let first = points.first else { return nil }
        var b = GlyphBounds(xMin: first.x, yMin: first.y, xMax: first.x, yMax: first.y)
        for p in points.dropFirst() {
            b.xMin = min(b.xMin, p.x); b.xMax = max(b.xMax, p.x); b.yMin = min(b.yMin, p.y); b.yMax = max(b.yMax, p.y)
        }
        return b
    }
}
