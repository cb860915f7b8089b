import FontModel

/// gvar in TTX, as fontTools writes it: `<version>`, `<reserved>`, then for each glyph with
/// variations (by glyph name) a `<glyphVariations glyph=>` of `<tuple>`s: a `<coord axis=
/// value=>` per axis the tuple's region touches (with min= and max= when intermediate), then a
/// `<delta pt= x= y=/>` per point it moves (every point, phantoms included, when it moves all).
extension TTX {
    static let gvarConverter = Converter(
        dump: { face in
            guard let gvar = try face.gvar, let fvar = try face.table(FvarTable.self) else { return nil }
            let names = try face.glyphNames()
            let tags = fvar.axes.map(\.tag.description)
            var out = XMLText(capacity: 12 * (face.storedLength("gvar") ?? 0))
            out.add("  <gvar>\n    <version value=\""); out.add(gvar.version.major); out.add("\"/>\n    <reserved value=\"");
            out.add(gvar.version.minor); out.add("\"/>\n")
            for id in names.indices.sorted(by: { names[$0].unicodeScalars.lexicographicallyPrecedes(names[$1].unicodeScalars) })
            where id < gvar.glyphCount {
                guard try !gvar.glyphData(id).isEmpty else { continue }
                let pointCount = try face.gvarPointCount(id)
                let tuples = try gvar.variations(glyph: id, pointCount: pointCount)
                guard !tuples.isEmpty else { continue }
                out.add("    <glyphVariations glyph=\""); out.add(xmlEscaped(names[id])); out.add("\">\n")
                for t in tuples {
                    tupleElement(t, axes: tags, pointCount: pointCount, indent: 6, into: &out) { out, p, x, y in
                        out.add("pt=\""); out.add(p); out.add("\" x=\""); out.add(x); out.add("\" y=\""); out.add(y); out.add("\"")
                    }
                }
                out.add("    </glyphVariations>\n")
            }
            out.add("  </gvar>\n")
            return out.string
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            guard let fvar = try face.table(FvarTable.self) else {
                throw fail("gvar needs the face's fvar axes; the face has none", element)
            }
            let axisIndex = axisIndexes(fvar)
            var glyphs = [[TupleVariation]](repeating: [], count: try face.glyphCount)
            var seen: Set<Int> = []
            for e in element.children {
                switch e.name {
                case "version", "reserved": continue
                case "glyphVariations":
                    let name = try e.attribute("glyph")
                    guard let id = try face.glyphID(named: name) else { throw fail("glyph '\(name)' does not exist in this font", e) }
                    guard seen.insert(id).inserted else { throw fail("a second <glyphVariations> for '\(name)'", e) }
                    let pointCount = try face.gvarPointCount(id)
                    for t in e.children {
                        guard t.name == "tuple" else { throw fail("<\(t.name)> in <glyphVariations>: expected <tuple>", t) }
                        glyphs[id].append(
                            try readTuple(
                                t, axisIndex: axisIndex, pointCount: pointCount, what: "a point of '\(name)' (phantoms included)",
                                cvt: false))
                    }
                default: throw fail("<\(e.name)> in <gvar>: expected <version>, <reserved> or <glyphVariations>", e)
                }
            }
            let bytes: [UInt8]
            do { bytes = try GvarTable.encoded(axisCount: fvar.axes.count, glyphs: glyphs) } catch let error as FontError {
                throw fail(error.message, element)
            }
            if apply { face.setRawTable("gvar", bytes) }
        })
}

