import FontModel

/// morx in TTX, as fontTools writes it: per chain its default flags, `<MorphFeature>`s and
/// `<MorphSubtable>`s (text direction and processing order from the coverage byte); a state
/// machine as `<StateTable>`: `<GlyphClass glyph= value=/>` by glyph name, then each `<State>`'s
/// `<Transition onGlyphClass=>` (NewState, named Flags, and per type MarkIndex/CurrentIndex,
/// ligature `<Action>`s, inserted glyphs or the rearrangement Verb), `<PerGlyphLookup>`s,
/// `<LigComponents>` and `<Ligatures>`; a non-contextual subtable as its `<Substitution>` lookup.
extension TTX {
    static let morxConverter = Converter(
        dump: { face in
            guard let morx = try face.table(MorxTable.self) else { return nil }
            return MorxXML.dump(morx, names: try face.glyphNames())
        },
        fuse: { element, face, apply in
            let read = try MorxXML.read(element, face: face, legacy: false)
            let table = MorxTable(
                version: UInt16(read.version), reserved: read.reserved, chains: read.chains, glyphCount: try face.glyphCount)
            let bytes: [UInt8]
            do { bytes = try table.encode() } catch let error as FontError {
                throw XMLError("morx: \(error.message)", line: element.line, column: element.column)
            }
            if apply { face.setRawTable("morx", bytes) }
        })

    /// mort, morx's predecessor, in the same elements but for its header (`<Version>` as a
    /// 16.16 hex number, no `<Reserved>`), the subtable's `<CoverageFlags>` byte in place of
    /// direction and order, and ligature tables' `<MortLigatureRebase>` (fontTools 4.68).
    static let mortConverter = Converter(
        dump: { face in
            guard let mort = try face.table(MortTable.self) else { return nil }
            return MorxXML.dump(mort, names: try face.glyphNames())
        },
        fuse: { element, face, apply in
            let read = try MorxXML.read(element, face: face, legacy: true)
            let table = MortTable(version: read.version, chains: read.chains, glyphCount: try face.glyphCount)
            let bytes: [UInt8]
            do { bytes = try table.encode() } catch let error as FontError {
                throw XMLError("mort: \(error.message)", line: element.line, column: element.column)
            }
            if apply { face.setRawTable("mort", bytes) }
        })
}

enum MorxXML {
    typealias Morx = MorxTable

    /// Coverage bits 0x40 (descending) and 0x10 (logical) as fontTools names the four orders.
    static let orders: [(name: String, bits: UInt8)] = [
        ("LayoutOrder", 0), ("ReversedLayoutOrder", 0x40), ("LogicalOrder", 0x10), ("ReversedLogicalOrder", 0x50),
    ]

    /// fontTools writes flag words as "0x%08X", SubFeatureFlags as "0x%08x".
    static func hex(_ v: UInt32, uppercase: Bool) -> String {
        "0x" + (uppercase ? paddedHex(v, 8).uppercased() : paddedHex(v, 8))
    }

    /// Glyph names in Python's order (by code point), as fontTools sorts its dictionaries.
    static func byName(_ pairs: [(glyph: UInt16, value: UInt16)], _ names: [String]) -> [(name: String, value: UInt16)] {
        pairs.map { (glyphName(Int($0.glyph), in: names), $0.value) }
            .sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
    }

    // MARK: dump

    static func dump(_ morx: Morx, names: [String]) -> String {
        let header = "    <Version value=\"\(morx.version)\"/>\n    <Reserved value=\"\(morx.reserved)\"/>\n"
        return dump(tag: "morx", header: header, chains: morx.chains, legacy: false, names: names)
    }

    static func dump(_ mort: MortTable, names: [String]) -> String {
        dump(
            tag: "mort", header: "    <Version value=\"0x\(paddedHex(mort.version, 8))\"/>\n", chains: mort.chains, legacy: true,
            names: names)
    }

