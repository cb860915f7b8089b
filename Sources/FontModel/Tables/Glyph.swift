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

    public init(glyphID: Int, flags: UInt16 = GlyphComponent.argsAreXYValues, arg1: Int, arg2: Int,
                transform: (xx: Int, xy: Int, yx: Int, yy: Int) = (16384, 0, 0, 16384)) {
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

    public init(contours: [[GlyphPoint]] = [], components: [GlyphComponent] = [], instructions: [UInt8] = [],
                bounds: GlyphBounds? = nil, overlapSimple: Bool = false) {
        self.contours = contours; self.components = components; self.instructions = instructions
        self.bounds = bounds; self.overlapSimple = overlapSimple
    }

    public var isComposite: Bool { !components.isEmpty }
    public var isEmpty: Bool { contours.isEmpty && components.isEmpty }
    public var pointCount: Int { contours.reduce(0) { $0 + $1.count } }

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

    private static func decodeSimple(_ r: inout BinaryReader, contourCount: Int, bounds: GlyphBounds) throws -> TrueTypeGlyph {
        var ends: [Int] = []
        ends.reserveCapacity(contourCount)
        var previous = -1
        for _ in 0..<contourCount {
            let end = Int(try r.u16())
            guard end > previous else {
                throw r.error("endPtsOfContours not increasing (\(end) after \(previous))", at: r.offset - 2)
            }
            ends.append(end)
            previous = end
        }
        let pointCount = (ends.last ?? -1) + 1
        let instructionLength = Int(try r.u16())
        let instructions = try r.bytes(instructionLength)
        // Each point needs at least one flag byte: refuse counts the data cannot hold before allocating.
        guard pointCount <= r.remaining else {
            throw r.error("glyph claims \(pointCount) points, more than its \(r.remaining) remaining bytes can hold")
        }
        var flags = [UInt8](repeating: 0, count: pointCount)
        var i = 0
        while i < pointCount {
            let flag = try r.u8()
            flags[i] = flag
            i += 1
            if flag & 0x08 != 0 {
                let repeatCount = Int(try r.u8())
                guard repeatCount <= pointCount - i else { throw r.error("flag repeat runs past the last point") }
                for _ in 0..<repeatCount { flags[i] = flag; i += 1 }
            }
        }
        var xs = [Int](repeating: 0, count: pointCount), ys = xs
        var value = 0
        for j in 0..<pointCount {
            let f = flags[j]
            if f & 0x02 != 0 { let d = Int(try r.u8()); value += f & 0x10 != 0 ? d : -d }
            else if f & 0x10 == 0 { value += Int(try r.i16()) }
            xs[j] = value
        }
        value = 0
        for j in 0..<pointCount {
            let f = flags[j]
            if f & 0x04 != 0 { let d = Int(try r.u8()); value += f & 0x20 != 0 ? d : -d }
            else if f & 0x20 == 0 { value += Int(try r.i16()) }
            ys[j] = value
        }
        var contours: [[GlyphPoint]] = []
        contours.reserveCapacity(contourCount)
        var start = 0
        for end in ends {
            contours.append((start...end).map { GlyphPoint(x: xs[$0], y: ys[$0], onCurve: flags[$0] & 0x01 != 0) })
            start = end + 1
        }
        return TrueTypeGlyph(contours: contours, instructions: instructions, bounds: bounds,
                             overlapSimple: (flags.first ?? 0) & 0x40 != 0)
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
                var flags = c.flags & ~(GlyphComponent.argsAreWords | GlyphComponent.moreComponents | GlyphComponent.weHaveInstructions
                    | GlyphComponent.weHaveAScale | GlyphComponent.weHaveAnXAndYScale | GlyphComponent.weHaveATwoByTwo)
                let xy = c.flags & GlyphComponent.argsAreXYValues != 0
                let fitsByte = xy ? ((-128...127).contains(c.arg1) && (-128...127).contains(c.arg2))
                                  : ((0...255).contains(c.arg1) && (0...255).contains(c.arg2))
                if !fitsByte { flags |= GlyphComponent.argsAreWords }
                if i < components.count - 1 { flags |= GlyphComponent.moreComponents }
                else if !instructions.isEmpty { flags |= GlyphComponent.weHaveInstructions }
                let t = c.transform
                if t.xy != 0 || t.yx != 0 { flags |= GlyphComponent.weHaveATwoByTwo }
                else if t.xx != t.yy { flags |= GlyphComponent.weHaveAnXAndYScale }
                else if t.xx != 16384 { flags |= GlyphComponent.weHaveAScale }
                w.u16(flags); try w.u16(c.glyphID, "component glyph id")
                if fitsByte {
                    w.u8(UInt8(truncatingIfNeeded: c.arg1)); w.u8(UInt8(truncatingIfNeeded: c.arg2))
                } else {
                    guard xy ? (-32768...32767).contains(c.arg1) && (-32768...32767).contains(c.arg2)
                             : (0...65535).contains(c.arg1) && (0...65535).contains(c.arg2) else {
                        throw FontError("component offset (\(c.arg1), \(c.arg2)) does not fit 16 bits")
                    }
                    w.u16(UInt16(truncatingIfNeeded: c.arg1)); w.u16(UInt16(truncatingIfNeeded: c.arg2))
                }
                for (present, values) in [(flags & GlyphComponent.weHaveAScale != 0, [t.xx]),
                                          (flags & GlyphComponent.weHaveAnXAndYScale != 0, [t.xx, t.yy]),
                                          (flags & GlyphComponent.weHaveATwoByTwo != 0, [t.xx, t.xy, t.yx, t.yy])] where present {
                    for v in values {
                        guard (-32768...32767).contains(v) else { throw FontError("component transform value \(v) does not fit F2Dot14") }
                        w.i16(Int16(v))
                    }
                }
            }
            if !instructions.isEmpty { try w.u16(instructions.count, "glyph instruction length"); w.append(instructions) }
        } else {
            guard contours.count <= 0x7FFF, pointCount <= 0xFFFF else { throw FontError("glyph has too many contours or points") }
            guard instructions.count <= 0xFFFF else { throw FontError("glyph instructions longer than 65535 bytes") }
            let points = contours.flatMap { $0 }
            guard let b = Self.pointBounds(points) else { return [] }
            w.i16(Int16(contours.count)); try writeBounds(b, &w)
            var end = -1
            for c in contours { end += c.count; w.u16(UInt16(end)) }
            w.u16(UInt16(instructions.count)); w.append(instructions)
            var flags: [UInt8] = [], xBytes = BinaryWriter(), yBytes = BinaryWriter()
            var px = 0, py = 0
            for (i, p) in points.enumerated() {
                guard (-32768...32767).contains(p.x - px), (-32768...32767).contains(p.y - py) else {
                    throw FontError("point \(i) is \(p.x - px), \(p.y - py) units from the previous one; TrueType stores at most ±32767")
                }
                var f: UInt8 = p.onCurve ? 0x01 : 0
                if i == 0 && overlapSimple { f |= 0x40 }
                let dx = p.x - px, dy = p.y - py
                if dx == 0 { f |= 0x10 } else if abs(dx) <= 255 { f |= 0x02 | (dx > 0 ? 0x10 : 0); xBytes.u8(UInt8(abs(dx))) }
                else { xBytes.i16(Int16(dx)) }
                if dy == 0 { f |= 0x20 } else if abs(dy) <= 255 { f |= 0x04 | (dy > 0 ? 0x20 : 0); yBytes.u8(UInt8(abs(dy))) }
                else { yBytes.i16(Int16(dy)) }
                flags.append(f)
                px = p.x; py = p.y
            }
            var i = 0
            while i < flags.count {
                var run = 0
                while i + run + 1 < flags.count && flags[i + run + 1] == flags[i] && run < 255 { run += 1 }
                if run > 0 { w.u8(flags[i] | 0x08); w.u8(UInt8(run)) } else { w.u8(flags[i]) }
                i += run + 1
            }
            w.append(xBytes.bytes); w.append(yBytes.bytes)
        }
        return w.bytes
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
