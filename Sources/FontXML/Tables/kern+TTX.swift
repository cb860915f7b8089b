import FontModel

/// kern in TTX, as fontTools writes it: `<version>`, then per subtable a `<kernsubtable>` with
/// its coverage and format; format 0 lists `<pair l= r= v=>` sorted by glyph names, other
/// formats are hex data of the whole subtable (header included).
extension TTX {
    static func kernTable(_ kern: KernTable, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        var out = "  <kern>\n    <version value=\"\(kern.isApple ? "1.0" : "0")\"/>\n"
        for st in kern.subtables {
            if st.format == 0 {
                var attributes = "coverage=\"\(st.coverage)\" format=\"0\""
                if kern.isApple { attributes += " tupleIndex=\"\(st.tupleIndex ?? 0)\"" }
                out += "    <kernsubtable \(attributes)>\n"
                let named = st.pairs.map { (glyphName($0.left, in: names), glyphName($0.right, in: names), $0.value) }
                for (l, r, v) in named.sorted(by: {
                    $0.0 == $1.0 ? $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8)
                }) {
                    out += "      <pair l=\"\(xmlEscaped(l))\" r=\"\(xmlEscaped(r))\" v=\"\(v)\"/>\n"
                }
            } else {
                out += "    <kernsubtable format=\"\(st.format)\">\n      <!-- unknown 'kern' subtable format -->\n"
                out += hexLines(subtableBytes(st, apple: kern.isApple))
            }
            out += "    </kernsubtable>\n"
        }
        return out + "  </kern>\n"
    }

    /// A kept subtable's bytes with its header, as fontTools dumps them.
    static func subtableBytes(_ st: KernTable.Subtable, apple: Bool) -> [UInt8] {
        var w = BinaryWriter()
        if apple {
            w.u32(UInt32(truncatingIfNeeded: st.body.count + 8)); w.u8(UInt8(st.coverage)); w.u8(UInt8(st.format));
            w.u16(UInt16(st.tupleIndex ?? 0))
        } else {
            w.u16(0); w.u16(UInt16(truncatingIfNeeded: st.body.count + 6)); w.u8(UInt8(st.format)); w.u8(UInt8(st.coverage))
        }
        w.append(st.body)
        return w.bytes
    }

    static func fuseKern(_ element: XMLElement, _ face: Face, apply: Bool) throws {
        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        var apple = false
        var subtables: [KernTable.Subtable] = []
        for e in element.children {
            switch e.name {
            case "version":
                let text = try e.attribute("value")
                guard let v = Double(text), v == 0 || v == 1 else { throw fail("kern version is 0 or 1.0, got '\(text)'", e) }
                apple = v == 1
            case "kernsubtable":
                guard let format = parseInteger(try e.attribute("format")), (0...255).contains(format) else {
                    throw fail("format is a byte (0...255)", e)
                }
                if format != 0 {
                    let bytes = try hexBytes(e)
                    let headerSize = apple ? 8 : 6
                    guard bytes.count >= headerSize else { throw fail("a kern subtable needs its \(headerSize)-byte header", e) }
                    let coverage = Int(apple ? bytes[4] : bytes[5])
                    let tuple = apple ? Int(bytes[6]) << 8 | Int(bytes[7]) : nil
                    subtables.append(
                        KernTable.Subtable(format: Int(format), coverage: coverage, tupleIndex: tuple, body: Array(bytes[headerSize...])))
                    continue
                }
                guard let coverage = parseInteger(try e.attribute("coverage")), (0...255).contains(coverage) else {
                    throw fail("coverage is a byte (0...255)", e)
                }
                let tuple = apple ? parseInteger(e.value("tupleIndex") ?? "0").map(Int.init) : nil
                if let tuple, !(0...0xFFFF).contains(tuple) { throw fail("tupleIndex is a UInt16 (0...65535)", e) }
                var pairs: [KernTable.KernPair] = []
                for p in e.children {
                    guard p.name == "pair" else { throw fail("<\(p.name)> in <kernsubtable>: expected <pair>", p) }
                    let l = try p.attribute("l"), r = try p.attribute("r")
                    guard let left = try face.glyphID(named: l) else { throw fail("glyph '\(l)' does not exist in this font", p) }
                    guard let right = try face.glyphID(named: r) else { throw fail("glyph '\(r)' does not exist in this font", p) }
                    guard let v = parseInteger(try p.attribute("v")), (-32768...32767).contains(v) else {
                        throw fail("v is Int16 (-32768...32767)", p)
                    }
                    pairs.append(KernTable.KernPair(left, right, Int(v)))
                }
                subtables.append(KernTable.Subtable(format: 0, coverage: Int(coverage), tupleIndex: tuple, pairs: pairs))
            default:
                throw fail("<\(e.name)> in <kern>: expected <version> or <kernsubtable>", e)
            }
        }
        let table = KernTable(version: apple ? 1 : 0, subtables: [])
        do { try table.setSubtables(subtables) } catch let error as FontError { throw fail(error.message, element) }
        if apply { face.setRawTable("kern", try table.encode()) }
    }

    static let kernConverter = Converter(
        dump: { face in try face.kern.map { try kernTable($0, face) } },
        fuse: { element, face, apply in try fuseKern(element, face, apply: apply) })
}

extension KernTable: TTXTable { static var ttx: TTX.Converter { TTX.kernConverter } }
