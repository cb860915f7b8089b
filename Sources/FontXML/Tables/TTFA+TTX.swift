import FontModel

/// TTFA (ttfautohint's parameters) in TTX, as fontTools writes such text tables: the text
/// inside `<source>`, on lines of its own; NUL bytes are dropped, as fontTools drops them.
extension TTX {
    static let ttfaConverter: Converter = {
        let name = xmlName(TTFATable.tableTag)
        return Converter(
            dump: { face in
                guard let text = try face.table(TTFATable.self)?.text else { return nil }   // fontTools reads ASCII only
                return "  <\(name)>\n    <source>\n\(xmlEscaped(text))\n    </source>\n  </\(name)>\n"
            },
            fuse: { element, face, apply in
                guard let source = element.children.first(where: { $0.name == "source" }), element.children.count == 1 else {
                    throw XMLError("<\(name)> holds one <source> with the text", line: element.line, column: element.column)
                }
                // As fontTools: the lines between the one after <source> and the one before </source>.
                let lines = source.text.split(separator: "\n", omittingEmptySubsequences: false)
                let text = lines.count > 2 ? lines[1..<(lines.count - 1)].joined(separator: "\n") : ""
                if apply { face.setRawTable(TTFATable.tableTag, Array(text.utf8)) }
            })
    }()
}

extension TTFATable: TTXTable { static var ttx: TTX.Converter { TTX.ttfaConverter } }
