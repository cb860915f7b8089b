import FontModel
import LuaBridge

/// Lua view of a face's bitmap strikes (EBLC/EBDT, CBLC/CBDT): `face.bitmaps`, a list of
/// strikes `{table = "CBDT", ppem = 109, ppemY = 109, bitDepth = 32, glyphs = {[name] =
/// {format = 17, height = 128, width = 136, BearingX = 0, …, data = "\x89PNG…"}}}`, colour
/// strikes first; nil without either pair. A copy: edit bitmaps through TTX (face:fuse).
enum BitmapValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [("bitmaps", pushBitmaps), ("EBSC", pushEBSC)]

    /// face.EBSC: {version, sizes = {{ppemX, ppemY, substitutePpemX, substitutePpemY, hori = {line
    /// metrics by name}, vert = {…}}}}: sizes drawn by scaling another size's strike.
    static func pushEBSC(_ s: LuaStack, _ face: Face) throws {
        guard let ebsc = try face.table(EBSCTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 2)
        s.push(shortestDecimal(Int64(ebsc.version), scale: Fixed.scale)); s.setField("version", in: -2)
        s.pushTable(arrayCount: Int32(ebsc.scales.count))
        for (k, scale) in ebsc.scales.enumerated() {
            _ = s.reserve(6)
            s.pushTable(fieldCount: 6)
            for (name, v) in zip(EBSCTable.Scale.sizeNames, scale.sizes) { s.push(Int(v)); s.setField(name, in: -2) }
            for (direction, record) in [("hori", scale.hori), ("vert", scale.vert)] {
                s.pushTable(fieldCount: Int32(record.values.count))
                for (name, v) in zip(record.layout.names, record.values) { s.push(v); s.setField(name, in: -2) }
                s.setField(direction, in: -2)
            }
            s.setIndex(k + 1, in: -2)
        }
        s.setField("sizes", in: -2)
    }

    static func pushBitmaps(_ s: LuaStack, _ face: Face) throws {
        let pairs = try [EmbeddedBitmaps.Kind.color, .monochrome, .apple].compactMap { try EmbeddedBitmaps.read(from: face, $0) }
        guard !pairs.isEmpty else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(arrayCount: Int32(clamping: pairs.reduce(0) { $0 + $1.strikes.count }))
        var index = 0
        for bitmaps in pairs {
            for strike in bitmaps.strikes {
                _ = s.reserve(8)
                s.pushTable(fieldCount: 5)
                s.push(bitmaps.kind.dataTag.trimmed); s.setField("table", in: -2)
                s.push(Int(strike.ppemX)); s.setField("ppem", in: -2)
                s.push(Int(strike.ppemY)); s.setField("ppemY", in: -2)
                s.push(Int(strike.bitDepth)); s.setField("bitDepth", in: -2)
                // Glyphs of fixed-size subtables (formats 2 and 5) take their metrics from the subtable.
                var shared: [UInt16: EmbeddedBitmaps.ByteRecord] = [:]
                for sub in strike.indexSubtables { if let m = sub.metrics { for g in sub.glyphIDs { shared[g] = m } } }
                s.pushTable(fieldCount: Int32(clamping: strike.glyphs.count))
                for id in strike.glyphOrder {
                    guard let glyph = strike.glyphs[id] else { continue }
                    s.pushTable(fieldCount: 10)
                    s.push(Int(glyph.imageFormat)); s.setField("format", in: -2)
                    if let metrics = glyph.metrics ?? shared[id] {
                        for (name, value) in zip(metrics.layout.names, metrics.values) { s.push(value); s.setField(name, in: -2) }
                    }
                    if glyph.components.isEmpty {
                        s.push(bytes: glyph.imageData); s.setField("data", in: -2)
                    } else {
                        s.pushTable(arrayCount: Int32(glyph.components.count))
                        for (k, c) in glyph.components.enumerated() {
                            s.pushTable(fieldCount: 3)
                            s.push(Int(c.glyph) < names.count ? names[Int(c.glyph)] : "glyph\(c.glyph)"); s.setField("glyph", in: -2)
                            s.push(Int(c.xOffset)); s.setField("x", in: -2)
                            s.push(Int(c.yOffset)); s.setField("y", in: -2)
                            s.setIndex(k + 1, in: -2)
                        }
                        s.setField("components", in: -2)
                    }
                    s.setField(Int(id) < names.count ? names[Int(id)] : "glyph\(id)", in: -2)
                }
                s.setField("glyphs", in: -2)
                index += 1
                s.setIndex(index, in: -2)
            }
        }
    }
}
