import FontModel

/// Silf in TTX, as fontTools writes it: `<version version= compilerVersion=
/// compressionScheme=>`, then per subtable a `<silf>` with its scalars (`<info>`,
/// `<passindexes>`, `<contexts>`, `<attributes>`), justification levels, critical features,
/// script tags, `<pseudoMap>`, `<classes>` (linear glyph lists, non-linear glyph → index maps)
/// and `<passes>`: each pass's scalars, glyph columns (`<colmap>` of name=column), the rules of
/// each success state, the rules with their programs as text (`SilfCode`), and the state machine.
extension TTX {
    static let silfConverter = Converter(
        dump: { face in
            guard let silf = try face.table(SilfTable.self) else { return nil }
            return try SilfXML.dump(silf, names: try face.glyphNames())
        },
        fuse: { element, face, apply in
            let x = GraphiteXML.Reader(face: face, table: "Silf")
            let table = try SilfXML.read(element, x)
            let bytes = try x.encoded(element) { try table.encode() }
            if apply { face.setRawTable("Silf", bytes) }
        })
}

enum SilfXML {
    typealias Silf = SilfTable
    static let info = [
        "flags", "extraAscent", "extraDescent", "maxGlyphID", "numLigComp", "numUserDefn", "maxCompPerLig", "direction", "lbGID",
    ]
    static let passIndexes = ["iSubst", "iPos", "iJust", "iBidi"]
    static let contexts = ["maxPreContext", "maxPostContext"]
    static let attributes = ["attrPseudo", "attrBreakWeight", "attrDirectionality", "attrMirroring", "attrSkipPasses", "attCollisions"]
    static let scalarGroups = [("info", info), ("passindexes", passIndexes), ("contexts", contexts), ("attributes", attributes)]

    // MARK: dump

    static func dump(_ silf: Silf, names: [String]) throws -> String {
        var out = "  <Silf>\n    <!-- Attributes starting with _ are informative only -->\n"
        // fontTools re-reads the version of Silf 3 and later unrounded ("3.0000152587890625").
        let version = silf.version >= 0x0003_0000 ? "\(Double(silf.version) / Fixed.scale)" : GraphiteXML.versionText(silf.version)
        out +=
            "    "
            + GraphiteXML.tag(
                "version",
                [
                    ("version", version), ("compilerVersion", "\(silf.compilerVersion)"),
                    ("compressionScheme", "\(silf.compression)"),
                ]) + "\n"
        func name(_ g: UInt16) -> String { glyphName(Int(g), in: names) }
        for s in silf.subtables {
            out += "    <silf>\n"
            if silf.version >= 0x0003_0000 {
                out += "      " + GraphiteXML.tag("version", [("ruleVersion", GraphiteXML.versionText(s.ruleVersion))]) + "\n"
            }
            for (tag, keys) in scalarGroups { out += "      " + GraphiteXML.tag(tag, keys.map { ($0, "\(s.scalar($0))") }) + "\n" }
            if !s.justifications.isEmpty {
                out += "      <justifications>\n"
                for j in s.justifications {
                    out += "        " + GraphiteXML.tag("justify", zip(Silf.Justification.names, j.values).map { ($0, "\($1)") }) + "\n"
                }
                out += "      </justifications>\n"
            }
            if !s.critFeatures.isEmpty {
                out += "      <critFeatures>\n        \(s.critFeatures.map(String.init).joined(separator: " "))\n      </critFeatures>\n"
            }
            if !s.scriptTags.isEmpty {
                out +=
                    "      <scriptTags>\n        \(xmlEscaped(s.scriptTags.map(\.description).joined(separator: " ")))\n      </scriptTags>\n"
            }
            if !s.pseudos.isEmpty {
                out += "      <pseudoMap>\n"
                for p in s.pseudos.sorted(by: { $0.unicode < $1.unicode }) {
                    out +=
                        "        "
                        + GraphiteXML.tag("pseudo", [("unicode", "0x" + String(p.unicode, radix: 16)), ("pseudo", name(p.glyph))]) + "\n"
                }
                out += "      </pseudoMap>\n"
            }
            out += "      <classes>\n        <linearClasses>\n"
            for (k, c) in s.linearClasses.enumerated() {
                out +=
                    "          <linear _index=\"\(k)\">\n" + GraphiteXML.wrapped(c.map { xmlEscaped(name($0)) }, indent: "            ")
                    + "          </linear>\n"
            }
            out += "        </linearClasses>\n        <nonLinearClasses>\n"
            for (k, c) in s.nonLinearClasses.enumerated() {
                out += "          <nonLinear _index=\"\(k + s.linearClasses.count)\">\n"
                // A glyph listed twice appears once, with its last index, as in fontTools' dictionary.
                var last: [UInt16: UInt16] = [:]
                for pair in c { last[pair.glyph] = pair.index }
                for pair in c {
                    guard let index = last.removeValue(forKey: pair.glyph) else { continue }
                    out += "            " + GraphiteXML.tag("map", [("glyph", name(pair.glyph)), ("index", "\(index)")]) + "\n"
                }
                out += "          </nonLinear>\n"
            }
            out += "        </nonLinearClasses>\n      </classes>\n"
            if !s.passes.isEmpty {
                out += "      <passes>\n"
                for (k, p) in s.passes.enumerated() {
                    out += "        <pass _index=\"\(k)\">\n" + (try dump(p, name: name)) + "        </pass>\n"
                }
                out += "      </passes>\n"
            }
            out += "    </silf>\n"
        }
        return out + "  </Silf>\n"
    }

