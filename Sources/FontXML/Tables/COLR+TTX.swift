import FontModel

/// COLR in TTX, as fontTools writes it: version 0 in fontTools' own form (`<version>`, then a
/// `<ColorGlyph name=>` of `<layer colorID= name=/>` per base glyph, by glyph id); version 1
/// from its description (`ColrTable.shape`), as an otData table: BaseGlyphList, LayerList,
/// Paints by `Format=`, ClipList grouped by box, VarIndexMap and VarStore.
extension TTX {
    static let colrConverter: Converter = {
        let described = describedConverter("COLR", shape: ColrTable.shape) { face in try face.describedView("COLR") }
        return Converter(
            dump: { face in
                guard let bytes = try face.rawTable("COLR") else { return nil }
                let version = bytes.count >= 2 ? Int(bytes[0]) << 8 | Int(bytes[1]) : -1
                guard version == 0 else { return try described.dump(face) }
                let names = try face.glyphNames()
                let glyphs = try bytes.withUnsafeBytes { try ColrTable.layers(BinaryReader($0)) }
                // A base glyph listed twice keeps its last layers, as fontTools' dictionary does.
                var byGlyph: [Int: [(glyph: Int, palette: Int)]] = [:]
                for g in glyphs { byGlyph[g.glyph] = g.layers }
                var out = "  <COLR>\n    <version value=\"0\"/>\n"
                for glyph in byGlyph.keys.sorted() {
                    out += "    <ColorGlyph name=\"\(xmlEscaped(glyphName(glyph, in: names)))\">\n"
                    for layer in byGlyph[glyph] ?? [] {
                        out += "      <layer colorID=\"\(layer.palette)\" name=\"\(xmlEscaped(glyphName(layer.glyph, in: names)))\"/>\n"
                    }
                    out += "    </ColorGlyph>\n"
                }
                return out + "  </COLR>\n"
            },
            fuse: { element, face, apply in
                // Version 0's form has <version> and <ColorGlyph>; version 1's has <Version>.
                guard element.children.contains(where: { $0.name == "ColorGlyph" || $0.name == "version" }) else {
                    try described.fuse(element, face, apply)
                    return
                }
                let reader = StructuredReader(face: face)
                var glyphs: [Int: [(glyph: Int, palette: Int)]] = [:]
                for e in element.children {
                    switch e.name {
                    case "version":
                        guard try integerAttribute(e, "value", 0...0xFFFF) == 0 else {
                            throw XMLError(
                                "<version> is version 0's form; version 1 is written as an otData table (<Version value=\"1\"/>)",
                                line: e.line, column: e.column)
                        }
                    case "ColorGlyph":
                        let base = try reader.glyph(try e.attribute("name"), e)
                        var layers: [(glyph: Int, palette: Int)] = []
                        for l in e.children {
                            guard l.name == "layer" else {
                                throw XMLError(
                                    "<\(l.name)> in <ColorGlyph>: expected <layer colorID= name=/>", line: l.line, column: l.column)
                            }
                            layers.append(
                                (try reader.glyph(try l.attribute("name"), l), Int(try integerAttribute(l, "colorID", 0...0xFFFF))))
                        }
                        glyphs[base] = layers
                    default:
                        throw XMLError(
                            "<\(e.name)> in a version 0 <COLR>: expected <version> or <ColorGlyph>", line: e.line, column: e.column)
                    }
                }
                do {
                    let bytes = try ColrTable.version0(glyphs.map { (glyph: $0.key, layers: $0.value) })
                    if apply { face.setRawTable("COLR", bytes) }
                } catch let error as FontError {
                    throw XMLError(error.message, line: element.line, column: element.column)
                }
            })
    }()
}

extension ColrTable: TTXTable { static var ttx: TTX.Converter { TTX.colrConverter } }
