import FontModel

/// hdmx in TTX, as fontTools writes it: one `<hdmxData>` text block, a `ppem:` row of the sizes
/// then a row per glyph (sorted by name) of its widths at each size, each row ending in ";"
/// (a ";" inside a glyph name is written \x3b). Fused, each size's maximum is recomputed.
extension TTX {
    static let hdmxConverter = Converter(
        dump: { face in
            guard let hdmx = try face.table(HdmxTable.self) else { return nil }
            let names = try face.glyphNames()
            let records = hdmx.records.sorted { $0.ppem < $1.ppem }
            let order = names.indices.sorted { names[$0].unicodeScalars.lexicographicallyPrecedes(names[$1].unicodeScalars) }
            let nameWidth = names.map(\.count).max() ?? 0
            func row(_ label: String, _ values: [Int]) -> String {
                "      " + String(repeating: " ", count: max(0, nameWidth - label.count)) + label + ":"
                    + values.map { v in
                        let t = String(v); return String(repeating: " ", count: max(0, 4 - t.count)) + t
                    }.joined() + " ;\n"
            }
            var out = "  <hdmx>\n    <hdmxData>\n" + row("ppem", records.map { Int($0.ppem) }) + "\n"
            for g in order {
                out += row(
                    xmlEscaped(names[g].split(separator: ";", omittingEmptySubsequences: false).joined(separator: "\\x3b")),
                    records.map { Int($0.widths[g]) })
            }
            return out + "    </hdmxData>\n  </hdmx>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            guard element.children.count == 1, let data = element.children.first, data.name == "hdmxData" else {
                throw fail("<hdmx> holds one <hdmxData>", element)
            }
            let rows = data.text.split(separator: ";").map { $0.split(whereSeparator: \.isWhitespace) }.filter { !$0.isEmpty }
            guard let header = rows.first, header.first == "ppem:" else {
                throw fail("<hdmxData> starts with a 'ppem:' row of sizes", data)
            }
            let ppems = try header.dropFirst().map { t -> UInt8 in
                guard let v = UInt8(t) else { throw fail("'\(t)' in the ppem row is not a size in 0...255", data) }
                return v
            }
            guard Set(ppems).count == ppems.count else { throw fail("a size is listed twice in the ppem row", data) }
            let glyphCount = try face.glyphCount
            var widths = [[UInt8]](repeating: [UInt8](repeating: 0, count: glyphCount), count: ppems.count)
            var seen = [Bool](repeating: false, count: glyphCount)
            for r in rows.dropFirst() {
                guard let label = r.first, label.hasSuffix(":") else {
                    throw fail("a row of <hdmxData> starts with a glyph name and ':'", data)
                }
                let name = HdmxXML.unescaped(String(label.dropLast()))
                guard let id = try face.glyphID(named: name) else { throw fail("no glyph named '\(name)' in the font", data) }
                guard r.count == ppems.count + 1 else { throw fail("'\(name)' has \(r.count - 1) widths for \(ppems.count) sizes", data) }
                for (k, t) in r.dropFirst().enumerated() {
                    guard let v = UInt8(t) else { throw fail("'\(t)' for '\(name)' is not a width in 0...255", data) }
                    widths[k][id] = v
                }
                seen[id] = true
            }
            if let missing = seen.firstIndex(of: false) { throw fail("no widths for glyph '\(try face.glyphName(missing))'", data) }
            let records = zip(ppems, widths).sorted { $0.0 < $1.0 }.map {
                HdmxTable.Record(ppem: $0.0, maxWidth: $0.1.max() ?? 0, widths: $0.1)
            }
            if apply { face.setRawTable("hdmx", try HdmxTable(records: records).encode()) }
        })
}

enum HdmxXML {
    /// A glyph name as written in <hdmxData>, with its "\\x3b" back to ";".
    static func unescaped(_ text: String) -> String {
        let parts = text.split(separator: "\\x3b", omittingEmptySubsequences: false)
        return parts.joined(separator: ";")
    }
}

extension HdmxTable: TTXTable { static var ttx: TTX.Converter { TTX.hdmxConverter } }
