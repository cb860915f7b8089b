import FontModel
import LuaBridge

/// Lua views of the image colour tables, read-only copies (edit them through TTX, `face:fuse`):
/// - `face.SVG`: the documents, each {firstGlyph, lastGlyph, text, compressed};
/// - `face.sbix`: {version, flags, strikes}, each strike {ppem, resolution, glyphs} with glyphs
///   by name: {graphicType, originOffsetX, originOffsetY, data (the image bytes)} or, for
///   'dupe'/'flip', `ref` (the glyph whose image it uses).
enum ColorImageValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [("SVG", pushSVG), ("sbix", pushSbix)]

    static func pushSVG(_ s: LuaStack, _ face: Face) throws {
        guard let svg = try face.table(SVGTable.self) else { s.pushNil(); return }
        s.pushTable(arrayCount: Int32(svg.documents.count))
        for (k, d) in svg.documents.enumerated() {
            _ = s.reserve(4)
            s.pushTable(fieldCount: 4)
            s.push(Int(d.firstGlyph)); s.setField("firstGlyph", in: -2)
            s.push(Int(d.lastGlyph)); s.setField("lastGlyph", in: -2)
            s.push(d.text); s.setField("text", in: -2)
            s.push(d.compressed); s.setField("compressed", in: -2)
            s.setIndex(k + 1, in: -2)
        }
    }

    static func pushSbix(_ s: LuaStack, _ face: Face) throws {
        guard let sbix = try face.table(SbixTable.self) else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(fieldCount: 3)
        s.push(Int(sbix.version)); s.setField("version", in: -2)
        s.push(Int(sbix.flags)); s.setField("flags", in: -2)
        s.pushTable(arrayCount: Int32(sbix.strikes.count))
        for (k, strike) in sbix.strikes.enumerated() {
            _ = s.reserve(8)
            s.pushTable(fieldCount: 3)
            s.push(Int(strike.ppem)); s.setField("ppem", in: -2)
            s.push(Int(strike.resolution)); s.setField("resolution", in: -2)
            s.pushTable(fieldCount: Int32(strike.glyphs.count))
            for (g, glyph) in strike.glyphs.enumerated() {
                guard let glyph else { continue }
                s.pushTable(fieldCount: 4)
                s.push(glyph.graphicType.description); s.setField("graphicType", in: -2)
                s.push(Int(glyph.originOffsetX)); s.setField("originOffsetX", in: -2)
                s.push(Int(glyph.originOffsetY)); s.setField("originOffsetY", in: -2)
                if let target = glyph.referencedGlyph {
                    s.push(glyphName(target, in: names)); s.setField("ref", in: -2)
                } else {
                    s.push(bytes: glyph.data); s.setField("data", in: -2)
                }
                s.setField(glyphName(g, in: names), in: -2)
            }
            s.setField("glyphs", in: -2)
            s.setIndex(k + 1, in: -2)
        }
        s.setField("strikes", in: -2)
    }
}
