import FontModel

/// CFF2 in TTX, as fontTools writes it: `<major>`/`<minor>`, `<CFFFont name="CFF2Font">` with
/// the Top DICT's keys (`FontMatrix`, `<FDSelect format=>`), the `<FDArray>` of `<FontDict>`s
/// holding their `<Private>` (a blended value as `<blend value="default delta…"/>`, arrays as
/// absolute values), `<CharStrings>` as Type 2 programs with `blend` and `vsindex`, and the
/// `<VarStore>` as an otData table; then `<GlobalSubrs>`. Fusing builds a new table
/// (`CFF2Builder`) from all of it.
extension TTX {
    static let cff2Converter = Converter(
        dump: { face in try face.cff2.map { try cff2Dump($0, face) } },
        fuse: { element, face, apply in try fuseCFF2(element, face, apply: apply) })

    /// CFF2's Private DICT keys in fontTools' order (its privateDictOperators2).
    static let cff2PrivateKeys: [CFFKey] = [
        CFFKey(22, "vsindex", .number), CFFKey(6, "BlueValues", .delta), CFFKey(7, "OtherBlues", .delta),
        CFFKey(8, "FamilyBlues", .delta), CFFKey(9, "FamilyOtherBlues", .delta),
        CFFKey(1209, "BlueScale", .number, [.real(0.039625)]), CFFKey(1210, "BlueShift", .number, [.int(7)]),
        CFFKey(1211, "BlueFuzz", .number, [.int(1)]), CFFKey(10, "StdHW", .number), CFFKey(11, "StdVW", .number),
        CFFKey(1212, "StemSnapH", .delta), CFFKey(1213, "StemSnapV", .delta),
        CFFKey(1217, "LanguageGroup", .number, [.int(0)]), CFFKey(1218, "ExpansionFactor", .number, [.real(0.06)]),
        CFFKey(19, "Subrs", .subrs),
    ]
    static let cff2DictBlend = 23
    static let defaultFontMatrix: [CFFNumber] = [.real(0.001), .int(0), .int(0), .real(0.001), .int(0), .int(0)]

    static func cff2Dump(_ cff2: CFF2Table, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        let regionCounts = cff2.store?.data.map(\.regionIndexes.count) ?? []
        var programs = CharStringDecompiler.Programs(
            table: "CFF2", glyphCount: cff2.glyphCount, charString: cff2.charString, fdIndex: cff2.fdIndex,
            global: cff2.globalSubrBytes, locals: cff2.localSubrBytes)
        programs.regionCounts = regionCounts
        programs.defaultVSIndex = cff2.defaultVSIndex
        var charStrings = CharStringDecompiler(programs)
        try charStrings.decompileAll()
        var out =
            "  <CFF2>\n    <major value=\"\(cff2.majorVersion)\"/>\n    <minor value=\"\(cff2.minorVersion)\"/>\n    <CFFFont name=\"CFF2Font\">\n"
        let top = cff2.topDictEntries
        if let maxstack = top.first(where: { $0.op == 25 })?.operands.first {
            out += "      <maxstack value=\"\(cffNumberText(maxstack))\"/>\n"
        }
        let matrix = top.first { $0.op == 1207 }?.operands ?? defaultFontMatrix
        out += "      <FontMatrix value=\"\(matrix.map(cffNumberText).joined(separator: " "))\"/>\n"
        if let format = cff2.fdSelectFormat { out += "      <FDSelect format=\"\(format)\"/>\n" }
        out += "      <FDArray>\n"
        for (fd, entries) in cff2.privateDictEntries.enumerated() {
            out += "        <FontDict index=\"\(fd)\">\n          <Private>\n"
            for (key, value) in try cff2PrivateValues(entries, regionCounts: regionCounts) {
                out += cff2PrivateElement(key, value, indent: "            ")
            }
            if !cff2.localSubrBytes[fd].isEmpty {
                out += "            <Subrs>\n"
                out += cffSubrList(cff2.localSubrBytes[fd].count, { .local(fd, $0) }, &charStrings, indent: "              ")
                out += "            </Subrs>\n"
            }
            out += "          </Private>\n        </FontDict>\n"
        }
        var block = XMLText()
        block.add("      </FDArray>\n      <CharStrings>\n")
        for id in names.indices.sorted(by: { names[$0].unicodeScalars.lexicographicallyPrecedes(names[$1].unicodeScalars) })
        where id < cff2.glyphCount {
            block.add("        <CharString name=\""); block.add(xmlEscaped(names[id]))
            if cff2.fdSelectFormat != nil { block.add("\" fdSelectIndex=\""); block.add(cff2.fdIndex(id)) }
            block.add("\">\n")
            charStrings.write(.glyph(id), indent: 10, into: &block)
            block.add("        </CharString>\n")
        }
        block.add("      </CharStrings>\n")
        out += block.string
        if let store = cff2.storeBytes {
            let value = try store.withUnsafeBytes {
                try StructureCodec.decode(BinaryReader($0), CFF2Table.storeShape, name: "CFF2 VarStore")
            }
            var writer = StructuredWriter(names: names)
            try writer.element("VarStore", value, CFF2Table.storeShape, .plain, indent: 6, index: nil)
            out += writer.out.string
        }
        out += "    </CFFFont>\n\n    <GlobalSubrs>\n"
        out += cffSubrList(cff2.globalSubrBytes.count, { .global($0) }, &charStrings, indent: "      ")
        return out + "    </GlobalSubrs>\n  </CFF2>\n"
    }

