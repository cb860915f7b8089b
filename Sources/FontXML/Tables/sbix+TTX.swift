import FontModel

/// sbix in TTX, as fontTools writes it: `<version>`, `<flags value="00000000 00000001"/>` in
/// binary, then per strike (by size) `<ppem>`, `<resolution>` and a `<glyph name=>` per glyph of
/// the font: empty, or with `graphicType= originOffsetX= originOffsetY=` and the image as
/// `<hexdata>`, or for 'dupe'/'flip' a `<ref glyphname=/>`.
extension TTX {
    static let sbixConverter = Converter(
        dump: { face in
            guard let sbix = try face.table(SbixTable.self) else { return nil }
            let names = try face.glyphNames()
            let bits = (0..<16).map { sbix.flags >> (15 - $0) & 1 == 1 ? "1" : "0" }.joined()
            var out = "  <sbix>\n    <version value=\"\(sbix.version)\"/>\n    <flags value=\"\(bits.prefix(8)) \(bits.suffix(8))\"/>\n"
            for strike in sbix.strikes.sorted(by: { $0.ppem < $1.ppem }) {
                out += "    <strike>\n      <ppem value=\"\(strike.ppem)\"/>\n      <resolution value=\"\(strike.resolution)\"/>\n"
                // As fontTools: the font's glyphs, each once.
                for (g, name) in names.enumerated() where g < strike.glyphs.count {
                    let escaped = xmlEscaped(name)
                    guard let glyph = strike.glyphs[g] else { out += "      <glyph name=\"\(escaped)\"/>\n"; continue }
                    out +=
                        "      <glyph graphicType=\"\(xmlEscaped(SbixXML.typeText(glyph.graphicType)))\" name=\"\(escaped)\" originOffsetX=\"\(glyph.originOffsetX)\" originOffsetY=\"\(glyph.originOffsetY)\">\n"
                    if let target = glyph.referencedGlyph {
                        out += "        <ref glyphname=\"\(xmlEscaped(glyphName(target, in: names)))\"/>\n"
                    } else {
                        out += "        <hexdata>\n" + hexLines(glyph.data, indent: 10) + "        </hexdata>\n"
                    }
                    out += "      </glyph>\n"
                }
                out += "    </strike>\n"
            }
            return out + "  </sbix>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            let reader = StructuredReader(face: face)
            let glyphCount = try face.glyphCount
            var version: UInt16 = 1, flags: UInt16 = 1
            var strikes: [SbixTable.Strike] = []
            for e in element.children {
                switch e.name {
                case "version": version = UInt16(try integerAttribute(e, "value", 0...0xFFFF))
                case "flags":
                    let text = try e.attribute("value").filter { $0 != " " }
                    guard let v = UInt16(text, radix: 2) else {
                        throw fail("value=\"\(try e.attribute("value"))\" is not 16 binary digits", e)
                    }
                    flags = v
                case "strike":
                    var strike = SbixTable.Strike(ppem: 0, resolution: 72, glyphs: Array(repeating: nil, count: glyphCount))
                    for c in e.children {
                        switch c.name {
                        case "ppem": strike.ppem = UInt16(try integerAttribute(c, "value", 0...0xFFFF))
                        case "resolution": strike.resolution = UInt16(try integerAttribute(c, "value", 0...0xFFFF))
                        case "glyph":
                            let id = try reader.glyph(try c.attribute(c.value("glyphname") != nil ? "glyphname" : "name"), c)
                            guard id < glyphCount else { throw fail("glyph \(id) is past the font's \(glyphCount) glyphs", c) }
                            guard let typeText = c.value("graphicType") else { strike.glyphs[id] = nil; continue }
                            guard let type = SbixXML.type(typeText) else {
                                throw fail("graphicType=\"\(typeText)\" is not up to four ASCII characters", c)
                            }
                            let x = Int16(try integerAttribute(c, "originOffsetX", -32768...32767)),
                                y = Int16(try integerAttribute(c, "originOffsetY", -32768...32767))
                            var data: [UInt8] = []
                            for d in c.children {
                                switch d.name {
                                case "hexdata": data = try hexBytes(d)
                                case "ref":
                                    let target = try reader.glyph(try d.attribute("glyphname"), d)
                                    data = [UInt8(target >> 8), UInt8(target & 0xFF)]
                                default: throw fail("<\(d.name)> in <glyph>: expected <hexdata> or <ref glyphname=/>", d)
                                }
                            }
                            strike.glyphs[id] = SbixTable.Glyph(originOffsetX: x, originOffsetY: y, graphicType: type, data: data)
                        default: throw fail("<\(c.name)> in <strike>: expected <ppem>, <resolution> or <glyph>", c)
                        }
                    }
                    guard !strikes.contains(where: { $0.ppem == strike.ppem }) else {
                        throw fail("a second strike for ppem \(strike.ppem)", e)
                    }
                    strikes.append(strike)
                default: throw fail("<\(e.name)> in <sbix>: expected <version>, <flags> or <strike>", e)
                }
            }
            strikes.sort { $0.ppem < $1.ppem }
            let bytes: [UInt8]
            do { bytes = try SbixTable(version: version, flags: flags, strikes: strikes).encode() } catch let error as FontError {
                throw fail(error.message, element)
            }
            if apply { face.setRawTable("sbix", bytes) }
        })
}

enum SbixXML {
    /// A graphic type as fontTools shows it: a trailing NUL dropped.
    static func typeText(_ t: Tag) -> String {
        let text = t.description
        return text.hasSuffix("\u{0}") ? String(text.dropLast()) : text
    }

    /// Up to four ASCII characters, padded with spaces.
    static func type(_ text: String) -> Tag? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return Tag((bytes + Array(repeating: 0x20, count: 4 - bytes.count)).reduce(0) { $0 << 8 | UInt32($1) })
    }
}

extension SbixTable: TTXTable { static var ttx: TTX.Converter { TTX.sbixConverter } }
