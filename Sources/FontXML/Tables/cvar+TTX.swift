import FontModel

/// cvar in TTX, as fontTools writes it: `<version major= minor=/>`, then each `<tuple>` with
/// its coords and a `<delta cvt= value=/>` per control value it moves.
extension TTX {
    static let cvarConverter = Converter(
        dump: { face in
            guard let cvar = try face.table(CvarTable.self), let fvar = try face.table(FvarTable.self) else { return nil }
            let count = try face.table(CvtTable.self)?.values.count ?? 0
            let tags = fvar.axes.map(\.tag.description)
            var out = XMLText()
            out.add("  <cvar>\n    <version major=\"1\" minor=\"0\"/>\n")
            for t in cvar.variations {
                tupleElement(t, axes: tags, pointCount: count, indent: 4, into: &out) { out, p, v, _ in
                    out.add("cvt=\""); out.add(p); out.add("\" value=\""); out.add(v); out.add("\"")
                }
            }
            out.add("  </cvar>\n")
            return out.string
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            guard let fvar = try face.table(FvarTable.self) else {
                throw fail("cvar needs the face's fvar axes; the face has none", element)
            }
            let count = try face.table(CvtTable.self)?.values.count ?? 0
            let axisIndex = axisIndexes(fvar)
            var tuples: [TupleVariation] = []
            for e in element.children {
                switch e.name {
                case "version": guard e.value("major") ?? "1" == "1" else { throw fail("only cvar version 1 exists", e) }
                case "tuple":
                    tuples.append(try readTuple(e, axisIndex: axisIndex, pointCount: count, what: "a control value index", cvt: true))
                default: throw fail("<\(e.name)> in <cvar>: expected <version> or <tuple>", e)
                }
            }
            let bytes: [UInt8]
            do { bytes = try CvarTable.encoded(tuples) } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("cvar", bytes) }
        })
}

extension CvarTable: TTXTable { static var ttx: TTX.Converter { TTX.cvarConverter } }
