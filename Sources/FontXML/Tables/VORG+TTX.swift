import FontModel

/// VORG in TTX, as fontTools writes it: the header fields, then a `<VOriginRecord>` of
/// `<glyphName>` and `<vOrigin>` per glyph with its own origin, in glyph order.
extension TTX {
    static let vorgConverter = Converter(
        dump: { face in
            guard let vorg = try face.table(VORGTable.self) else { return nil }
            let names = try face.glyphNames()
            var out = "  <VORG>\n    <majorVersion value=\"\(vorg.majorVersion)\"/>\n    <minorVersion value=\"\(vorg.minorVersion)\"/>\n"
            out +=
                "    <defaultVertOriginY value=\"\(vorg.defaultVertOriginY)\"/>\n    <numVertOriginYMetrics value=\"\(vorg.origins.count)\"/>\n"
            for (g, y) in vorg.origins.sorted(by: { $0.key < $1.key }) {
                out +=
                    "    <VOriginRecord>\n      <glyphName value=\"\(xmlEscaped(glyphName(g, in: names)))\"/>\n      <vOrigin value=\"\(y)\"/>\n    </VOriginRecord>\n"
            }
            return out + "  </VORG>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            func number(_ e: XMLElement, _ range: ClosedRange<Int64>) throws -> Int { Int(try integerAttribute(e, "value", range)) }
            var major = 1, minor = 0, defaultY = 0
            var origins: [Int: Int] = [:]
            for e in element.children {
                switch e.name {
                case "majorVersion": major = try number(e, 1...2)
                case "minorVersion": minor = try number(e, 0...0xFFFF)
                case "defaultVertOriginY": defaultY = try number(e, -0x8000...0x7FFF)
                case "numVertOriginYMetrics": continue   // follows from the records
                case "VOriginRecord":
                    guard let nameElement = e.children.first(where: { $0.name == "glyphName" }),
                        let yElement = e.children.first(where: { $0.name == "vOrigin" })
                    else {
                        throw fail("<VOriginRecord> needs <glyphName> and <vOrigin>", e)
                    }
                    let name = try nameElement.attribute("value")
                    guard let g = try face.glyphID(named: name) else {
                        throw fail("glyph '\(name)' does not exist in this font", nameElement)
                    }
                    origins[g] = try number(yElement, -0x8000...0x7FFF)
                default: throw fail("<\(e.name)> in <VORG>: expected the header fields or <VOriginRecord>", e)
                }
            }
            let bytes: [UInt8]
            do {
                bytes = try VORGTable(majorVersion: major, minorVersion: minor, defaultVertOriginY: defaultY, origins: origins).encode()
            } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("VORG", bytes) }
        })
}

extension VORGTable: TTXTable { static var ttx: TTX.Converter { TTX.vorgConverter } }