    /// A Private DICT value as fontTools holds it: numbers, or blend lists (a default and its
    /// deltas, one list per value).
    enum CFF2DictValue: Equatable {
        case numbers([CFFNumber])
        case blends([[CFFNumber]])
    }

    static func cffSum(_ a: CFFNumber, _ b: CFFNumber) -> CFFNumber {
        switch (a, b) {
        case (.int(let x), .int(let y)): .int(x + y)
        case (.int(let x), .real(let y)): .real(Double(x) + y)
        case (.real(let x), .int(let y)): .real(x + Double(y))
        case (.real(let x), .real(let y)): .real(x + y)
        }
    }

    /// The keys of a Private DICT, in fontTools' order and with its defaults, decoded as its
    /// DictDecompiler does: a DICT blend turns its values into lists of the absolute default
    /// and the deltas; delta arrays (BlueValues …) are made absolute.
    static func cff2PrivateValues(_ entries: [CFFDictEntry], regionCounts: [Int]) throws -> [(CFFKey, CFF2DictValue)] {
        enum Item { case plain(CFFNumber), blend([CFFNumber]) }
        var stack: [Item] = []
        var values: [Int: CFF2DictValue] = [:]
        var vsindex = 0
        for entry in entries {
            stack += entry.operands.map { .plain($0) }
            if entry.op == cff2DictBlend {
                guard case .plain(.int(let count))? = stack.popLast(), count >= 0 else {
                    throw FontError("CFF2 Private DICT: a blend without a count", table: "CFF2")
                }
                guard vsindex >= 0, vsindex < regionCounts.count else {
                    throw FontError("CFF2 Private DICT: a blend with no variation data \(vsindex)", table: "CFF2")
                }
                let masters = regionCounts[vsindex] + 1, deltas = masters - 1
                guard count > 0 else { continue }
                let start = stack.count - masters * count
                guard start >= 0 else {
                    throw FontError("CFF2 Private DICT: a blend of \(count) values needs \(masters * count) operands", table: "CFF2")
                }
                let args = try stack[start...].map { item -> CFFNumber in
                    guard case .plain(let n) = item else {
                        throw FontError("CFF2 Private DICT: a blend's operands include another blend's result", table: "CFF2")
                    }
                    return n
                }
                stack.removeLast(masters * count)
                // Values before the blend become lists too, each absolute.
                var previous = CFFNumber.int(0)
                for i in stack.indices {
                    switch stack[i] {
                    case .blend(let list): previous = list[0]
                    case .plain(let n):
                        previous = cffSum(previous, n)
                        stack[i] = .blend([previous] + Array(repeating: .int(0), count: deltas))
                    }
                }
                for i in 0..<count {
                    previous = cffSum(args[i], previous)
                    stack.append(.blend([previous] + args[(count + i * deltas)..<(count + (i + 1) * deltas)]))
                }
                continue
            }
            guard let key = cff2PrivateKeys.first(where: { $0.op == entry.op }) else { stack.removeAll(); continue }
            switch key.kind {
            case .number:
                // fontTools takes the last value; a blended number when the first is a blend.
                if case .blend? = stack.first, case .blend(let list)? = stack.last {
                    values[key.op] = .blends([list])
                } else if case .plain(let n)? = stack.last {
                    values[key.op] = .numbers([n])
                }
                if key.op == 22, case .numbers(let n)? = values[22], case .int(let v)? = n.first { vsindex = v }
            case .delta:
                if case .blend(let first)? = stack.first {
                    var previous = CFFNumber.int(0), lists: [[CFFNumber]] = []
                    for item in stack {
                        switch item {
                        case .blend(let list): previous = list[0]; lists.append(list)
                        case .plain(let n):
                            previous = cffSum(previous, n); lists.append([previous] + Array(repeating: .int(0), count: first.count - 1))
                        }
                    }
                    values[key.op] = .blends(lists)
                } else {
                    var sum = CFFNumber.int(0)
                    values[key.op] = .numbers(
                        stack.map { item in
                            if case .plain(let n) = item { sum = cffSum(sum, n) }
                            return sum
                        })
                }
            case .subrs: values[key.op] = .numbers([])
            default: break
            }
            stack.removeAll()
        }
        return cff2PrivateKeys.compactMap { key in
            if key.kind == .subrs { return nil }
            if let v = values[key.op] { return (key, v) }
            return key.defaultValue.map { (key, .numbers($0)) }
        }
    }

