import FontModel

/// SVG in TTX, as fontTools writes it: an `<svgDoc startGlyphID= endGlyphID= [compressed="1"]>`
/// per document range, the document as CDATA (uncompressed; "compressed" says it is stored gzipped).
extension TTX {
    static let svgConverter = Converter(
        dump: { face in
            guard let svg = try face.table(SVGTable.self) else { return nil }
            var out = "  <SVG>\n"
            for d in svg.documents {
                out +=
                    "    <svgDoc \(d.compressed ? "compressed=\"1\" " : "")endGlyphID=\"\(d.lastGlyph)\" startGlyphID=\"\(d.firstGlyph)\">\n"
                // A "]]>" inside the document is split across two CDATA sections.
                out +=
                    "      <![CDATA["
                    + d.text.split(separator: "]]>", omittingEmptySubsequences: false).joined(separator: "]]]]><![CDATA[>") + "]]>\n"
                out += "    </svgDoc>\n"
            }
            return out + "  </SVG>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            let documents = try element.children.map { e -> SVGTable.Document in
                guard e.name == "svgDoc" else { throw fail("<\(e.name)> in <SVG>: expected <svgDoc startGlyphID= endGlyphID=>", e) }
                let first = UInt16(try integerAttribute(e, "startGlyphID", 0...0xFFFF)),
                    last = UInt16(try integerAttribute(e, "endGlyphID", 0...0xFFFF))
                guard first <= last else { throw fail("startGlyphID \(first) is after endGlyphID \(last)", e) }
                let compressed = try e.value("compressed").map { _ in try integerAttribute(e, "compressed", 0...1) == 1 } ?? false
                return SVGTable.Document(firstGlyph: first, lastGlyph: last, text: e.text.trimmingWhitespace(), compressed: compressed)
            }
            let bytes: [UInt8]
            do { bytes = try SVGTable(documents: documents).encode() } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("SVG ", bytes) }
        })
}

extension SVGTable: TTXTable { static var ttx: TTX.Converter { TTX.svgConverter } }
