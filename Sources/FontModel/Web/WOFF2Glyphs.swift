/// WOFF2's table transforms (W3C WOFF 2.0, §5): glyf/loca split into streams of contour counts,
/// point counts, flags, triplet-coded coordinates, components, bounding boxes and instructions,
/// which Brotli compresses far better than glyf itself; and hmtx without the left side
/// bearings that equal the glyphs' xMin.
///
/// Reconstruction writes each glyph the way the spec's reference decoder does (flags with
/// repeats, shortest coordinates, every glyph padded to 4 bytes), so a decoded font is the same
/// byte for byte whichever decoder made it.
enum WOFF2Glyphs {
    // Simple glyph flags.
    static let onCurve: UInt8 = 0x01, xShort: UInt8 = 0x02, yShort: UInt8 = 0x04, repeats: UInt8 = 0x08
    static let xSameOrPositive: UInt8 = 0x10, ySameOrPositive: UInt8 = 0x20, overlapSimple: UInt8 = 0x40
    // Component flags.
    static let argsAreWords: UInt16 = 0x0001, hasScale: UInt16 = 0x0008, moreComponents: UInt16 = 0x0020
    static let hasXYScale: UInt16 = 0x0040, hasTwoByTwo: UInt16 = 0x0080, hasInstructions: UInt16 = 0x0100

    static let streamNames = ["contour count", "point count", "flag", "glyph", "composite", "bounding box", "instruction"]

    struct Reconstructed {
        var glyf: [UInt8]
        var loca: [UInt8]
        var numGlyphs: Int
        /// Each glyph's xMin (0 for an empty glyph): what a transformed hmtx leaves out.
        var xMins: [Int16]
    }

    static func glyfError(_ message: String, glyph: Int? = nil) -> FontError {
        FontError("WOFF2 transformed glyf\(glyph.map { ", glyph \($0)" } ?? ""): \(message)", table: "glyf")
    }

    /// Bytes a component record's arguments and transform take after its flags.
    static func componentSize(_ flags: UInt16) -> Int {
        var size = 2 + (flags & argsAreWords != 0 ? 4 : 2)
        if flags & hasScale != 0 { size += 2 } else if flags & hasXYScale != 0 { size += 4 } else if flags & hasTwoByTwo != 0 { size += 8 }
        return size
    }

    // MARK: decoding