    static func dump(_ p: Silf.Pass, name: (UInt16) -> String) throws -> String {
        let indent = "          "
        var out = indent + GraphiteXML.tag("info", zip(Silf.Pass.infoNames, p.info).map { ($0, "\($1)") }) + "\n"
        out += indent + GraphiteXML.tag("fsminfo", zip(Silf.Pass.machineNames, p.machine).map { ($0, "\($1)") }) + "\n"
        out +=
            indent + "<colmap>\n"
            + GraphiteXML.wrapped(p.columns.map { xmlEscaped(name($0.glyph)) + "=\($0.column)" }, indent: indent + "  ") + indent
            + "</colmap>\n"
        out += indent + "<staterulemap>\n"
        let firstSuccess = Int(p.machine[0]) - Int(p.machine[2])
        for (k, rules) in p.stateRules.enumerated() {
            out +=
                indent + "  "
                + GraphiteXML.tag("state", [("number", "\(firstSuccess + k)"), ("rules", rules.map(String.init).joined(separator: " "))])
                + "\n"
        }
        out += indent + "</staterulemap>\n" + indent + "<rules>\n"
        // A program as one instruction a line, or an error naming it (the table is then hexdata).
        func code(_ tag: String, _ bytes: [UInt8], _ what: String, indent: String) throws -> String {
            let lines: [String]
            do { lines = try SilfCode.disassemble(bytes) } catch let error as FontError {
                throw FontError("\(what): \(error.message)", table: "Silf")
            }
            return "\(indent)<\(tag)>\n" + lines.map { "\(indent)  \($0)\n" }.joined() + "\(indent)</\(tag)>\n"
        }
        for (k, r) in p.rules.enumerated() {
            out +=
                indent + "  "
                + GraphiteXML.tag(
                    "rule", [("index", "\(k)"), ("precontext", "\(r.preContext)"), ("sortkey", "\(r.sortKey)")], close: false) + "\n"
            if !r.constraint.isEmpty { out += try code("constraint", r.constraint, "rule \(k) constraint", indent: indent + "    ") }
            out += try code("action", r.action, "rule \(k) action", indent: indent + "    ")
            out += indent + "  </rule>\n"
        }
        out += indent + "</rules>\n"
        if !p.passConstraint.isEmpty { out += try code("passConstraint", p.passConstraint, "pass constraint", indent: indent) }
        if !p.transitions.isEmpty {
            out += indent + "<fsm>\n" + indent + "  <starts>\(p.startStates.map(String.init).joined(separator: " "))</starts>\n"
            for (k, row) in p.transitions.enumerated() {
                out += indent + "  <row _i=\"\(k)\">\(row.map(String.init).joined(separator: " "))</row>\n"
            }
            out += indent + "</fsm>\n"
        }
        return out
    }

    // MARK: fuse