extension TTX {
    /// A tuple as fontTools writes it (gvar and cvar): a `<coord>` per axis its region touches,
    /// with min= and max= when intermediate, then a delta element per point or value it moves.
    static func tupleElement(
        _ t: TupleVariation, axes: [String], pointCount: Int, indent: Int, into out: inout XMLText,
        delta: (inout XMLText, Int, Int, Int) -> Void
    ) {
        func f2dot14(_ v: Double) -> String { text(v, as: F2Dot14.self) }
        out.spaces(indent); out.add("<tuple>\n")
        for (i, peak) in t.peak.enumerated() where i < axes.count {
            let start = t.start?[i] ?? min(peak, 0), end = t.end?[i] ?? max(peak, 0)
            guard start != 0 || peak != 0 || end != 0 else { continue }
            out.spaces(indent + 2); out.add("<coord axis=\""); out.add(xmlEscaped(axes[i]))
            if start == min(peak, 0) && end == max(peak, 0) {
                out.add("\" value=\""); out.add(f2dot14(peak)); out.add("\"/>\n")
            } else {
                out.add("\" min=\""); out.add(f2dot14(start)); out.add("\" value=\""); out.add(f2dot14(peak))
                out.add("\" max=\""); out.add(f2dot14(end)); out.add("\"/>\n")
            }
        }
        // Deltas by point (the last given for a point counts), points past the glyph's left out.
        let points = t.points ?? Array(0..<t.x.count)
        var deltas = [(x: Int, y: Int)?](repeating: nil, count: max(0, pointCount))
        var any = false
        for (k, p) in points.enumerated() where k < t.x.count && p >= 0 && p < pointCount {
            deltas[p] = (t.x[k], k < t.y.count ? t.y[k] : 0); any = true
        }
        if !any { out.spaces(indent + 2); out.add("<!-- no deltas -->\n") }
        for (p, d) in deltas.enumerated() {
            guard let d else { continue }
            out.spaces(indent + 2); out.add("<delta "); delta(&out, p, d.x, d.y); out.add("/>\n")
        }
        out.spaces(indent); out.add("</tuple>\n")
    }

    /// fvar axis tag → index; a repeated tag (a broken font) names its first axis rather than trapping.
    static func axisIndexes(_ fvar: FvarTable) -> [String: Int] {
        Dictionary(fvar.axes.enumerated().map { ($1.tag.description, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A `<tuple>` element (gvar: deltas `pt= x= y=`; cvar: `cvt= value=`) as a tuple variation.
    static func readTuple(_ t: XMLElement, axisIndex: [String: Int], pointCount: Int, what: String, cvt: Bool) throws -> TupleVariation {
        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        func f2dot14(_ m: XMLElement, _ key: String) throws -> Double? {
            guard let text = m.value(key) else { return nil }
            guard let v = Double(text.trimmingWhitespace()), (-2...2).contains(v) else {
                throw fail("\(key)=\"\(text)\" is not an F2Dot14 value (-2…2)", m)
            }
            return F2Dot14(clamping: v).value
        }
        func int16(_ c: XMLElement, _ key: String) throws -> Int {
            guard let v = Int(try c.attribute(key)), (-32768...32767).contains(v) else {
                throw fail("\(key) must be an integer −32768…32767", c)
            }
            return v
        }
        var peak = [Double](repeating: 0, count: axisIndex.count)
        var start: [Double]?, end: [Double]?
        var deltas: [Int: (Int, Int)] = [:]
        for c in t.children {
            switch c.name {
            case "coord":
                let axis = try c.attribute("axis")
                guard let i = axisIndex[axis] else { throw fail("'\(axis)' is not an fvar axis", c) }
                guard let value = try f2dot14(c, "value") else { throw fail("<coord> needs value=", c) }
                peak[i] = value
                if let lo = try f2dot14(c, "min"), let hi = try f2dot14(c, "max") {
                    if start == nil { start = peak.map { min($0, 0) }; end = peak.map { max($0, 0) } }
                    start![i] = lo; end![i] = hi
                } else if start != nil {
                    start![i] = min(value, 0); end![i] = max(value, 0)
                }
            case "delta":
                guard let p = Int(try c.attribute(cvt ? "cvt" : "pt")), (0..<pointCount).contains(p) else {
                    throw fail("\(cvt ? "cvt" : "pt") must be \(what) (0…\(pointCount - 1))", c)
                }
                deltas[p] = cvt ? (try int16(c, "value"), 0) : (try int16(c, "x"), try int16(c, "y"))
            default: throw fail("<\(c.name)> in <tuple>: expected <coord> or <delta>", c)
            }
        }
        let sorted = deltas.sorted { $0.key < $1.key }
        return TupleVariation(
            peak: peak, start: start, end: end, points: sorted.count == pointCount ? nil : sorted.map(\.key),
            x: sorted.map(\.value.0), y: cvt ? [] : sorted.map(\.value.1))
    }
}

extension GvarTable: TTXTable { static var ttx: TTX.Converter { TTX.gvarConverter } }
