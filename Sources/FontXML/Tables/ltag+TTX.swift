import FontModel

/// ltag in TTX, as fontTools writes it: `<version value=/>`, `<flags value=/>`, then a
/// `<LanguageTag tag=/>` per tag.
extension TTX {
    static let ltagConverter = Converter(
        dump: { face in
            guard let ltag = try face.table(LtagTable.self) else { return nil }
            var out = "  <ltag>\n    <version value=\"\(ltag.version)\"/>\n    <flags value=\"\(ltag.flags)\"/>\n"
            for tag in ltag.tags { out += "    <LanguageTag tag=\"\(xmlEscaped(tag))\"/>\n" }
            return out + "  </ltag>\n"
        },
        fuse: { element, face, apply in
            var version: UInt32 = 1, flags: UInt32 = 0, tags: [String] = []
            for e in element.children {
                switch e.name {
                case "version": version = UInt32(try integerAttribute(e, "value", 0...0xFFFF_FFFF))
                case "flags": flags = UInt32(try integerAttribute(e, "value", 0...0xFFFF_FFFF))
                case "LanguageTag":
                    let tag = try e.attribute("tag")
                    guard tag.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                        throw XMLError("tag=\"\(tag)\" is not ASCII text", line: e.line, column: e.column)
                    }
                    tags.append(tag)
                default:
                    throw XMLError("<\(e.name)> in <ltag>: expected <version>, <flags> or <LanguageTag>", line: e.line, column: e.column)
                }
            }
            do {
                let bytes = try LtagTable(version: version, flags: flags, tags: tags).encode()
                if apply { face.setRawTable("ltag", bytes) }
            } catch let error as FontError {
                throw XMLError(error.message, line: element.line, column: element.column)
            }
        })
}

extension LtagTable: TTXTable { static var ttx: TTX.Converter { TTX.ltagConverter } }
