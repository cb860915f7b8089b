import FontModel

/// CPAL in TTX, as fontTools writes it: `<version>`, `<numPaletteEntries>`, each `<palette
/// index= [label=] [type=]>` of `<color index= value="#RRGGBBAA"/>`, and version 1's
/// `<paletteEntryLabels>`.
extension TTX {
    static let cpalConverter = Converter(
        dump: { face in
            guard let cpal = try face.table(CPALTable.self) else { return nil }
            let names = face.has("name") ? try? face.name : nil
            var out = "  <CPAL>\n    <version value=\"\(cpal.version)\"/>\n    <numPaletteEntries value=\"\(cpal.entryCount)\"/>\n"
            for (k, palette) in cpal.palettes.enumerated() {
                var attributes = "index=\"\(k)\""
                let label = cpal.paletteLabels[k], type = cpal.paletteTypes[k]
                if cpal.version > 0 && label != CPALTable.noName { attributes += " label=\"\(label)\"" }
                if cpal.version > 0 && type != 0 { attributes += " type=\"\(type)\"" }
                out += "    <palette \(attributes)>\n"
                if cpal.version > 0, label != CPALTable.noName, let name = names?.debugName(label) {
                    out += "      <!-- \(xmlComment(name)) -->\n"
                }
                for (e, c) in palette.enumerated() { out += "      <color index=\"\(e)\" value=\"\(c.hex)\"/>\n" }
                out += "    </palette>\n"
            }
            if cpal.version > 0, cpal.entryLabels.contains(where: { $0 != CPALTable.noName }) {
                out += "    <paletteEntryLabels>\n"
                for (e, l) in cpal.entryLabels.enumerated() where l != CPALTable.noName {
                    out += "      <label index=\"\(e)\" value=\"\(l)\"/>"
                    if let name = names?.debugName(l) { out += "<!-- \(xmlComment(name)) -->" }
                    out += "\n"
                }
                out += "    </paletteEntryLabels>\n"
            }
            return out + "  </CPAL>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            var version = 0, entries = 0
            var palettes: [[CPALTable.Color]] = [], types: [UInt32] = [], labels: [Int] = []
            var entryLabels: [Int]?
            for e in element.children {
                switch e.name {
                case "version": version = Int(try integerAttribute(e, "value", 0...1))
                case "numPaletteEntries": entries = Int(try integerAttribute(e, "value", 0...0xFFFF))
                case "palette":
                    types.append(UInt32(try e.value("type").map { _ in try integerAttribute(e, "type", 0...0xFFFF_FFFF) } ?? 0))
                    labels.append(Int(try e.value("label").map { _ in try integerAttribute(e, "label", 0...0xFFFF) } ?? 0xFFFF))
                    palettes.append(
                        try e.children.map { c in
                            guard c.name == "color" else { throw fail("<\(c.name)> in <palette>: expected <color index= value=/>", c) }
                            let text = try c.attribute("value")
                            let digits = Array(text.utf8.dropFirst())
                            guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8,
                                let v = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
                            else {
                                throw fail("value=\"\(text)\" is not a colour like #RRGGBBAA", c)
                            }
                            let rgba = digits.count == 6 ? v << 8 | 0xFF : v
                            return CPALTable.Color(
                                red: UInt8(rgba >> 24), green: UInt8(rgba >> 16 & 0xFF), blue: UInt8(rgba >> 8 & 0xFF),
                                alpha: UInt8(rgba & 0xFF))
                        })
                case "paletteEntryLabels":
                    var list = [Int](repeating: CPALTable.noName, count: entries)
                    for l in e.children where l.name == "label" {
                        let k = Int(try integerAttribute(l, "index", 0...0xFFFF))
                        guard k < entries else { throw fail("label index \(k) is past the \(entries) palette entries", l) }
                        list[k] = Int(try integerAttribute(l, "value", 0...0xFFFF))
                    }
                    entryLabels = list
                default: throw fail("<\(e.name)> in <CPAL>: expected <version>, <numPaletteEntries>, <palette> or <paletteEntryLabels>", e)
                }
            }
            let bytes: [UInt8]
            do {
                bytes = try CPALTable(
                    version: version, entryCount: entries, palettes: palettes, paletteTypes: types, paletteLabels: labels,
                    entryLabels: entryLabels ?? []
                ).encode()
            } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("CPAL", bytes) }
        })
}

extension CPALTable: TTXTable { static var ttx: TTX.Converter { TTX.cpalConverter } }