    static func read(_ element: XMLElement, _ x: GraphiteXML.Reader) throws -> Silf {
        var version: UInt32 = 0x0002_0000, compilerVersion: UInt32 = 0, compression = 0
        var subtables: [Silf.Subtable] = []
        for e in element.children {
            switch e.name {
            case "version":
                version = try x.version(e)
                compilerVersion = UInt32(try x.int(e, "compilerVersion", 0...0xFFFF_FFFF))
                compression = try x.int(e, "compressionScheme", 0...1)
            case "silf": subtables.append(try subtable(e, x, version: version))
            default: throw x.fail("<\(e.name)> in <Silf>: expected <version> or <silf>", e)
            }
        }
        guard version >= 0x0002_0000, version < 0x0006_0000 else { throw x.fail("Silf versions 2 to 5 can be written", element) }
        guard compression == 0 || version >= 0x0005_0000 else { throw x.fail("compression needs Silf version 5", element) }
        return Silf(version: version, compilerVersion: compilerVersion, compression: compression, subtables: subtables)
    }

    static func words(_ e: XMLElement) -> [String] {
        e.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map(String.init)
    }

    static func numbers(_ e: XMLElement, _ x: GraphiteXML.Reader, _ range: ClosedRange<Int> = 0...0xFFFF) throws -> [UInt16] {
        try words(e).map { w in
            guard let v = Int(w), range.contains(v) else {
                throw x.fail("'\(w)' in <\(e.name)> is not a number in \(range.lowerBound)...\(range.upperBound)", e)
            }
            return UInt16(v)
        }
    }

    static func subtable(_ element: XMLElement, _ x: GraphiteXML.Reader, version: UInt32) throws -> Silf.Subtable {
        var s = Silf.Subtable(
            ruleVersion: 0, scalars: [:], justifications: [], critFeatures: [], scriptTags: [], pseudos: [],
            linearClasses: [], nonLinearClasses: [], passes: [])
        let signed: Set<String> = ["extraAscent", "extraDescent"], wide: Set<String> = ["maxGlyphID", "numLigComp", "lbGID"]
        for e in element.children {
            if let keys = scalarGroups.first(where: { $0.0 == e.name })?.1 {
                for key in keys {
                    s.scalars[key] = try x.int(e, key, signed.contains(key) ? -32768...32767 : wide.contains(key) ? 0...0xFFFF : 0...255)
                }
                continue
            }
            switch e.name {
            case "version": s.ruleVersion = try x.version(e, "ruleVersion")
            case "justifications":
                s.justifications = try e.children.map { j in
                    guard j.name == "justify" else { throw x.fail("<\(j.name)> in <justifications>: expected <justify>", j) }
                    return Silf.Justification(values: try Silf.Justification.names.map { UInt8(try x.int(j, $0, 0...255)) })
                }
            case "critFeatures": s.critFeatures = try numbers(e, x)
            case "scriptTags":
                s.scriptTags = try words(e).map { w in
                    guard let t = Tag(string: w) else { throw x.fail("'\(w)' in <scriptTags> is not a tag", e) }
                    return t
                }
            case "pseudoMap":
                s.pseudos = try e.children.map { p in
                    guard p.name == "pseudo" else { throw x.fail("<\(p.name)> in <pseudoMap>: expected <pseudo unicode= pseudo=/>", p) }
                    return Silf.Pseudo(
                        unicode: UInt32(try x.int(p, "unicode", 0...0xFFFF_FFFF)), glyph: try x.glyph(try p.attribute("pseudo"), p))
                }
            case "classes":
                for group in e.children {
                    switch group.name {
                    case "linearClasses":
                        s.linearClasses = try group.children.map { c in
                            guard c.name == "linear" else { throw x.fail("<\(c.name)> in <linearClasses>: expected <linear>", c) }
                            return try words(c).map { try x.glyph($0, c) }
                        }
                    case "nonLinearClasses":
                        s.nonLinearClasses = try group.children.map { c in
                            guard c.name == "nonLinear" else { throw x.fail("<\(c.name)> in <nonLinearClasses>: expected <nonLinear>", c) }
                            return try c.children.map { m in
                                guard m.name == "map" else { throw x.fail("<\(m.name)> in <nonLinear>: expected <map glyph= index=/>", m) }
                                return (glyph: try x.glyph(try m.attribute("glyph"), m), index: UInt16(try x.int(m, "index", 0...0xFFFF)))
                            }
                        }
                    default: throw x.fail("<\(group.name)> in <classes>: expected <linearClasses> or <nonLinearClasses>", group)
                    }
                }
            case "passes":
                s.passes = try e.children.map { p in
                    guard p.name == "pass" else { throw x.fail("<\(p.name)> in <passes>: expected <pass>", p) }
                    return try pass(p, x)
                }
            default: throw x.fail("<\(e.name)> in <silf> is not part of a Silf subtable", e)
            }
        }
        for (tag, keys) in scalarGroups {
            for key in keys where s.scalars[key] == nil { throw x.fail("<silf> needs <\(tag)> with \(key)=", element) }
        }
        return s
    }

