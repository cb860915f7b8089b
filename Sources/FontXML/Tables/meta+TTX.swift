import FontModel

/// meta in TTX, as fontTools writes it: by tag, `<text tag="dlng">…</text>` for the language
/// lists and `<hexdata tag=>` (with an "ascii:" comment when printable) for the rest.
extension TTX {
    static let metaConverter = Converter(
        dump: { face in
            guard let meta = try face.table(MetaTable.self) else { return nil }
            var out = "  <meta>\n"
            for e in meta.entries.sorted(by: { $0.tag.rawValue < $1.tag.rawValue }) {
                let tag = xmlEscaped(e.tag.description)
                if let text = meta.text(e.tag) {
                    out += "    <text tag=\"\(tag)\">\n      \(xmlEscaped(text))\n    </text>\n"
                } else {
                    out += "    <hexdata tag=\"\(tag)\">\n"
                    if !e.data.isEmpty, e.data.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
                        out += "      <!-- ascii: \(xmlComment(String(decoding: e.data, as: UTF8.self))) -->\n"
                    }
                    out += hexLines(e.data) + "    </hexdata>\n"
                }
            }
            return out + "  </meta>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            var entries: [(tag: Tag, data: [UInt8])] = []
            for e in element.children {
                let text = try e.attribute("tag")
                guard let tag = Tag(string: text) else { throw fail("tag=\"\(text)\" is not a four-character tag", e) }
                guard !entries.contains(where: { $0.tag == tag }) else { throw fail("a second entry for '\(text)'", e) }
                switch e.name {
                case "text":
                    guard MetaTable.textTags.contains(tag) else {
                        throw fail("<text> is for dlng and slng; give '\(text)' as <hexdata tag=>", e)
                    }
                    entries.append((tag, Array(e.text.trimmingWhitespace().utf8)))
                case "hexdata": entries.append((tag, try hexBytes(e)))
                default: throw fail("<\(e.name)> in <meta>: expected <text tag=> or <hexdata tag=>", e)
                }
            }
            let bytes: [UInt8]
            do { bytes = try MetaTable(entries: entries).encode() } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("meta", bytes) }
        })
}

extension MetaTable: TTXTable { static var ttx: TTX.Converter { TTX.metaConverter } }