    /// glyf and loca from a transformed glyf. `locaLength` is loca's declared original length,
    /// which must agree with the glyph count and index format the transform records. The encoder
    /// turns `checkShortLoca` off to learn whether the glyphs need the long loca.
    static func reconstruct(_ data: UnsafeRawBufferPointer, locaLength: Int, checkShortLoca: Bool = true) throws -> Reconstructed {
        guard data.count >= 36 else { throw glyfError("its 36-byte header is cut short (\(data.count) bytes)") }
        var header = BinaryReader(data)
        _ = try header.u16()   // reserved
        let options = try header.u16()
        let numGlyphs = Int(try header.u16())
        let indexFormat = Int(try header.u16())
        guard indexFormat <= 1 else { throw glyfError("index format \(indexFormat) is neither 0 (short) nor 1 (long)") }
        let locaEntry = indexFormat == 0 ? 2 : 4
        guard locaLength == locaEntry * (numGlyphs + 1) else {
            throw glyfError(
                "loca claims \(locaLength) bytes; \(numGlyphs) glyphs in index format \(indexFormat) take \(locaEntry * (numGlyphs + 1))")
        }
        var streams: [BinaryReader] = []
        var offset = 36
        for name in streamNames {
            let size = Int(try header.u32())
            guard size <= data.count - offset else {
                throw glyfError("the \(name) stream (\(size) bytes at \(offset)) runs past the table's \(data.count) bytes")
            }
            streams.append(BinaryReader(UnsafeRawBufferPointer(rebasing: data[offset..<offset + size]), base: offset))
            offset += size
        }
        var contourCounts = streams[0], pointCounts = streams[1], flagStream = streams[2], glyphStream = streams[3]
        var composites = streams[4], boxes = streams[5], instructions = streams[6]
        var overlaps: [UInt8]?
        if options & 1 != 0 {
            let length = (numGlyphs + 7) >> 3
            guard length <= data.count - offset else {
                throw glyfError("the overlap bitmap (\(length) bytes at \(offset)) runs past the table")
            }
            overlaps = Array(UnsafeRawBufferPointer(rebasing: data[offset..<offset + length]))
        }
        let boxBitmapLength = ((numGlyphs + 31) >> 5) << 2
        guard boxBitmapLength <= boxes.count else {
            throw glyfError("the bounding box stream (\(boxes.count) bytes) is shorter than its \(boxBitmapLength)-byte bitmap")
        }
        let boxBitmap = boxes.bytes
        try boxes.skip(boxBitmapLength)

        var glyf: [UInt8] = []
        glyf.reserveCapacity(data.count * 2)
        var locaValues = [Int](repeating: 0, count: numGlyphs + 1)
        var xMins = [Int16](repeating: 0, count: numGlyphs)
        var pointsPerContour: [Int] = []
        var xs: [Int] = [], ys: [Int] = []
        var flagBytes: [UInt8] = [], xBytes: [UInt8] = [], yBytes: [UInt8] = []

        for g in 0..<numGlyphs {
            locaValues[g] = glyf.count
            let hasBox = boxBitmap[g >> 3] & (0x80 >> UInt8(g & 7)) != 0
            do {
                let contours = try contourCounts.i16()
                if contours == -1 {
                    guard hasBox else { throw glyfError("a composite glyph must have an explicit bounding box", glyph: g) }
                    let start = composites.offset
                    var flags = moreComponents
                    var instructed = false
                    while flags & moreComponents != 0 {
                        flags = try composites.u16()
                        instructed = instructed || flags & hasInstructions != 0
                        try composites.skip(componentSize(flags))
                    }
                    let instructionCount = instructed ? try glyphStream.read255UInt16() : 0
                    glyf.append(0xFF); glyf.append(0xFF)
                    let box = try boxes.bytes(8)
                    glyf.append(contentsOf: box)
                    xMins[g] = Int16(bitPattern: UInt16(box[0]) << 8 | UInt16(box[1]))
                    glyf.append(contentsOf: UnsafeRawBufferPointer(rebasing: composites.bytes[start..<composites.offset]))
                    if instructed {
                        glyf.append(UInt8(instructionCount >> 8)); glyf.append(UInt8(instructionCount & 0xFF))
                        glyf.append(contentsOf: try instructions.bytes(instructionCount))
                    }
                } else if contours > 0 {
                    pointsPerContour.removeAll(keepingCapacity: true)
                    var total = 0
                    for _ in 0..<Int(contours) {
                        let n = try pointCounts.read255UInt16()
                        pointsPerContour.append(n)
                        total += n
                    }
                    guard total <= 0xFFFF else { throw glyfError("\(total) points: a glyph holds at most 65,535", glyph: g) }
                    // Points from the flags and the triplets they describe.
                    try flagStream.need(total)
                    xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
                    var x = 0, y = 0
                    let flagBase = flagStream.offset
                    for i in 0..<total {
                        let (dx, dy) = try decodeTriplet(flagStream.bytes[flagBase + i] & 0x7F, &glyphStream)
                        x += dx; y += dy
                        guard Int(Int16.min)...Int(Int16.max) ~= x, Int(Int16.min)...Int(Int16.max) ~= y else {
                            throw glyfError("point \(i) lands at (\(x), \(y)), outside the 16-bit coordinate range", glyph: g)
                        }
                        xs.append(x); ys.append(y)
                    }
                    try flagStream.skip(total)
                    let instructionCount = try glyphStream.read255UInt16()
                    var box: (Int, Int, Int, Int) = (0, 0, 0, 0)
                    if hasBox {
                        box = (Int(try boxes.i16()), Int(try boxes.i16()), Int(try boxes.i16()), Int(try boxes.i16()))
                    } else if total > 0 {
                        box = (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
                    }
                    appendU16(&glyf, Int(contours))
                    appendU16(&glyf, box.0); appendU16(&glyf, box.1); appendU16(&glyf, box.2); appendU16(&glyf, box.3)
                    xMins[g] = Int16(truncatingIfNeeded: box.0)
                    var end = -1
                    for n in pointsPerContour { end += n; appendU16(&glyf, end) }
                    appendU16(&glyf, instructionCount)
                    glyf.append(contentsOf: try instructions.bytes(instructionCount))
                    let overlapping = overlaps.map { $0[g >> 3] & (0x80 >> UInt8(g & 7)) != 0 } ?? false
                    encodePoints(
                        xs: xs, ys: ys, onCurve: { flagStream.bytes[flagBase + $0] & 0x80 == 0 }, overlapping: overlapping,
                        flags: &flagBytes, xBytes: &xBytes, yBytes: &yBytes)
                    glyf.append(contentsOf: flagBytes); glyf.append(contentsOf: xBytes); glyf.append(contentsOf: yBytes)
                } else if contours == 0 {
                    guard !hasBox else { throw glyfError("an empty glyph has a bounding box", glyph: g) }
                } else {
                    throw glyfError("contour count \(contours): only -1 (composite) is negative", glyph: g)
                }
            } catch let e as FontError where e.table == nil {
                throw glyfError("\(e.message)\(e.offset.map { " (at byte \($0) of the transformed glyf)" } ?? "")", glyph: g)
            }
            while glyf.count & 3 != 0 { glyf.append(0) }
        }
        locaValues[numGlyphs] = glyf.count
        if checkShortLoca && indexFormat == 0 && glyf.count > 0x1FFFE {
            throw glyfError("the glyphs take \(glyf.count) bytes, more than a short (format 0) loca can address")
        }
        var loca: [UInt8] = []
        loca.reserveCapacity(locaLength)
        for v in locaValues {
            if indexFormat == 0 { appendU16(&loca, v >> 1) } else { appendU16(&loca, v >> 16); appendU16(&loca, v & 0xFFFF) }
        }
        return Reconstructed(glyf: glyf, loca: loca, numGlyphs: numGlyphs, xMins: xMins)
    }

    /// One point's (dx, dy) from its triplet flag (on-curve bit removed) and the data it reads.
    @inline(__always)
    static func decodeTriplet(_ flag: UInt8, _ data: inout BinaryReader) throws -> (Int, Int) {
        let f = Int(flag)
        func signed(_ bit: Int, _ magnitude: Int) -> Int { bit & 1 != 0 ? magnitude : -magnitude }
        switch f {
        case 0..<10:
            return (0, signed(f, (f & 14) << 7 + Int(try data.u8())))
        case 10..<20:
            return (signed(f, ((f - 10) & 14) << 7 + Int(try data.u8())), 0)
        case 20..<84:
            let b0 = f - 20, b1 = Int(try data.u8())
            return (signed(f, 1 + (b0 & 0x30) + (b1 >> 4)), signed(f >> 1, 1 + ((b0 & 0x0C) << 2) + (b1 & 0x0F)))
        case 84..<120:
            let b0 = f - 84, b1 = Int(try data.u8()), b2 = Int(try data.u8())
            return (signed(f, 1 + ((b0 / 12) << 8) + b1), signed(f >> 1, 1 + (((b0 % 12) >> 2) << 8) + b2))
        case 120..<124:
            let b1 = Int(try data.u8()), b2 = Int(try data.u8()), b3 = Int(try data.u8())
            return (signed(f, (b1 << 4) + (b2 >> 4)), signed(f >> 1, ((b2 & 0x0F) << 8) + b3))
        default:
            let x = Int(try data.u16()), y = Int(try data.u16())
            return (signed(f, x), signed(f >> 1, y))
        }
    }

    /// A simple glyph's flags and coordinates in their shortest form (the reference decoder's).
    static func encodePoints(
        xs: [Int], ys: [Int], onCurve: (Int) -> Bool, overlapping: Bool,
        flags: inout [UInt8], xBytes: inout [UInt8], yBytes: inout [UInt8]
    ) {
        flags.removeAll(keepingCapacity: true); xBytes.removeAll(keepingCapacity: true); yBytes.removeAll(keepingCapacity: true)
        var lastX = 0, lastY = 0, lastFlag = -1, run = 0
        for i in 0..<xs.count {
            var flag: UInt8 = onCurve(i) ? WOFF2Glyphs.onCurve : 0
            if overlapping && i == 0 { flag |= overlapSimple }
            let dx = xs[i] - lastX, dy = ys[i] - lastY
            if dx == 0 {
                flag |= xSameOrPositive
            } else if dx > -256 && dx < 256 {
                flag |= xShort | (dx > 0 ? xSameOrPositive : 0); xBytes.append(UInt8(abs(dx)))
            } else {
                xBytes.append(UInt8(truncatingIfNeeded: dx >> 8)); xBytes.append(UInt8(truncatingIfNeeded: dx))
            }
            if dy == 0 {
                flag |= ySameOrPositive
            } else if dy > -256 && dy < 256 {
                flag |= yShort | (dy > 0 ? ySameOrPositive : 0); yBytes.append(UInt8(abs(dy)))
            } else {
                yBytes.append(UInt8(truncatingIfNeeded: dy >> 8)); yBytes.append(UInt8(truncatingIfNeeded: dy))
            }
            if Int(flag) == lastFlag && run != 255 {
                flags[flags.count - 1] |= repeats
                run += 1
            } else {
                if run != 0 { flags.append(UInt8(run)) }
                flags.append(flag)
                run = 0
            }
            lastX = xs[i]; lastY = ys[i]; lastFlag = Int(flag)
        }
        if run != 0 { flags.append(UInt8(run)) }
    }

    @inline(__always) static func appendU16(_ out: inout [UInt8], _ v: Int) {
        out.append(UInt8(truncatingIfNeeded: v >> 8)); out.append(UInt8(truncatingIfNeeded: v))
    }

    /// hmtx from a transformed hmtx: the left side bearings it left out are the glyphs' xMin.
    static func reconstructHmtx(_ data: UnsafeRawBufferPointer, numHMetrics: Int, xMins: [Int16]) throws -> [UInt8] {
        func fail(_ m: String) -> FontError { FontError("WOFF2 transformed hmtx: \(m)", table: "hmtx") }
        var r = BinaryReader(data)
        let numGlyphs = xMins.count
        let flags = try r.u8()
        guard flags & 0xFC == 0 else { throw fail("flags 0x\(String(flags, radix: 16)) set reserved bits") }
        let proportionalStored = flags & 1 == 0, monospacedStored = flags & 2 == 0
        guard !(proportionalStored && monospacedStored) else {
            throw fail("the flags say no side bearings were left out, so it is not transformed")
        }
        guard numHMetrics >= 1, numHMetrics <= numGlyphs else { throw fail("hhea's \(numHMetrics) metrics do not fit \(numGlyphs) glyphs") }
        do {
            var advances: [UInt16] = []
            advances.reserveCapacity(numHMetrics)
            for _ in 0..<numHMetrics { advances.append(try r.u16()) }
            var out: [UInt8] = []
            out.reserveCapacity(2 * numGlyphs + 2 * numHMetrics)
            for g in 0..<numGlyphs {
                let stored = g < numHMetrics ? proportionalStored : monospacedStored
                let lsb = stored ? Int(try r.i16()) : Int(xMins[g])
                if g < numHMetrics { appendU16(&out, Int(advances[g])) }
                appendU16(&out, lsb)
            }
            return out
        } catch let e as FontError where e.table == nil {
            throw fail("\(e.message) (at byte \(e.offset ?? 0))")
        }
    }

    // MARK: encoding

    /// The transformed glyf of a glyf/loca pair (loca itself is then stored as nothing).
    static func transform(glyf: UnsafeRawBufferPointer, loca: UnsafeRawBufferPointer, numGlyphs: Int, indexFormat: Int) throws -> [UInt8] {
        var contourCounts: [UInt8] = [], pointCounts: [UInt8] = [], flagStream: [UInt8] = [], glyphStream: [UInt8] = []
        var composites: [UInt8] = [], boxes: [UInt8] = [], instructions: [UInt8] = []
        var boxBitmap = [UInt8](repeating: 0, count: ((numGlyphs + 31) >> 5) << 2)
        var overlapBitmap: [UInt8]? = nil
        glyphStream.reserveCapacity(glyf.count / 2); flagStream.reserveCapacity(glyf.count / 4)
        let locaReader = BinaryReader(loca)
        let entry = indexFormat == 0 ? 2 : 4
        guard loca.count >= entry * (numGlyphs + 1) else {
            throw FontError("loca has \(loca.count) bytes, too few for \(numGlyphs) glyphs in index format \(indexFormat)", table: "loca")
        }
        func locaValue(_ i: Int) throws -> Int {
            indexFormat == 0 ? Int(try locaReader.u16(at: 2 * i)) * 2 : Int(try locaReader.u32(at: 4 * i))
        }
        var xs: [Int] = [], ys: [Int] = [], onCurve: [Bool] = []
        var start = try locaValue(0)
        for g in 0..<numGlyphs {
            let end = try locaValue(g + 1)
            guard start <= end, end <= glyf.count else {
                throw FontError("glyph \(g): loca gives bytes \(start)..<\(end) of a \(glyf.count)-byte glyf", table: "loca")
            }
            defer { start = end }
            var r = BinaryReader(UnsafeRawBufferPointer(rebasing: glyf[start..<end]), base: start)
            guard end - start == 0 || end - start >= 10 else {
                throw FontError("glyph \(g): \(end - start) bytes, shorter than a glyph header", table: "glyf", offset: start)
            }
            // A glyph of no bytes, or of a header and no contours, is stored empty.
            let contours = end == start ? 0 : Int(try r.i16())
            if contours == 0 { appendU16(&contourCounts, 0); continue }
            let box = try r.bytes(8)
            do {
                if contours < 0 {
                    appendU16(&contourCounts, -1)
                    boxBitmap[g >> 3] |= 0x80 >> UInt8(g & 7)
                    boxes.append(contentsOf: box)
                    let first = r.offset
                    var flags = moreComponents, instructed = false
                    while flags & moreComponents != 0 {
                        flags = try r.u16()
                        instructed = instructed || flags & hasInstructions != 0
                        try r.skip(componentSize(flags))
                    }
                    composites.append(contentsOf: UnsafeRawBufferPointer(rebasing: r.bytes[first..<r.offset]))
                    if instructed {
                        let count = Int(try r.u16())
                        glyphStream.append255UInt16(count)
                        instructions.append(contentsOf: try r.bytes(count))
                    }
                    continue
                }
                appendU16(&contourCounts, contours)
                var previousEnd = -1
                for _ in 0..<contours {
                    let end = Int(try r.u16())
                    guard end >= previousEnd else { throw FontError("contour end points go backwards (\(previousEnd) then \(end))") }
                    guard end < 0xFFFF else { throw FontError("\(end + 1) points: a glyph holds at most 65,535") }
                    pointCounts.append255UInt16(end - previousEnd)
                    previousEnd = end
                }
                let total = previousEnd + 1
                let instructionCount = Int(try r.u16())
                let instructionBytes = try r.bytes(instructionCount)
                // Flags (with repeats expanded), then x and y deltas.
                onCurve.removeAll(keepingCapacity: true)
                var pointFlags: [UInt8] = []
                pointFlags.reserveCapacity(total)
                while pointFlags.count < total {
                    let f = try r.u8()
                    pointFlags.append(f)
                    if f & repeats != 0 {
                        let n = Int(try r.u8())
                        guard pointFlags.count + n <= total else { throw FontError("a flag repeats past the glyph's \(total) points") }
                        for _ in 0..<n { pointFlags.append(f) }
                    }
                }
                if pointFlags.first.map({ $0 & overlapSimple != 0 }) ?? false {
                    if overlapBitmap == nil { overlapBitmap = [UInt8](repeating: 0, count: (numGlyphs + 7) >> 3) }
                    overlapBitmap![g >> 3] |= 0x80 >> UInt8(g & 7)
                }
                xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
                var v = 0
                for f in pointFlags {
                    if f & xShort != 0 {
                        let d = Int(try r.u8()); v += f & xSameOrPositive != 0 ? d : -d
                    } else if f & xSameOrPositive == 0 {
                        v += Int(try r.i16())
                    }
                    xs.append(Int(Int16(truncatingIfNeeded: v)))
                }
                v = 0
                for f in pointFlags {
                    if f & yShort != 0 {
                        let d = Int(try r.u8()); v += f & ySameOrPositive != 0 ? d : -d
                    } else if f & ySameOrPositive == 0 {
                        v += Int(try r.i16())
                    }
                    ys.append(Int(Int16(truncatingIfNeeded: v)))
                }
                var lastX = 0, lastY = 0
                for i in 0..<total {
                    writeTriplet(
                        onCurve: pointFlags[i] & WOFF2Glyphs.onCurve != 0, dx: xs[i] - lastX, dy: ys[i] - lastY,
                        flags: &flagStream, data: &glyphStream)
                    lastX = xs[i]; lastY = ys[i]
                }
                glyphStream.append255UInt16(instructionCount)
                instructions.append(contentsOf: instructionBytes)
                // The box is stored only when it is not the points' own.
                let stored = (0..<4).map { Int(Int16(bitPattern: UInt16(box[2 * $0]) << 8 | UInt16(box[2 * $0 + 1]))) }
                let computed = total == 0 ? [0, 0, 0, 0] : [xs.min()!, ys.min()!, xs.max()!, ys.max()!]
                if stored != computed {
                    boxBitmap[g >> 3] |= 0x80 >> UInt8(g & 7)
                    boxes.append(contentsOf: box)
                }
            } catch let e as FontError where e.table == nil {
                throw FontError("glyph \(g): \(e.message)", table: "glyf", offset: e.offset)
            }
        }
        var out = BinaryWriter(
            capacity: 36 + contourCounts.count + pointCounts.count + flagStream.count + glyphStream.count
                + composites.count + boxBitmap.count + boxes.count + instructions.count + (overlapBitmap?.count ?? 0))
        out.u16(0)
        out.u16(overlapBitmap == nil ? 0 : 1)
        out.u16(UInt16(numGlyphs)); out.u16(UInt16(indexFormat))
        for size in [
            contourCounts.count, pointCounts.count, flagStream.count, glyphStream.count, composites.count,
            boxBitmap.count + boxes.count, instructions.count,
        ] { out.u32(UInt32(size)) }
        for stream in [contourCounts, pointCounts, flagStream, glyphStream, composites, boxBitmap, boxes, instructions] {
            out.append(stream)
        }
        if let overlapBitmap { out.append(overlapBitmap) }
        return out.bytes
    }

    /// One point as a flag (on-curve bit, then which of the 128 shapes) and its data bytes.
    static func writeTriplet(onCurve: Bool, dx: Int, dy: Int, flags: inout [UInt8], data: inout [UInt8]) {
        let ax = abs(dx), ay = abs(dy)
        let curve = onCurve ? 0 : 128
        let xPositive = dx < 0 ? 0 : 1, yPositive = dy < 0 ? 0 : 1
        let signs = xPositive + 2 * yPositive
        if dx == 0 && ay < 1280 {
            flags.append(UInt8(curve + ((ay & 0xF00) >> 7) + yPositive))
            data.append(UInt8(ay & 0xFF))
        } else if dy == 0 && ax < 1280 {
            flags.append(UInt8(curve + 10 + ((ax & 0xF00) >> 7) + xPositive))
            data.append(UInt8(ax & 0xFF))
        } else if ax <= 64 && ay <= 64 {
            flags.append(UInt8(curve + 20 + ((ax - 1) & 0x30) + (((ay - 1) & 0x30) >> 2) + signs))
            data.append(UInt8(((ax - 1) & 0x0F) << 4 | ((ay - 1) & 0x0F)))
        } else if ax <= 768 && ay <= 768 {
            flags.append(UInt8(curve + 84 + 12 * (((ax - 1) & 0x300) >> 8) + (((ay - 1) & 0x300) >> 6) + signs))
            data.append(UInt8((ax - 1) & 0xFF)); data.append(UInt8((ay - 1) & 0xFF))
        } else if ax < 4096 && ay < 4096 {
            flags.append(UInt8(curve + 120 + signs))
            data.append(UInt8(ax >> 4)); data.append(UInt8((ax & 0x0F) << 4 | (ay >> 8))); data.append(UInt8(ay & 0xFF))
        } else {
            flags.append(UInt8(curve + 124 + signs))
            data.append(UInt8(ax >> 8)); data.append(UInt8(ax & 0xFF)); data.append(UInt8(ay >> 8)); data.append(UInt8(ay & 0xFF))
        }
    }

    /// A transformed hmtx when enough side bearings can be left out (each equals its glyph's
    /// xMin, as the decoder will see it), nil when not.
    static func transformHmtx(_ hmtx: UnsafeRawBufferPointer, numHMetrics: Int, xMins: [Int16]) -> [UInt8]? {
        let numGlyphs = xMins.count
        guard numHMetrics >= 1, numHMetrics <= numGlyphs, hmtx.count == 2 * numGlyphs + 2 * numHMetrics else { return nil }
        let r = BinaryReader(hmtx)
        func lsb(_ g: Int) -> Int16 {
            Int16(bitPattern: (try? r.u16(at: g < numHMetrics ? 4 * g + 2 : 4 * numHMetrics + 2 * (g - numHMetrics))) ?? 0)
        }
        let proportionalImplied = (0..<numHMetrics).allSatisfy { lsb($0) == xMins[$0] }
        let monospacedImplied = numGlyphs > numHMetrics && (numHMetrics..<numGlyphs).allSatisfy { lsb($0) == xMins[$0] }
        // Worth it only when it saves a tenth of the table: a few bytes fewer cost more in
        // Brotli's output than they save (the columns lose their alignment).
        let saved = (proportionalImplied ? 2 * numHMetrics : 0) + (monospacedImplied ? 2 * (numGlyphs - numHMetrics) : 0) - 1
        guard saved * 10 >= hmtx.count else { return nil }
        var out = BinaryWriter(capacity: hmtx.count)
        out.u8((proportionalImplied ? 1 : 0) | (monospacedImplied ? 2 : 0))
        for g in 0..<numHMetrics { out.u16((try? r.u16(at: 4 * g)) ?? 0) }
        if !proportionalImplied { for g in 0..<numHMetrics { out.i16(lsb(g)) } }
        if !monospacedImplied { for g in numHMetrics..<numGlyphs { out.i16(lsb(g)) } }
        return out.bytes
    }
}

extension BinaryReader {
    /// WOFF2's 255UInt16: one byte below 253, else a code and one or two more bytes.
    mutating func read255UInt16() throws -> Int {
        let code = try u8()
        switch code {
        case 253: return Int(try u16())
        case 254: return 506 + Int(try u8())
        case 255: return 253 + Int(try u8())
        default: return Int(code)
        }
    }