    static func program(_ e: XMLElement, _ x: GraphiteXML.Reader) throws -> [UInt8] {
        do {
            return try SilfCode.assemble(e.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        } catch let error as FontError {
            throw x.fail("<\(e.name)>: \(error.message)", e)
        }
    }

    static func pass(_ element: XMLElement, _ x: GraphiteXML.Reader) throws -> Silf.Pass {
        var p = Silf.Pass(
            info: [], machine: [], columns: [], stateRules: [], startStates: [], rules: [], passConstraint: [], transitions: [])
        for e in element.children {
            switch e.name {
            case "info": p.info = try Silf.Pass.infoNames.map { UInt8(try x.int(e, $0, 0...255)) }
            case "fsminfo": p.machine = try Silf.Pass.machineNames.map { UInt16(try x.int(e, $0, 0...0xFFFF)) }
            case "colmap":
                var columns: [UInt16: UInt16] = [:]
                for w in words(e) {
                    let parts = w.split(separator: "=", omittingEmptySubsequences: false)
                    guard parts.count == 2, let column = UInt16(parts[1]) else { throw x.fail("'\(w)' in <colmap> is not glyph=column", e) }
                    columns[try x.glyph(String(parts[0]), e)] = column
                }
                p.columns = columns.sorted { $0.key < $1.key }.map { (glyph: $0.key, column: $0.value) }
            case "staterulemap":
                p.stateRules = try e.children.map { st in
                    guard st.name == "state" else { throw x.fail("<\(st.name)> in <staterulemap>: expected <state number= rules=/>", st) }
                    return try st.attribute("rules").split(separator: " ").map { w in
                        guard let v = UInt16(w) else {
                            throw x.fail("rules=\"\(try st.attribute("rules"))\" is not a list of rule numbers", st)
                        }
                        return v
                    }
                }
            case "rules":
                p.rules = try e.children.map { r in
                    guard r.name == "rule" else { throw x.fail("<\(r.name)> in <rules>: expected <rule>", r) }
                    var rule = Silf.Rule(
                        sortKey: UInt16(try x.int(r, "sortkey", 0...0xFFFF)), preContext: UInt8(try x.int(r, "precontext", 0...255)),
                        constraint: [], action: [])
                    for c in r.children {
                        switch c.name {
                        case "constraint": rule.constraint = try program(c, x)
                        case "action": rule.action = try program(c, x)
                        default: throw x.fail("<\(c.name)> in <rule>: expected <constraint> or <action>", c)
                        }
                    }
                    return rule
                }
            case "passConstraint": p.passConstraint = try program(e, x)
            case "fsm":
                for c in e.children {
                    switch c.name {
                    case "starts": p.startStates = try numbers(c, x)
                    case "row": p.transitions.append(try numbers(c, x))
                    default: throw x.fail("<\(c.name)> in <fsm>: expected <starts> or <row>", c)
                    }
                }
            default: throw x.fail("<\(e.name)> in <pass> is not part of a Silf pass", e)
            }
        }
        guard p.info.count == 7 else { throw x.fail("<pass> needs <info>", element) }
        guard p.machine.count == 4 else { throw x.fail("<pass> needs <fsminfo>", element) }
        return p
    }
}

extension SilfTable: TTXTable { static var ttx: TTX.Converter { TTX.silfConverter } }
