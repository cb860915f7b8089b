import FontModel

/// gasp in TTX, as fontTools writes it: `<gaspRange rangeMaxPPEM= rangeGaspBehavior=/>` sorted by
/// size, no version (it follows from the flags used).
extension TTX {
    static let gaspConverter = Converter(
        dump: { face in
            guard let gasp = try face.table(GaspTable.self) else { return nil }
            var out = "  <gasp>\n"
            for r in try gasp.ranges.sorted(by: { $0.maxPPEM < $1.maxPPEM }) {
                out += "    <gaspRange rangeMaxPPEM=\"\(r.maxPPEM)\" rangeGaspBehavior=\"\(r.behavior)\"/>\n"
            }
            return out + "  </gasp>\n"
        },
        fuse: { element, face, apply in
            var ranges: [(maxPPEM: Int, behavior: Int)] = []
            var seen: Set<Int> = []
            for e in element.children {
                guard e.name == "gaspRange" else {
                    throw XMLError("<\(e.name)> in <gasp>: expected <gaspRange>", line: e.line, column: e.column)
                }
                let size = try uint16(e, "rangeMaxPPEM"), behavior = try uint16(e, "rangeGaspBehavior")
                guard seen.insert(size).inserted else {
                    throw XMLError("a second range for rangeMaxPPEM \(size)", line: e.line, column: e.column)
                }
                ranges.append((size, behavior))
            }
            if apply { face.setRawTable("gasp", try GaspTable.make(ranges: ranges).encode()) }
        })

    /// An attribute holding a UInt16, or an error naming it and its element's position.
    static func uint16(_ e: XMLElement, _ key: String) throws -> Int {
        let text = try e.attribute(key)
        guard let v = parseInteger(text), (0...0xFFFF).contains(v) else {
            throw XMLError("\(key)=\"\(text)\" is not a UInt16 (0...65535)", line: e.line, column: e.column)
        }
        return Int(v)
    }
}

extension GaspTable: TTXTable { static var ttx: TTX.Converter { TTX.gaspConverter } }
