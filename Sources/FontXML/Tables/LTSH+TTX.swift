import FontModel

/// LTSH in TTX, as fontTools writes it: a `<yPel name= value=/>` per glyph, sorted by name.
extension TTX {
    static let ltshConverter = Converter(
        dump: { face in
            guard let ltsh = try face.table(LTSHTable.self) else { return nil }
            let names = try face.glyphNames(), values = try ltsh.thresholds
            let entries = values.indices.map { (glyphName($0, in: names), values[$0]) }.sorted {
                $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars)
            }
            return "  <LTSH>\n" + entries.map { "    <yPel name=\"\(xmlEscaped($0.0))\" value=\"\($0.1)\"/>\n" }.joined() + "  </LTSH>\n"
        },
        fuse: { element, face, apply in
            let values = try perGlyphValues(element, "yPel", 0...255, face: face)
            if let missing = values.firstIndex(of: nil) {
                throw XMLError(
                    "<LTSH> has no <yPel> for glyph '\(try face.glyphName(missing))'", line: element.line, column: element.column)
            }
            if apply { face.setRawTable("LTSH", try LTSHTable.make(thresholds: values.map { $0 ?? 1 }).encode()) }
        })
}

extension LTSHTable: TTXTable { static var ttx: TTX.Converter { TTX.ltshConverter } }
