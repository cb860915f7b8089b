import FontModel

/// LTSH in TTX, as fontTools writes it: a `<yPel name= value=/>` per glyph, sorted by name.
extension TTX {
    static let ltshConverter = Converter(
        dump: { face in
            guard let ltsh = try face.table(LTSHTable.self) else { return nil }
            let names = try face.glyphNames(), values = try ltsh.thresholds
            let entries = values.indices.map { (glyphName($0, in: names), values[$0]) }.sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }
            return "  <LTSH>\n" + entries.map { "    <yPel name=\"\(xmlEscaped($0.0))\" value=\"\($0.1)\"/>\n" }.joined() + "  </LTSH>\n"
        },
        fuse: { element, face, apply in
            var values: [Int?] = Array(repeating: nil, count: try face.glyphCount)
            let reader = StructuredReader(face: face)
            for e in element.children {
                guard e.name == "yPel" else { throw XMLError("<\(e.name)> in <LTSH>: expected <yPel name= value=/>", line: e.line, column: e.column) }
                let id = try reader.glyph(try e.attribute("name"), e)
                guard id < values.count else { throw XMLError("glyph \(id) is past the font's \(values.count) glyphs", line: e.line, column: e.column) }
                values[id] = Int(try integerAttribute(e, "value", 0...255))
            }
            if let missing = values.firstIndex(of: nil) {
                throw XMLError("<LTSH> has no <yPel> for glyph '\(try face.glyphName(missing))'", line: element.line, column: element.column)
            }
            if apply { face.setRawTable("LTSH", try LTSHTable.make(thresholds: values.map { $0 ?? 1 }).encode()) }
        })
}

extension LTSHTable: TTXTable { static var ttx: TTX.Converter { TTX.ltshConverter } }