    static func dump(tag: String, header: String, chains: [Morx.Chain], legacy: Bool, names: [String]) -> String {
        var out = "  <\(tag)>\n" + header
        out += "    <!-- MorphChainCount=\(chains.count) -->\n"
        func name(_ g: UInt16) -> String { xmlEscaped(glyphName(Int(g), in: names)) }
        for (c, chain) in chains.enumerated() {
            out += "    <MorphChain index=\"\(c)\">\n      <DefaultFlags value=\"\(hex(chain.defaultFlags, uppercase: true))\"/>\n"
            out += "      <!-- StructLength=\(chain.storedLength) -->\n      <!-- MorphFeatureCount=\(chain.features.count) -->\n"
            out += "      <!-- MorphSubtableCount=\(chain.subtables.count) -->\n"
            for (k, f) in chain.features.enumerated() {
                out +=
                    "      <MorphFeature index=\"\(k)\">\n        <FeatureType value=\"\(f.type)\"/>\n        <FeatureSetting value=\"\(f.setting)\"/>\n"
                out +=
                    "        <EnableFlags value=\"\(hex(f.enableFlags, uppercase: true))\"/>\n        <DisableFlags value=\"\(hex(f.disableFlags, uppercase: true))\"/>\n      </MorphFeature>\n"
            }
            for (s, sub) in chain.subtables.enumerated() {
                out += "      <MorphSubtable index=\"\(s)\">\n        <!-- StructLength=\(sub.storedLength) -->\n"
                if legacy {
                    out += "        <CoverageFlags value=\"\(sub.coverage)\"/>\n        <!-- MorphType=\(sub.kind.rawValue) -->\n"
                    out += "        <SubFeatureFlags value=\"\(hex(sub.subFeatureFlags, uppercase: false))\"/>\n"
                    out += "        <\(sub.kind.name)>\n" + body(sub) + "        </\(sub.kind.name)>\n      </MorphSubtable>\n"
                    continue
                }
                let direction = sub.coverage & 0x20 != 0 ? "Any" : sub.coverage & 0x80 != 0 ? "Vertical" : "Horizontal"
                let order = orders.first { $0.bits == sub.coverage & 0x50 }?.name ?? "LayoutOrder"
                out += "        <TextDirection value=\"\(direction)\"/>\n        <ProcessingOrder value=\"\(order)\"/>\n"
                let reserved = UInt32(sub.coverage & 0xF) << 16 | UInt32(sub.reserved)
                if reserved != 0 { out += "        <Reserved value=\"0x\(paddedHex(reserved, 4))\"/>\n" }
                out +=
                    "        <!-- MorphType=\(sub.kind.rawValue) -->\n        <SubFeatureFlags value=\"\(hex(sub.subFeatureFlags, uppercase: false))\"/>\n"
                out += "        <\(sub.kind.name)>\n" + body(sub) + "        </\(sub.kind.name)>\n      </MorphSubtable>\n"
            }
            out += "    </MorphChain>\n"
        }
        return out + "  </\(tag)>\n"

        func body(_ sub: Morx.Subtable) -> String {
            if let m = sub.machine { return stateTable(m, sub.kind, name: name, names: names) }
            var out = "          <Substitution>\n"
            for p in byName(sub.substitutions, names) {
                out += "            <Lookup glyph=\"\(xmlEscaped(p.name))\" value=\"\(name(p.value))\"/>\n"
            }
            return out + "          </Substitution>\n"
        }
    }

    static let verbs = [
        "no change", "Ax ⇒ xA", "xD ⇒ Dx", "AxD ⇒ DxA", "ABx ⇒ xAB", "ABx ⇒ xBA", "xCD ⇒ CDx", "xCD ⇒ DCx",
        "AxCD ⇒ CDxA", "AxCD ⇒ DCxA", "ABxD ⇒ DxAB", "ABxD ⇒ DxBA", "ABxCD ⇒ CDxAB", "ABxCD ⇒ CDxBA", "ABxCD ⇒ DCxAB", "ABxCD ⇒ DCxBA",
    ]

