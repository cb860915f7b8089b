import FontModel

/// hmtx and vmtx in TTX: one <mtx> per glyph name, advance and side bearing.
extension TTX {
    static func metrics(_ m: MetricsTable, _ face: Face, _ element: String, _ advance: String, _ bearing: String) throws -> String {
        let names = try face.glyphNames()
        // One line per glyph, tens of thousands in CJK fonts: built as bytes, not interpolated strings.
        var out: [UInt8] = []
        out.reserveCapacity(names.count * 48)
        func append(_ s: String) { out.append(contentsOf: s.utf8) }
        func append(_ v: Int) {
            if v < 0 { out.append(UInt8(ascii: "-")) }
            var magnitude = v.magnitude, digits: [UInt8] = []
            repeat { digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10)); magnitude /= 10 } while magnitude > 0
            out.append(contentsOf: digits.reversed())
        }
        append("  <\(element)>\n")
        let middle = "\" \(advance)=\"", last = "\" \(bearing)=\""
        // fontTools orders by glyph name (code point order).
        let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
        for id in order where id < m.glyphCount {
            append("    <mtx name=\"")
            append(xmlEscaped(names[id]))
            append(middle); append(m.advances[id])
            append(last); append(m.sideBearings[id])
            append("\"/>\n")
        }
        append("  </\(element)>\n")
        return String(decoding: out, as: UTF8.self)
    }

    static func fuseMetrics(_ m: MetricsTable, _ face: Face, _ element: XMLElement, _ advance: String, _ bearing: String, apply: Bool)
        throws
    {
        // Rows usually come in glyph order (ttx sorts by name, which is glyph order for CID
        // fonts' cidNNNNN): try the glyph after the last one before hashing the name.
        let names = try face.glyphNames()
        var next = 0
        for e in element.children {
            guard e.name == "mtx" else {
                throw XMLError("<\(e.name)> in <\(element.name)>: expected <mtx>", line: e.line, column: e.column)
            }
            let glyph = try e.attribute("name")
            let guess: Int? = next < names.count && names[next] == glyph ? next : nil
            guard let id = try guess ?? face.glyphID(named: glyph) else {
                throw XMLError("glyph '\(glyph)' does not exist in this font", line: e.line, column: e.column)
            }
            next = id + 1
            do {
                guard let a = parseInteger(try e.attribute(advance)), let b = parseInteger(try e.attribute(bearing)) else {
                    throw XMLError("\(advance) and \(bearing) must be integers", line: e.line, column: e.column)
                }
                guard (0...0xFFFF).contains(a) else { throw FontError("\(advance) is UInt16 (0...65535), got \(a)") }
                guard (-32768...32767).contains(b) else { throw FontError("\(bearing) is Int16 (-32768...32767), got \(b)") }
                if apply {
                    try m.setAdvance(id, Int(a))
                    try m.setSideBearing(id, Int(b))
                }
            } catch let error as FontError {
                throw XMLError(error.message, line: e.line, column: e.column)
            }
        }
    }

    static let hmtxConverter = Converter(
        dump: { face in try metrics(face.hmtx, face, "hmtx", "width", "lsb") },
        fuse: { element, face, apply in try fuseMetrics(try face.hmtx, face, element, "width", "lsb", apply: apply) })

    static let vmtxConverter = Converter(
        dump: { face in try face.vmtx.map { try metrics($0, face, "vmtx", "height", "tsb") } },
        fuse: { element, face, apply in
            guard let v = try face.vmtx else {
                throw XMLError("the face has no vmtx table to fuse into", line: element.line, column: element.column)
            }
            try fuseMetrics(v, face, element, "height", "tsb", apply: apply)
        })
}

extension HmtxTable: TTXTable { static var ttx: TTX.Converter { TTX.hmtxConverter } }

extension VmtxTable: TTXTable { static var ttx: TTX.Converter { TTX.vmtxConverter } }
