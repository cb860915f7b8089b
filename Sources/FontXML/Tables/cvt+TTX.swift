import FontModel

/// cvt in TTX, as fontTools writes it: `<cv index= value=/>` per control value. Fusing fills
/// indices not given with 0, as fontTools does.
extension TTX {
    static let maximumCvtCount: Int64 = 1 << 20

    static let cvtConverter = Converter(
        dump: { face in
            guard let cvt = try face.table(CvtTable.self) else { return nil }
            var out = "  <cvt>\n"
            for (k, v) in cvt.values.enumerated() { out += "    <cv index=\"\(k)\" value=\"\(v)\"/>\n" }
            return out + "  </cvt>\n"
        },
        fuse: { element, face, apply in
            var values: [Int] = []
            var given: Set<Int> = []
            for e in element.children {
                func fail(_ message: String) -> XMLError { XMLError(message, line: e.line, column: e.column) }
                guard e.name == "cv" else { throw fail("<\(e.name)> in <cvt>: expected <cv>") }
                let indexText = try e.attribute("index"), valueText = try e.attribute("value")
                // Bounded so a hostile index cannot allocate gigabytes; real tables hold thousands.
                guard let index = parseInteger(indexText), (0..<maximumCvtCount).contains(index) else {
                    throw fail("index=\"\(indexText)\" is not a control value index (0...\(maximumCvtCount - 1))")
                }
                guard let value = parseInteger(valueText), (-0x8000...0x7FFF).contains(value) else {
                    throw fail("value=\"\(valueText)\" is not an FWORD (-32768...32767)")
                }
                guard given.insert(Int(index)).inserted else { throw fail("a second value for index \(index)") }
                if values.count <= index { values += Array(repeating: 0, count: Int(index) + 1 - values.count) }
                values[Int(index)] = Int(value)
            }
            if apply { face.setRawTable("cvt ", try CvtTable(values: values).encode()) }
        })
}

extension CvtTable: TTXTable { static var ttx: TTX.Converter { TTX.cvtConverter } }