    static func stateTable(_ m: Morx.StateMachine, _ kind: Morx.Kind, name: (UInt16) -> String, names: [String]) -> String {
        var out = "          <StateTable>\n            <!-- GlyphClassCount=\(m.classCount) -->\n"
        for p in byName(m.classes, names) { out += "            <GlyphClass glyph=\"\(xmlEscaped(p.name))\" value=\"\(p.value)\"/>\n" }
        for (k, row) in m.states.enumerated() {
            out += "            <State index=\"\(k)\">\n"
            for (cls, e) in row.enumerated() {
                out += "              <Transition onGlyphClass=\"\(cls)\">\n                <NewState value=\"\(e.newState)\"/>\n"
                let flags = kind.flagNames.filter { e.flags & $0.1 != 0 }.map(\.0)
                if !flags.isEmpty { out += "                <Flags value=\"\(flags.joined(separator: ","))\"/>\n" }
                let reserved = e.flags & kind.reservedMask & (kind == .rearrangement ? 0xFFF0 : 0xFFFF)
                if reserved != 0 { out += "                <ReservedFlags value=\"0x\(paddedHex(UInt32(reserved), 4).uppercased())\"/>\n" }
                switch kind {
                case .rearrangement:
                    out += "                <Verb value=\"\(e.flags & 0xF)\"/><!-- \(verbs[Int(e.flags & 0xF)]) -->\n"
                case .contextual:
                    out +=
                        "                <MarkIndex value=\"\(e.markIndex)\"/>\n                <CurrentIndex value=\"\(e.currentIndex)\"/>\n"
                case .ligature:
                    for a in e.ligatureActions {
                        out += "                <Action GlyphIndexDelta=\"\(a.delta)\"\(a.store ? " Flags=\"Store\"" : "")/>\n"
                    }
                case .insertion:
                    for g in e.currentInsertion { out += "                <CurrentInsertionAction glyph=\"\(name(g))\"/>\n" }
                    for g in e.markedInsertion { out += "                <MarkedInsertionAction glyph=\"\(name(g))\"/>\n" }
                case .noncontextual: break
                }
                out += "              </Transition>\n"
            }
            out += "            </State>\n"
        }
        for (k, lookup) in m.perGlyphLookups.enumerated() {
            out += "            <PerGlyphLookup index=\"\(k)\">\n"
            for p in byName(lookup, names) { out += "              <Lookup glyph=\"\(xmlEscaped(p.name))\" value=\"\(name(p.value))\"/>\n" }
            out += "            </PerGlyphLookup>\n"
        }
        if kind == .ligature {
            out += "            <LigComponents>\n"
            for (k, c) in m.components.enumerated() { out += "              <LigComponent index=\"\(k)\" value=\"\(c)\"/>\n" }
            out += "            </LigComponents>\n"
            if let rebase = m.ligatureRebase {
                out += "            <MortLigatureRebase>\n"
                for i in rebase { out += "              <Component index=\"\(i)\"/>\n" }
                out += "            </MortLigatureRebase>\n"
            }
            out += "            <Ligatures>\n"
            for (k, g) in m.ligatures.enumerated() { out += "              <Ligature glyph=\"\(name(g))\" index=\"\(k)\"/>\n" }
            out += "            </Ligatures>\n"
        }
        return out + "          </StateTable>\n"
    }

    // MARK: fuse

    /// A morx (or, `legacy`, a mort) element's version, reserved word and chains.
    static func read(_ element: XMLElement, face: Face, legacy: Bool) throws -> (version: UInt32, reserved: UInt16, chains: [Morx.Chain]) {
        let reader = StructuredReader(face: face)
        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        func int(_ e: XMLElement, _ range: ClosedRange<Int64>, _ key: String = "value") throws -> Int64 {
            try TTX.integerAttribute(e, key, range)
        }
        /// A glyph id; 0xFFFF (AAT's deleted glyph) only as a value, never as a lookup's key.
        func glyph(_ e: XMLElement, _ key: String, deletedAllowed: Bool = false) throws -> UInt16 {
            let id = try reader.glyph(try e.attribute(key), e)
            guard id < 0xFFFF || (deletedAllowed && id == 0xFFFF) else {
                throw fail("glyph \(id) cannot be a morx lookup's glyph (0xFFFF ends its lookups)", e)
            }
            return UInt16(id)
        }
        func lookup(_ e: XMLElement, glyphValues: Bool) throws -> [(glyph: UInt16, value: UInt16)] {
            var map: [UInt16: UInt16] = [:]
            for l in e.children {
                guard l.name == "Lookup" else { throw fail("<\(l.name)> in <\(e.name)>: expected <Lookup glyph= value=/>", l) }
                map[try glyph(l, "glyph")] = glyphValues ? try glyph(l, "value", deletedAllowed: true) : UInt16(try int(l, 0...0xFFFF))
            }
            return map.map { ($0.key, $0.value) }.sorted { $0.glyph < $1.glyph }
        }

        var version: UInt32 = legacy ? 0x0001_0000 : 2, reserved: UInt16 = 0
        var chains: [Morx.Chain] = []
        for e in element.children {
            switch e.name {
            case "Version": version = UInt32(try int(e, legacy ? 0...0xFFFF_FFFF : 2...3))
            case "Reserved" where !legacy: reserved = UInt16(try int(e, 0...0xFFFF))
            case "MorphChain":
                var chain = Morx.Chain(defaultFlags: 0, features: [], subtables: [])
                for c in e.children {
                    switch c.name {
                    case "DefaultFlags": chain.defaultFlags = UInt32(try int(c, 0...0xFFFF_FFFF))
                    case "MorphFeature":
                        var f = Morx.Feature(type: 0, setting: 0, enableFlags: 0, disableFlags: 0)
                        for x in c.children {
                            switch x.name {
                            case "FeatureType": f.type = UInt16(try int(x, 0...0xFFFF))
                            case "FeatureSetting": f.setting = UInt16(try int(x, 0...0xFFFF))
                            case "EnableFlags": f.enableFlags = UInt32(try int(x, 0...0xFFFF_FFFF))
                            case "DisableFlags": f.disableFlags = UInt32(try int(x, 0...0xFFFF_FFFF))
                            default:
                                throw fail(
                                    "<\(x.name)> in <MorphFeature>: expected FeatureType, FeatureSetting, EnableFlags or DisableFlags", x)
                            }
                        }
                        chain.features.append(f)
                    case "MorphSubtable": chain.subtables.append(try subtable(c))
                    default: throw fail("<\(c.name)> in <MorphChain>: expected <DefaultFlags>, <MorphFeature> or <MorphSubtable>", c)
                    }
                }
                chains.append(chain)
            default:
                throw fail("<\(e.name)> in <\(element.name)>: expected <Version>, \(legacy ? "" : "<Reserved> ")or <MorphChain>", e)
            }
        }
        return (version, reserved, chains)

        func subtable(_ e: XMLElement) throws -> Morx.Subtable {
            var direction: UInt8 = 0, order: UInt8 = 0, reserved: UInt32 = 0, flags: UInt32 = 0
            var body: (Morx.Kind, XMLElement)?
            for c in e.children {
                switch c.name {
                case "TextDirection" where !legacy:
                    switch try c.attribute("value") {
                    case "Horizontal": direction = 0
                    case "Vertical": direction = 0x80
                    case "Any": direction = 0x20
                    case let other: throw fail("TextDirection \"\(other)\" is not Horizontal, Vertical or Any", c)
                    }
                case "ProcessingOrder" where !legacy:
                    let text = try c.attribute("value")
                    guard let o = orders.first(where: { $0.name == text }) else {
                        throw fail("ProcessingOrder \"\(text)\" is not one of \(orders.map(\.name).joined(separator: ", "))", c)
                    }
                    order = o.bits
                case "CoverageFlags" where legacy: direction = UInt8(try int(c, 0...0xFF))
                case "Reserved" where !legacy: reserved = UInt32(try int(c, 0...0xF_FFFF))
                case "SubFeatureFlags": flags = UInt32(try int(c, 0...0xFFFF_FFFF))
                default:
                    guard let kind = Morx.Kind.allCases.first(where: { $0.name == c.name }) else {
                        throw fail(
                            "<\(c.name)> in <MorphSubtable>: expected "
                                + (legacy ? "CoverageFlags" : "TextDirection, ProcessingOrder, Reserved") + ", SubFeatureFlags or a …Morph",
                            c)
                    }
                    body = (kind, c)
                }
            }
            guard let (kind, content) = body else { throw fail("<MorphSubtable> has no …Morph element", e) }
            var sub = Morx.Subtable(
                coverage: direction | order | UInt8(reserved >> 16), reserved: UInt16(reserved & 0xFFFF), kind: kind, subFeatureFlags: flags
            )
            for c in content.children {
                switch (kind, c.name) {
                case (.noncontextual, "Substitution"): sub.substitutions = try lookup(c, glyphValues: true)
                case (_, "StateTable") where kind != .noncontextual: sub.machine = try machine(c, kind)
                default:
                    throw fail("<\(c.name)> in <\(kind.name)>: expected <\(kind == .noncontextual ? "Substitution" : "StateTable")>", c)
                }
            }
            if kind != .noncontextual, sub.machine == nil { throw fail("<\(kind.name)> has no <StateTable>", content) }
            return sub
        }

        func machine(_ e: XMLElement, _ kind: Morx.Kind) throws -> Morx.StateMachine {
            var classes: [UInt16: UInt16] = [:]
            var rows: [[Int: Morx.Entry]] = [], rowElements: [XMLElement] = []
            var m = Morx.StateMachine(classCount: 0, classes: [], states: [])
            for c in e.children {
                switch c.name {
                case "GlyphClass": classes[try glyph(c, "glyph")] = UInt16(try int(c, 0...0xFFFF))
                case "State":
                    var row: [Int: Morx.Entry] = [:]
                    for t in c.children {
                        guard t.name == "Transition" else { throw fail("<\(t.name)> in <State>: expected <Transition onGlyphClass=>", t) }
                        row[Int(try int(t, 0...0xFFFE, "onGlyphClass"))] = try entry(t, kind)
                    }
                    rows.append(row); rowElements.append(c)
                case "PerGlyphLookup" where kind == .contextual: m.perGlyphLookups.append(try lookup(c, glyphValues: true))
                case "LigComponents" where kind == .ligature:
                    m.components = try c.children.map { x in
                        guard x.name == "LigComponent" else {
                            throw fail("<\(x.name)> in <LigComponents>: expected <LigComponent value=/>", x)
                        }
                        return UInt16(try int(x, 0...0xFFFF))
                    }
                case "MortLigatureRebase" where kind == .ligature && legacy:
                    m.ligatureRebase = try Set(
                        c.children.map { x in
                            guard x.name == "Component" else {
                                throw fail("<\(x.name)> in <MortLigatureRebase>: expected <Component index=/>", x)
                            }
                            return Int(try int(x, 0...0xFFFF, "index"))
                        }
                    ).sorted()
                case "Ligatures" where kind == .ligature:
                    m.ligatures = try c.children.map { x in
                        guard x.name == "Ligature" else { throw fail("<\(x.name)> in <Ligatures>: expected <Ligature glyph=/>", x) }
                        return try glyph(x, "glyph", deletedAllowed: true)
                    }
                default: throw fail("<\(c.name)> in <StateTable> of a \(kind.name)", c)
                }
            }
            // As fontTools: the classes are those the glyphs and the transitions name.
            m.classCount = (Array(classes.values.map(Int.init)) + rows.flatMap(\.keys)).max().map { $0 + 1 } ?? 0
            guard m.classCount > 0 else { throw fail("<StateTable> names no glyph class", e) }
            m.classes = classes.map { ($0.key, $0.value) }.sorted { $0.glyph < $1.glyph }
            m.states = try zip(rows, rowElements).map { row, at in
                try (0..<m.classCount).map { cls in
                    guard let entry = row[cls] else {
                        throw fail("this state has no transition for glyph class \(cls) (there are \(m.classCount))", at)
                    }
                    return entry
                }
            }
            for row in m.states {
                for en in row where Int(en.newState) >= m.states.count {
                    throw fail("a transition goes to state \(en.newState); there are \(m.states.count)", e)
                }
            }
            if kind == .contextual {
                let used = m.states.flatMap { $0 }.flatMap { [$0.markIndex, $0.currentIndex] }.filter { $0 != 0xFFFF }
                let needed = used.max().map { Int($0) + 1 } ?? 0
                guard needed == m.perGlyphLookups.count else {
                    throw fail("the transitions use \(needed) per-glyph lookups; \(m.perGlyphLookups.count) are given", e)
                }
            }
            return m
        }

        func entry(_ t: XMLElement, _ kind: Morx.Kind) throws -> Morx.Entry {
            var en = Morx.Entry(newState: 0, flags: 0)
            for x in t.children {
                switch (x.name, kind) {
                case ("NewState", _): en.newState = UInt16(try int(x, 0...0xFFFF))
                case ("Flags", _):
                    for word in try x.attribute("value").split(separator: ",") {
                        let flag = String(word).trimmingWhitespace()
                        guard let bit = kind.flagNames.first(where: { $0.0 == flag })?.1 else {
                            throw fail(
                                "flag \"\(flag)\" is not one of \(kind.name)'s (\(kind.flagNames.map(\.0).joined(separator: ", ")))", x)
                        }
                        en.flags |= bit
                    }
                case ("ReservedFlags", let k) where k != .insertion:
                    let v = UInt16(try int(x, 0...0xFFFF))
                    guard v & ~k.reservedMask == 0 else {
                        throw fail(
                            "ReservedFlags 0x\(String(v, radix: 16)) sets bits outside the reserved 0x\(String(k.reservedMask, radix: 16))",
                            x)
                    }
                    en.flags |= v
                case ("Verb", .rearrangement): en.flags |= UInt16(try int(x, 0...15))
                case ("MarkIndex", .contextual): en.markIndex = UInt16(try int(x, 0...0xFFFF))
                case ("CurrentIndex", .contextual): en.currentIndex = UInt16(try int(x, 0...0xFFFF))
                case ("Action", .ligature):
                    let store =
                        x.value("Flags").map { $0.split(separator: ",").map { String($0).trimmingWhitespace() }.contains("Store") } ?? false
                    en.ligatureActions.append(.init(delta: Int32(try int(x, -0x2000_0000...0x1FFF_FFFF, "GlyphIndexDelta")), store: store))
                case ("CurrentInsertionAction", .insertion): en.currentInsertion.append(try glyph(x, "glyph", deletedAllowed: true))
                case ("MarkedInsertionAction", .insertion): en.markedInsertion.append(try glyph(x, "glyph", deletedAllowed: true))
                default: throw fail("<\(x.name)> in a \(kind.name) <Transition>", x)
                }
            }
            return en
        }
    }
}

extension MorxTable: TTXTable { static var ttx: TTX.Converter { TTX.morxConverter } }
extension MortTable: TTXTable { static var ttx: TTX.Converter { TTX.mortConverter } }
