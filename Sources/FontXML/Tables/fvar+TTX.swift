import FontModel

/// fvar in TTX, as fontTools writes it: each `<Axis>` with its fields as elements (values in
/// fixed-point text, the axis name as a comment before it), then each `<NamedInstance flags=
/// subfamilyNameID= [postscriptNameID=]>` with a `<coord axis= value=/>` per axis.
extension TTX {
    static let fvarConverter = Converter(
        dump: { face in
            guard let fvar = try face.table(FvarTable.self) else { return nil }
            let names = face.has("name") ? try? face.name : nil
            func fixed(_ v: Double) -> String { text(v, as: Fixed.self) }
            func flags(_ v: UInt16) -> String { "0x" + String(v, radix: 16, uppercase: true) }
            func comment(_ id: Int) -> String { names?.debugName(id).map { "\n    <!-- \(xmlComment($0)) -->\n" } ?? "" }
            var out = "  <fvar>\n"
            for a in fvar.axes {
                out += comment(a.nameID) + "    <Axis>\n"
                for (tag, value) in [
                    ("AxisTag", a.tag.description), ("Flags", flags(a.flags)), ("MinValue", fixed(a.minimum)),
                    ("DefaultValue", fixed(a.defaultValue)), ("MaxValue", fixed(a.maximum)), ("AxisNameID", String(a.nameID)),
                ] {
                    out += "      <\(tag)>\(xmlEscaped(value))</\(tag)>\n"
                }
                out += "    </Axis>\n"
            }
            for i in fvar.instances {
                out += comment(i.subfamilyNameID)
                if let ps = i.postScriptNameID, let psName = names?.debugName(ps) {
                    out += "    <!-- PostScript: \(xmlComment(psName)) -->\n"
                }
                var attributes = "flags=\"\(flags(i.flags))\" subfamilyNameID=\"\(i.subfamilyNameID)\""
                if let ps = i.postScriptNameID { attributes += " postscriptNameID=\"\(ps)\"" }
                out += "    <NamedInstance \(attributes)>\n"
                for (a, v) in zip(fvar.axes, i.coordinates) {
                    out += "      <coord axis=\"\(xmlEscaped(a.tag.description))\" value=\"\(fixed(v))\"/>\n"
                }
                out += "    </NamedInstance>\n"
            }
            return out + "  </fvar>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            func number(_ text: String, _ e: XMLElement, _ range: ClosedRange<Int64>) throws -> Int {
                guard let v = parseInteger(text.trimmingWhitespace()), range.contains(v) else {
                    throw fail("'\(text)' is not a number in \(range.lowerBound)...\(range.upperBound)", e)
                }
                return Int(v)
            }
            func fixed(_ text: String, _ e: XMLElement) throws -> Double {
                guard let v = TTX.fixedPoint(text, as: Fixed.self) else { throw fail("'\(text)' is not a Fixed value", e) }
                return v.value
            }
            var axes: [FvarTable.Axis] = []
            var instances: [(FvarTable.Instance, [String: Double], XMLElement)] = []
            for e in element.children {
                switch e.name {
                case "Axis":
                    var values: [String: (String, XMLElement)] = [:]
                    for c in e.children { values[c.name] = (c.text, c) }
                    func field(_ name: String) throws -> (String, XMLElement) {
                        guard let v = values[name] else { throw fail("<Axis> needs <\(name)>", e) }
                        return v
                    }
                    let tagText = try field("AxisTag")
                    guard let tag = Tag(string: tagText.0.trimmingWhitespace()) else {
                        throw fail("'\(tagText.0)' is not an axis tag", tagText.1)
                    }
                    let lo = try field("MinValue"), def = try field("DefaultValue"), hi = try field("MaxValue")
                    let axis = FvarTable.Axis(
                        tag: tag, minimum: try fixed(lo.0, lo.1), defaultValue: try fixed(def.0, def.1), maximum: try fixed(hi.0, hi.1),
                        flags: UInt16(try values["Flags"].map { try number($0.0, $0.1, 0...0xFFFF) } ?? 0),
                        nameID: try number(try field("AxisNameID").0, e, 0...0xFFFF))
                    guard axis.minimum <= axis.defaultValue, axis.defaultValue <= axis.maximum else {
                        throw fail("axis '\(tag)': MinValue ≤ DefaultValue ≤ MaxValue is required", e)
                    }
                    axes.append(axis)
                case "NamedInstance":
                    var coordinates: [String: Double] = [:]
                    for c in e.children {
                        guard c.name == "coord" else { throw fail("<\(c.name)> in <NamedInstance>: expected <coord axis= value=/>", c) }
                        coordinates[try c.attribute("axis")] = try fixed(try c.attribute("value"), c)
                    }
                    let ps = try e.value("postscriptNameID").map { try number($0, e, 0...0xFFFF) }
                    let instance = FvarTable.Instance(
                        subfamilyNameID: try number(try e.attribute("subfamilyNameID"), e, 0...0xFFFF),
                        flags: UInt16(try number(e.value("flags") ?? "0", e, 0...0xFFFF)),
                        coordinates: [], postScriptNameID: ps == 0xFFFF ? nil : ps)
                    instances.append((instance, coordinates, e))
                default: throw fail("<\(e.name)> in <fvar>: expected <Axis> or <NamedInstance>", e)
                }
            }
            let resolved = try instances.map { (instance, coordinates, e) -> FvarTable.Instance in
                var i = instance
                i.coordinates = try axes.map { a in
                    guard let v = coordinates[a.tag.description] else { throw fail("<NamedInstance> has no coord for axis '\(a.tag)'", e) }
                    return v
                }
                if let extra = coordinates.keys.first(where: { k in !axes.contains { $0.tag.description == k } }) {
                    throw fail("<NamedInstance> has a coord for '\(extra)', which is not an axis", e)
                }
                return i
            }
            // As fontTools: instance records carry PostScript name ids when any instance has one.
            let table = FvarTable(axes: axes, instances: resolved, hasPostScriptNameIDs: resolved.contains { $0.postScriptNameID != nil })
            let bytes: [UInt8]
            do { bytes = try table.encode() } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("fvar", bytes) }
        })
}

extension FvarTable: TTXTable { static var ttx: TTX.Converter { TTX.fvarConverter } }
