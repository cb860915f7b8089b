import FontModel

/// VTT's source tables in TTX, as fontTools writes them. TSI0 and TSI2 (the indexes) are a
/// comment: fusing TSI1 or TSI3 rebuilds them. TSI1 and TSI3 are a `<glyphProgram name=>` per
/// glyph with a program, sorted by name, then an `<extraProgram name=>` per extra program, each
/// text on lines of its own (carriage returns written as newlines). TSI5 is a `<glyphgroup
/// name= value=/>` per glyph, sorted by name. TSIV, TSIB, TSID, TSIJ, TSIP and TSIS are their
/// text in a `<source>`.
extension TTX {
    static func vttIndexConverter(_ tag: Tag) -> Converter {
        let name = xmlName(tag)
        return Converter(
            dump: { _ in "  <\(name)>\n    <!-- This table will be calculated by the compiler -->\n  </\(name)>\n" },
            fuse: { _, _, _ in })   // rebuilt with its text table
    }

    /// The lines between the one after the start tag and the one before the end tag, as
    /// fontTools takes a program's or source's text.
    static func innerLines(_ element: XMLElement) -> [Substring] {
        let lines = VTTProgramsTable.withNewlines(element.text).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 2 ? Array(lines[1..<(lines.count - 1)]) : []
    }

    static func vttProgramsConverter(_ type: VTTProgramsTable.Type) -> Converter {
        let tag = type.tableTag, name = xmlName(tag)
        return Converter(
            dump: { face in
                guard let table = try face.decodedTable(tag) as? VTTProgramsTable else { return nil }
                let names = try face.glyphNames()
                var out = "  <\(name)>\n\n"
                let programs = table.programs.map { (glyphName($0.key, in: names), $0.value) }
                    .sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }
                for (glyph, text) in programs {
                    out +=
                        "    <glyphProgram name=\"\(xmlEscaped(glyph))\">\n\(xmlEscaped(VTTProgramsTable.withNewlines(text)))\n    </glyphProgram>\n\n"
                }
                for extra in table.extraPrograms.keys.sorted() {
                    let text = table.extraPrograms[extra] ?? ""
                    out +=
                        "    <extraProgram name=\"\(xmlEscaped(extra))\">\n\(xmlEscaped(VTTProgramsTable.withNewlines(text)))\n    </extraProgram>\n\n"
                }
                return out + "  </\(name)>\n"
            },
            fuse: { element, face, apply in
                let reader = StructuredReader(face: face)
                let extraNames = Set(type.extraNames.map(\.name))
                var programs: [Int: String] = [:], extras: [String: String] = [:]
                for e in element.children {
                    let text = innerLines(e).joined(separator: "\r")
                    switch e.name {
                    case "glyphProgram": programs[try reader.glyph(try e.attribute("name"), e)] = text
                    case "extraProgram":
                        let extra = try e.attribute("name")
                        guard extraNames.contains(extra) else {
                            throw XMLError(
                                "<extraProgram name=\"\(extra)\">: \(tag.trimmed)'s extra programs are \(type.extraNames.map(\.name).joined(separator: ", "))",
                                line: e.line, column: e.column)
                        }
                        extras[extra] = text
                    default:
                        throw XMLError(
                            "<\(e.name)> in <\(name)>: expected <glyphProgram name=> or <extraProgram name=>", line: e.line,
                            column: e.column)
                    }
                }
                let glyphCount = try face.glyphCount
                if let past = programs.keys.first(where: { $0 >= glyphCount }) {
                    throw XMLError(
                        "<\(name)> has a program for glyph \(past), past the font's \(glyphCount) glyphs", line: element.line,
                        column: element.column)
                }
                let compiled = VTTProgramsTable.compile(
                    programs: programs, extraPrograms: extras, extraNames: type.extraNames, glyphCount: glyphCount)
                if apply {
                    face.setRawTable(tag, compiled.text)
                    face.setRawTable(type.indexTag, compiled.index)
                }
            })
    }

    static let tsi5Converter = Converter(
        dump: { face in
            guard let table = try face.table(TSI5Table.self) else { return nil }
            let names = try face.glyphNames()
            let entries = table.groups.indices.map { (glyphName($0, in: names), table.groups[$0]) }
                .sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }
            return "  <TSI5>\n" + entries.map { "    <glyphgroup name=\"\(xmlEscaped($0.0))\" value=\"\($0.1)\"/>\n" }.joined()
                + "  </TSI5>\n"
        },
        fuse: { element, face, apply in
            // Glyphs without a <glyphgroup> are in group 0, as fontTools compiles them.
            let groups = try perGlyphValues(element, "glyphgroup", 0...0xFFFF, face: face).map { $0 ?? 0 }
            if apply { face.setRawTable("TSI5", try TSI5Table(groups: groups).encode()) }
        })

    static func vttTextConverter(_ type: VTTTextTable.Type) -> Converter {
        let tag = type.tableTag, name = xmlName(tag)
        return Converter(
            dump: { face in
                guard let text = (try face.decodedTable(tag) as? VTTTextTable)?.text else { return nil }   // fontTools reads ASCII only
                return "  <\(name)>\n    <source>\n\(xmlEscaped(text))\n    </source>\n  </\(name)>\n"
            },
            fuse: { element, face, apply in
                guard let source = element.children.first(where: { $0.name == "source" }), element.children.count == 1 else {
                    throw XMLError("<\(name)> holds one <source> with the text", line: element.line, column: element.column)
                }
                if apply { face.setRawTable(tag, VTTTextTable.encode(text: innerLines(source).joined(separator: "\n"))) }
            })
    }
}

extension TSI0Table: TTXTable { static var ttx: TTX.Converter { TTX.vttIndexConverter("TSI0") } }
extension TSI2Table: TTXTable { static var ttx: TTX.Converter { TTX.vttIndexConverter("TSI2") } }
extension TSI1Table: TTXTable { static var ttx: TTX.Converter { TTX.vttProgramsConverter(TSI1Table.self) } }
extension TSI3Table: TTXTable { static var ttx: TTX.Converter { TTX.vttProgramsConverter(TSI3Table.self) } }
extension TSI5Table: TTXTable { static var ttx: TTX.Converter { TTX.tsi5Converter } }
extension TSIVTable: TTXTable { static var ttx: TTX.Converter { TTX.vttTextConverter(TSIVTable.self) } }
extension TSIBTable: TTXTable { static var ttx: TTX.Converter { TTX.vttTextConverter(TSIBTable.self) } }
extension TSIDTable: TTXTable { static var ttx: TTX.Converter { TTX.vttTextConverter(TSIDTable.self) } }
extension TSIJTable: TTXTable { static var ttx: TTX.Converter { TTX.vttTextConverter(TSIJTable.self) } }
extension TSIPTable: TTXTable { static var ttx: TTX.Converter { TTX.vttTextConverter(TSIPTable.self) } }
extension TSISTable: TTXTable { static var ttx: TTX.Converter { TTX.vttTextConverter(TSISTable.self) } }
