import FontModel

/// avar in TTX, as fontTools writes it: `<version major= minor=/>`, then per fvar axis a
/// `<segment axis=>` of `<mapping from= to=/>` in F2Dot14 text, sorted. Version 2 tables (an
/// ItemVariationStore over the axes) are written as hexdata for now.
extension TTX {
    static let avarConverter = Converter(
        dump: { face in
            guard let avar = try face.table(AvarTable.self), !avar.hasVersion2Mappings, let fvar = try face.table(FvarTable.self) else { return nil }
            func f2dot14(_ v: Double) -> String { decimalText(v, scale: 16384) }
            var out = "  <avar>\n    <version major=\"1\" minor=\"0\"/>\n"
            for (axis, map) in zip(fvar.axes, avar.maps) {
                out += "    <segment axis=\"\(xmlEscaped(axis.tag.description))\">\n"
                for p in map.sorted(by: { $0.from < $1.from }) { out += "      <mapping from=\"\(f2dot14(p.from))\" to=\"\(f2dot14(p.to))\"/>\n" }
                out += "    </segment>\n"
            }
            return out + "  </avar>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            guard let fvar = try face.table(FvarTable.self) else { throw fail("avar needs the face's fvar axes; the face has no fvar", element) }
            var segments: [String: AvarTable.SegmentMap] = [:]
            for e in element.children {
                switch e.name {
                case "version":
                    guard e.value("major") == "1" else { throw fail("only avar version 1 is fused from typed XML (version 2 as hexdata)", e) }
                case "segment":
                    let axis = try e.attribute("axis")
                    guard fvar.axes.contains(where: { $0.tag.description == axis }) else { throw fail("'\(axis)' is not an fvar axis", e) }
                    guard segments[axis] == nil else { throw fail("a second segment for axis '\(axis)'", e) }
                    var map: [Double: Double] = [:]
                    for m in e.children {
                        guard m.name == "mapping" else { throw fail("<\(m.name)> in <segment>: expected <mapping from= to=/>", m) }
                        func value(_ key: String) throws -> Double {
                            let text = try m.attribute(key)
                            guard let v = Double(text.trimmingWhitespace()), (-2...2).contains(v) else { throw fail("\(key)=\"\(text)\" is not an F2Dot14 value (-2…2)", m) }
                            return (v * 16384).rounded() / 16384
                        }
                        let from = try value("from")
                        guard map[from] == nil else { throw fail("a second mapping from \(from)", m) }
                        map[from] = try value("to")
                    }
                    segments[axis] = map.sorted { $0.key < $1.key }.map { (from: $0.key, to: $0.value) }
                default: throw fail("<\(e.name)> in <avar>: expected <version> or <segment>", e)
                }
            }
            let maps = fvar.axes.map { segments[$0.tag.description] ?? [] }
            for (axis, map) in zip(fvar.axes, maps) {
                for (a, b) in zip(map, map.dropFirst()) where b.to < a.to {
                    throw fail("axis '\(axis.tag)': mappings must not go down (\(a.from) → \(a.to), then \(b.from) → \(b.to))", element)
                }
            }
            if apply { face.setRawTable("avar", try AvarTable(maps: maps).encode()) }
        })
}