    static func cff2PrivateElement(_ key: CFFKey, _ value: CFF2DictValue, indent: String) -> String {
        switch value {
        case .numbers(let n): return indent + "<\(key.name) value=\"\(n.map(cffNumberText).joined(separator: " "))\"/>\n"
        case .blends(let lists):
            var out = indent + "<\(key.name)>\n"
            for list in lists { out += indent + "    <blend value=\"\(list.map(cffNumberText).joined(separator: " "))\"/>\n" }
            return out + indent + "</\(key.name)>\n"
        }
    }

    // MARK: fuse

    /// A `<CFF2>` element as a whole new CFF2 table.
    static func fuseCFF2(_ element: XMLElement, _ face: Face, apply: Bool) throws {
        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        var builder = CFF2Builder()
        var charStrings: [Int: [UInt8]] = [:], fdOfGlyph: [Int: Int] = [:]
        var sawFont = false, fdSelectFormat: Int?
        for e in element.children {
            switch e.name {
            case "major":
                guard try integerAttribute(e, "value", 0...255) == 2 else { throw fail("CFF2's major version is 2", e) }
            case "minor": _ = try integerAttribute(e, "value", 0...255)
            case "GlobalSubrs": builder.globalSubrs = try cffSubrs(e)
            case "CFFFont":
                sawFont = true
                for f in e.children {
                    switch f.name {
                    case "maxstack":
                        builder.top.append(CFFDictEntry(op: 25, operands: [.int(Int(try integerAttribute(f, "value", 0...cffStackLimit)))]))
                    case "FontMatrix":
                        let numbers = try f.attribute("value").split(separator: " ").map { try cffNumber($0, f) }
                        guard numbers.count == 6 else { throw fail("FontMatrix has six numbers", f) }
                        if numbers != defaultFontMatrix { builder.top.append(CFFDictEntry(op: 1207, operands: numbers)) }
                    case "FDSelect": fdSelectFormat = Int(try integerAttribute(f, "format", 0...4))
                    case "FDArray":
                        for (k, fontDict) in f.children.enumerated() {
                            guard fontDict.name == "FontDict" else {
                                throw fail("<\(fontDict.name)> in <FDArray>: expected <FontDict>", fontDict)
                            }
                            guard let privateElement = fontDict.children.first(where: { $0.name == "Private" }) else {
                                throw fail("<FontDict index=\"\(k)\"> needs a <Private>", fontDict)
                            }
                            if let other = fontDict.children.first(where: { $0.name != "Private" }) {
                                throw fail("<\(other.name)> in a CFF2 <FontDict>: only <Private> is written there", other)
                            }
                            builder.privates.append(try cff2Private(privateElement))
                        }
                    case "CharStrings":
                        for c in f.children {
                            guard c.name == "CharString" else { throw fail("<\(c.name)> in <CharStrings>: expected <CharString>", c) }
                            let name = try c.attribute("name")
                            guard let id = try face.glyphID(named: name) else { throw fail("no glyph named '\(name)' in the font", c) }
                            guard charStrings[id] == nil else { throw fail("a second <CharString name=\"\(name)\">", c) }
                            charStrings[id] = try cffCharString(c)
                            if let fd = c.value("fdSelectIndex") {
                                guard let v = Int(fd), v >= 0, v < 256 else {
                                    throw fail("fdSelectIndex=\"\(fd)\" is not a font DICT index", c)
                                }
                                fdOfGlyph[id] = v
                            }
                        }
                    case "VarStore":
                        guard case .record(let record) = CFF2Table.storeShape else { continue }
                        let fields = try StructuredReader(face: face).fields(record, f)
                        do {
                            builder.store = try StructureCodec.encode(.record(fields), CFF2Table.storeShape, name: "CFF2 VarStore")
                        } catch let error as FontError {
                            throw fail(error.message, f)
                        }
                    default:
                        throw fail(
                            "<\(f.name)> is not part of a CFF2 <CFFFont> (maxstack, FontMatrix, FDSelect, FDArray, CharStrings, VarStore)",
                            f)
                    }
                }
            default: throw fail("<\(e.name)> in <CFF2>: expected <major>, <minor>, <CFFFont> or <GlobalSubrs>", e)
            }
        }
        guard sawFont else { throw fail("<CFF2> needs a <CFFFont>", element) }
        let count = (charStrings.keys.max() ?? -1) + 1
        if let missing = (0..<count).first(where: { charStrings[$0] == nil }) {
            throw fail("glyph \(missing) ('\(try face.glyphName(missing))') has no <CharString>", element)
        }
        builder.charStrings = (0..<count).map { charStrings[$0] ?? [] }
        if let fdSelectFormat {
            builder.fdSelectFormat = fdSelectFormat
            builder.fdSelect = (0..<count).map { fdOfGlyph[$0] ?? 0 }
        }
        do {
            let bytes = try builder.build()
            if apply { face.setRawTable("CFF2", bytes) }
        } catch let error as FontError {
            throw fail(error.message, element)
        }
    }