    /// WOFF2's UIntBase128: 7 bits a byte, high bit "more", no leading zeros, at most 32 bits.
    mutating func readUIntBase128() throws -> Int {
        let start = offset
        var value: UInt32 = 0
        for i in 0..<5 {
            let byte = try u8()
            if i == 0 && byte == 0x80 { throw error("a UIntBase128 starts with a zero byte", at: start) }
            if value & 0xFE00_0000 != 0 { throw error("a UIntBase128 does not fit 32 bits", at: start) }
            value = value << 7 | UInt32(byte & 0x7F)
            if byte & 0x80 == 0 { return Int(value) }
        }
        throw error("a UIntBase128 runs past 5 bytes", at: start)
    }
}

extension Array where Element == UInt8 {
    mutating func append255UInt16(_ v: Int) {
        if v < 253 {
            append(UInt8(v))
        } else if v < 506 {
            append(255); append(UInt8(v - 253))
        } else if v < 762 {
            append(254); append(UInt8(v - 506))
        } else {
            append(253); append(UInt8(v >> 8)); append(UInt8(v & 0xFF))
        }
    }

    mutating func appendUIntBase128(_ v: Int) {
        var size = 1
        while v >> (7 * size) != 0 { size += 1 }
        for i in stride(from: size - 1, through: 0, by: -1) {
            append(UInt8((v >> (7 * i)) & 0x7F) | (i > 0 ? 0x80 : 0))
        }
    }
}
