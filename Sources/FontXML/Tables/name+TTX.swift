import FontModel

/// name in TTX: one <namerecord> per record, text decoded for the platforms that have an encoding.
extension TTX {
    static func nameTable(_ name: NameTable) -> String {
        var out = "  <name>\n"
        for r in name.records {
            let unicode = r.isUTF16 ? "" : " unicode=\"True\""
            let text = r.text ?? String(decoding: r.bytes, as: UTF8.self)
            out +=
                "    <namerecord nameID=\"\(r.nameID)\" platformID=\"\(r.platformID)\" platEncID=\"\(r.encodingID)\" langID=\"0x\(String(r.languageID, radix: 16))\"\(unicode)>\n"
            out += "      \(xmlEscapedKeepingEdges(text))\n    </namerecord>\n"
        }
        return out + "  </name>\n"
    }

    static func fuseNames(_ name: NameTable, _ element: XMLElement, apply: Bool) throws {
        var records: [NameRecord] = []
        for r in element.children {
            guard r.name == "namerecord" else {
                throw XMLError("<\(r.name)> in <name>: expected <namerecord>", line: r.line, column: r.column)
            }
            func number(_ key: String) throws -> Int {
                let text = try r.attribute(key)
                guard let v = parseInteger(text), (0...0xFFFF).contains(v) else {
                    throw XMLError("\(key)=\"\(text)\" is not a number 0...65535", line: r.line, column: r.column)
                }
                return Int(v)
            }
            let platform = try number("platformID"), encoding = try number("platEncID"), language = try number("langID"),
                id = try number("nameID")
            let text = r.trimmedText
            do {
                guard let record = try NameRecord(platformID: platform, encodingID: encoding, languageID: language, nameID: id, text: text)
                else {
                    throw XMLError(
                        "platform \(platform) encoding \(encoding) text cannot be written (only Unicode, Windows and Mac Roman)",
                        line: r.line, column: r.column)
                }
                records.append(record)
            } catch let e as FontError {
                throw XMLError(e.message, line: r.line, column: r.column)
            }
        }
        if apply { name.replaceRecords(records) }
    }

    static let nameConverter = Converter(
        dump: { face in nameTable(try face.name) },
        fuse: { element, face, apply in try fuseNames(try face.name, element, apply: apply) })
}

extension NameTable: TTXTable { static var ttx: TTX.Converter { TTX.nameConverter } }