    static let cffStackLimit: Int64 = 513

    /// A CFF2 `<Private>`: keys with numbers or blend lists (written as DICT blends, delta
    /// arrays made relative again, as fontTools compiles them), and `<Subrs>`.
    static func cff2Private(_ element: XMLElement) throws -> (dict: [CFFDictEntry], subrs: [[UInt8]]) {
        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        var dict: [CFFDictEntry] = [], subrs: [[UInt8]] = []
        for e in element.children {
            if e.name == "Subrs" { subrs = try cffSubrs(e); continue }
            guard let key = cff2PrivateKeys.first(where: { $0.name == e.name }) else {
                var message = "<\(e.name)> is not a CFF2 Private DICT key"
                if let near = closestName(to: e.name, in: cff2PrivateKeys.map(\.name)) { message += " (did you mean <\(near)>?)" }
                throw fail(message, e)
            }
            if let text = e.value("value") {
                var numbers = try text.split(separator: " ").map { try cffNumber($0, e) }
                if key.kind == .delta {
                    var previous = CFFNumber.int(0)
                    numbers = numbers.map { n in
                        defer { previous = n }; return cffSum(n, negated(previous))
                    }
                }
                guard !numbers.isEmpty || key.kind == .delta else { throw fail("<\(e.name)> needs a value", e) }
                dict.append(CFFDictEntry(op: key.op, operands: numbers))
                continue
            }
            let lists = try e.children.map { b -> [CFFNumber] in
                guard b.name == "blend" else { throw fail("<\(b.name)> in <\(e.name)>: expected <blend value=…>", b) }
                return try b.attribute("value").split(separator: " ").map { try cffNumber($0, b) }
            }
            guard let width = lists.first?.count, width > 1, lists.allSatisfy({ $0.count == width }) else {
                throw fail("<\(e.name)> needs a value or <blend> elements of one length (a default and its deltas)", e)
            }
            guard key.kind == .delta || lists.count == 1 else { throw fail("<\(e.name)> holds one number: one <blend>", e) }
            // The defaults (relative for arrays), then each value's deltas, then the count.
            var operands: [CFFNumber] = [], previous = CFFNumber.int(0)
            for list in lists {
                operands.append(key.kind == .delta ? cffSum(list[0], negated(previous)) : list[0])
                previous = list[0]
            }
            for list in lists { operands += list.dropFirst() }
            operands.append(.int(lists.count))
            guard operands.count <= Int(cffStackLimit) else {
                throw fail("<\(e.name)> blends \(operands.count) operands, past the 513 a DICT holds", e)
            }
            dict.append(CFFDictEntry(op: cff2DictBlend, operands: operands))
            dict.append(CFFDictEntry(op: key.op, operands: []))
        }
        return (dict, subrs)
    }

    static func negated(_ n: CFFNumber) -> CFFNumber {
        switch n {
        case .int(let v): .int(-v)
        case .real(let v): .real(-v)
        }
    }
}

extension CFF2Table: TTXTable { static var ttx: TTX.Converter { TTX.cff2Converter } }
