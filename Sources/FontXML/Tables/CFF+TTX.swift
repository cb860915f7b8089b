import FontModel

/// CFF in TTX, as fontTools writes it: `<major>`/`<minor>`, then `<CFFFont name=>` with the Top
/// DICT's keys in fontTools' order (defaults written out, as fontTools does), the Private DICT
/// with its `<Subrs>`, `<CharStrings>` sorted by glyph name, and `<GlobalSubrs>`. Charstrings
/// are Type 2 programs, one operator a line after its operands, `hintmask 10110000` with its
/// mask in binary. A subroutine no glyph calls is written as hex (`raw="1"`): fontTools learns
/// how long a subroutine's hint masks are only from the glyphs that call it.
extension TTX {
    /// How a DICT key's operands are written.
    enum CFFKind { case number, array, delta, sid, ros, charset, encoding, privateDict, fdSelect, fdArray, charStrings, subrs, skipped }

    struct CFFKey {
        let op: Int
        let name: String
        let kind: CFFKind
        let defaultValue: [CFFNumber]?
        init(_ op: Int, _ name: String, _ kind: CFFKind, _ defaultValue: [CFFNumber]? = nil) {
            self.op = op; self.name = name; self.kind = kind; self.defaultValue = defaultValue
        }
    }

    /// The Top DICT's keys in the order fontTools writes them (two-byte operators as 1200 + n).
    static let cffTopKeys: [CFFKey] = [
        CFFKey(25, "maxstack", .number), CFFKey(1230, "ROS", .ros), CFFKey(1220, "SyntheticBase", .number),
        CFFKey(0, "version", .sid), CFFKey(1, "Notice", .sid), CFFKey(1200, "Copyright", .sid), CFFKey(2, "FullName", .sid),
        CFFKey(1238, "FontName", .sid), CFFKey(3, "FamilyName", .sid), CFFKey(4, "Weight", .sid),
        CFFKey(1201, "isFixedPitch", .number, [.int(0)]), CFFKey(1202, "ItalicAngle", .number, [.int(0)]),
        CFFKey(1203, "UnderlinePosition", .number, [.int(-100)]), CFFKey(1204, "UnderlineThickness", .number, [.int(50)]),
        CFFKey(1205, "PaintType", .number, [.int(0)]), CFFKey(1206, "CharstringType", .number, [.int(2)]),
        CFFKey(1207, "FontMatrix", .array, [.real(0.001), .int(0), .int(0), .real(0.001), .int(0), .int(0)]),
        CFFKey(13, "UniqueID", .number), CFFKey(5, "FontBBox", .array, [.int(0), .int(0), .int(0), .int(0)]),
        CFFKey(1208, "StrokeWidth", .number, [.int(0)]), CFFKey(14, "XUID", .array), CFFKey(1221, "PostScript", .sid),
        CFFKey(1222, "BaseFontName", .sid), CFFKey(1223, "BaseFontBlend", .delta),
        CFFKey(1231, "CIDFontVersion", .number, [.int(0)]), CFFKey(1232, "CIDFontRevision", .number, [.int(0)]),
        CFFKey(1233, "CIDFontType", .number, [.int(0)]), CFFKey(1234, "CIDCount", .number, [.int(8720)]),
        CFFKey(15, "charset", .charset), CFFKey(1235, "UIDBase", .number), CFFKey(16, "Encoding", .encoding, [.int(0)]),
        CFFKey(18, "Private", .privateDict), CFFKey(1237, "FDSelect", .fdSelect), CFFKey(1236, "FDArray", .fdArray),
        CFFKey(17, "CharStrings", .charStrings), CFFKey(24, "VarStore", .skipped),
    ]

    /// A font DICT of the FDArray: fontTools writes only these.
    static let cffFontDictKeys: [CFFKey] = [
        CFFKey(1238, "FontName", .sid), CFFKey(1207, "FontMatrix", .array), CFFKey(4, "Weight", .sid), CFFKey(18, "Private", .privateDict),
    ]

    static let cffPrivateKeys: [CFFKey] = [
        CFFKey(22, "vsindex", .number), CFFKey(6, "BlueValues", .delta), CFFKey(7, "OtherBlues", .delta),
        CFFKey(8, "FamilyBlues", .delta), CFFKey(9, "FamilyOtherBlues", .delta),
        CFFKey(1209, "BlueScale", .number, [.real(0.039625)]), CFFKey(1210, "BlueShift", .number, [.int(7)]),
        CFFKey(1211, "BlueFuzz", .number, [.int(1)]), CFFKey(10, "StdHW", .number), CFFKey(11, "StdVW", .number),
        CFFKey(1212, "StemSnapH", .delta), CFFKey(1213, "StemSnapV", .delta), CFFKey(1214, "ForceBold", .number, [.int(0)]),
        CFFKey(1215, "ForceBoldThreshold", .number), CFFKey(1216, "lenIV", .number),
        CFFKey(1217, "LanguageGroup", .number, [.int(0)]), CFFKey(1218, "ExpansionFactor", .number, [.real(0.06)]),
        CFFKey(1219, "initialRandomSeed", .number, [.int(0)]), CFFKey(20, "defaultWidthX", .number, [.int(0)]),
        CFFKey(21, "nominalWidthX", .number, [.int(0)]), CFFKey(19, "Subrs", .subrs),
    ]

    /// A DICT number as Python writes it: integers plainly, reals as their shortest repr.
    static func cffNumberText(_ n: CFFNumber) -> String {
        switch n {
        case .int(let v): String(v)
        case .real(let v): pythonFloatText(v)
        }
    }

    static func cffDump(_ cff: CFFTable, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        var charStrings = CharStringDecompiler(cff: cff)
        try charStrings.decompileAll()
        var out = "  <CFF>\n    <major value=\"\(cff.majorVersion)\"/>\n    <minor value=\"\(cff.minorVersion)\"/>\n"
        out += "    <CFFFont name=\"\(xmlEscaped(cff.fontNames.first ?? ""))\">\n"
        let top = cff.topDictEntries
        let isCID = top.contains { $0.op == 1230 }
        let skipped: Set<String> = isCID ? ["Encoding"] : ["CIDFontVersion", "CIDFontRevision", "CIDFontType", "CIDCount"]
        for key in cffTopKeys where !skipped.contains(key.name) {
            let operands = top.first { $0.op == key.op }?.operands ?? key.defaultValue
            guard let operands else {
                if key.kind == .charset { out += "      <!-- charset is dumped separately as the 'GlyphOrder' element -->\n" }
                continue
            }
            switch key.kind {
            case .charset: out += "      <!-- charset is dumped separately as the 'GlyphOrder' element -->\n"
            case .encoding:
                let code = operands.first.flatMap { if case .int(let v) = $0 { v } else { nil } } ?? 0
                if let custom = try cff.customEncoding() {
                    var byCode = [String?](repeating: nil, count: 256)
                    for (c, g) in custom where c < 256 { byCode[c] = glyphName(g, in: names) }
                    out += "      <Encoding>\n"
                    for (c, name) in byCode.enumerated() {
                        if let name, name != ".notdef" {
                            out += "        <map code=\"0x\(String(c, radix: 16))\" name=\"\(xmlEscaped(name))\"/>\n"
                        }
                    }
                    out += "      </Encoding>\n"
                } else {
                    out += "      <Encoding name=\"\(code == 1 ? "ExpertEncoding" : "StandardEncoding")\"/>\n"
                }
            case .privateDict:
                out += try cffPrivate(cff, 0, &charStrings, indent: "      ")
            case .fdSelect:
                out += "      <FDSelect format=\"\(cff.fdSelectFormat ?? 0)\"/>\n"
            case .fdArray:
                out += "      <FDArray>\n"
                for (k, dict) in cff.fontDictEntries.enumerated() {
                    out += "        <FontDict index=\"\(k)\">\n"
                    for fk in cffFontDictKeys {
                        guard let entry = dict.first(where: { $0.op == fk.op }) else { continue }
                        if fk.kind == .privateDict {
                            out += try cffPrivate(cff, k, &charStrings, indent: "          ")
                        } else {
                            out += "          " + (try cffSimple(fk, entry.operands, cff)) + "\n"
                        }
                    }
                    out += "        </FontDict>\n"
                }
                out += "      </FDArray>\n"
            case .charStrings:
                var block = XMLText()
                block.add("      <CharStrings>\n")
                for id in names.indices.sorted(by: { names[$0].unicodeScalars.lexicographicallyPrecedes(names[$1].unicodeScalars) })
                where id < cff.glyphCount {
                    block.add("        <CharString name=\""); block.add(xmlEscaped(names[id]))
                    if isCID { block.add("\" fdSelectIndex=\""); block.add(cff.fdIndex(id)) }
                    block.add("\">\n")
                    charStrings.write(.glyph(id), indent: 10, into: &block)
                    block.add("        </CharString>\n")
                }
                block.add("      </CharStrings>\n")
                out += block.string
            case .skipped, .subrs: continue
            default: out += "      " + (try cffSimple(key, operands, cff)) + "\n"
            }
        }
        out += "    </CFFFont>\n\n    <GlobalSubrs>\n"
        out += cffSubrList(cff.globalSubrBytes.count, { .global($0) }, &charStrings, indent: "      ")
        return out + "    </GlobalSubrs>\n  </CFF>\n"
    }

    /// A key written as one element: `<Name value="…"/>` (or ROS's three attributes).
    static func cffSimple(_ key: CFFKey, _ operands: [CFFNumber], _ cff: CFFTable) throws -> String {
        func sid(_ n: CFFNumber?) -> String {
            guard case .int(let v)? = n, let bytes = cff.stringBytes(sid: v) else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        }
        switch key.kind {
        case .ros:
            let supplement = operands.count > 2 ? cffNumberText(operands[2]) : "0"
            return
                "<ROS Registry=\"\(xmlEscaped(sid(operands.first)))\" Order=\"\(xmlEscaped(sid(operands.count > 1 ? operands[1] : nil)))\" Supplement=\"\(supplement)\"/>"
        case .sid:
            var text = sid(operands.first)
            // fontTools folds line breaks (and the spaces after them) in these two into a space.
            if key.name == "Notice" || key.name == "Copyright" { text = foldingLineBreaks(text) }
            return "<\(key.name) value=\"\(xmlEscaped(text))\"/>"
        case .delta:
            var sum = CFFNumber.int(0)
            let absolute = operands.map { n -> CFFNumber in
                sum = cffSum(sum, n); return sum
            }
            return "<\(key.name) value=\"\(absolute.map(cffNumberText).joined(separator: " "))\"/>"
        case .array: return "<\(key.name) value=\"\(operands.map(cffNumberText).joined(separator: " "))\"/>"
        default: return "<\(key.name) value=\"\(operands.first.map(cffNumberText) ?? "")\"/>"
        }
    }

    static func foldingLineBreaks(_ text: String) -> String {
        var out = ""
        var folding = false
        for c in text.unicodeScalars {
            if c == "\r" || c == "\n" {
                if !folding { out += " " }
                folding = true
            } else if folding && (c == " " || c == "\t" || c == "\u{0B}" || c == "\u{0C}") {
                continue
            } else {
                // A line break followed by no whitespace is kept as it was.
                folding = false
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func cffPrivate(_ cff: CFFTable, _ fd: Int, _ charStrings: inout CharStringDecompiler, indent: String) throws -> String {
        let dicts = cff.privateDictEntries
        guard fd < dicts.count else { return "" }
        let dict = dicts[fd]
        var out = indent + "<Private>\n"
        for key in cffPrivateKeys {
            guard let operands = dict.first(where: { $0.op == key.op })?.operands ?? key.defaultValue else { continue }
            if key.kind == .subrs {
                out += indent + "  <Subrs>\n"
                out += cffSubrList(cff.localSubrBytes[fd].count, { .local(fd, $0) }, &charStrings, indent: indent + "    ")
                out += indent + "  </Subrs>\n"
            } else {
                out += indent + "  " + (try cffSimple(key, operands, cff)) + "\n"
            }
        }
        return out + indent + "</Private>\n"
    }

    static func cffSubrList(
        _ count: Int, _ which: (Int) -> CharStringDecompiler.Source, _ charStrings: inout CharStringDecompiler, indent: String
    ) -> String {
        var out = XMLText()
        out.add(indent); out.add("<!-- The 'index' attribute is only for humans; it is ignored when parsed. -->\n")
        for k in 0..<count {
            let source = which(k)
            out.add(indent); out.add("<CharString index=\""); out.add(k);
            out.add(charStrings.isDecompiled(source) ? "\">\n" : "\" raw=\"1\">\n")
            charStrings.write(source, indent: indent.count + 2, into: &out)
            out.add(indent); out.add("</CharString>\n")
        }
        return out.string
    }

    static let cffConverter = Converter(
        dump: { face in try face.cff.map { try cffDump($0, face) } },
        fuse: { element, face, apply in try fuseCFF(element, face, apply: apply) })
}

/// Type 2 charstrings as fontTools' decompiler reads them: each glyph is run in glyph order with
/// its own hint count, and each subroutine is tokenized when first called (its hint masks as
/// long as that caller's hints need); a subroutine nobody calls stays bytes.
struct CharStringDecompiler {
    enum Source: Hashable { case glyph(Int), global(Int), local(Int, Int) }
    /// An operator is its code (12 x as 1200 + x), named when written (`operatorNames`).
    enum Token { case int(Int), fixed(Int32), op(Int), mask([UInt8]) }

    static let operators: [Int: String] = [
        1: "hstem", 3: "vstem", 4: "vmoveto", 5: "rlineto", 6: "hlineto", 7: "vlineto", 8: "rrcurveto",
        10: "callsubr", 11: "return", 14: "endchar", 15: "vsindex", 16: "blend", 18: "hstemhm", 19: "hintmask",
        20: "cntrmask", 21: "rmoveto", 22: "hmoveto", 23: "vstemhm", 24: "rcurveline", 25: "rlinecurve",
        26: "vvcurveto", 27: "hhcurveto", 29: "callgsubr", 30: "vhcurveto", 31: "hvcurveto",
        1200: "ignore", 1203: "and", 1204: "or", 1205: "not", 1208: "store", 1209: "abs", 1210: "add", 1211: "sub",
        1212: "div", 1213: "load", 1214: "neg", 1215: "eq", 1218: "drop", 1220: "put", 1221: "get", 1222: "ifelse",
        1223: "random", 1224: "mul", 1226: "sqrt", 1227: "dup", 1228: "exch", 1229: "index", 1230: "roll",
        1234: "hflex", 1235: "flex", 1236: "hflex1", 1237: "flex1",
    ]
    static let operatorCodes: [String: Int] = Dictionary(uniqueKeysWithValues: operators.map { ($1, $0) })
    /// Operator names by code, for writing a program without a dictionary lookup per operator.
    static let operatorNames: [String] = (0...1237).map { operators[$0] ?? "" }
    /// The arithmetic operators (12 3 to 12 30), which dumps do not run.
    static func isArithmetic(_ code: Int) -> Bool { (1203...1230).contains(code) }

    /// What the decompiler reads: a CFF or CFF2 table's charstrings and subroutines.
    struct Programs {
        /// "CFF " or "CFF2", for messages.
        let table: String
        let glyphCount: Int
        let charString: (Int) throws -> [UInt8]
        let fdIndex: (Int) -> Int
        let global: [[UInt8]]
        let locals: [[[UInt8]]]
        /// CFF2: the region count of each variation data (how many deltas a `blend` value has),
        /// and each font DICT's default vsindex.
        var regionCounts: [Int] = []
        var defaultVSIndex: (Int) -> Int = { _ in 0 }
    }

    let source: Programs
    var global: [[UInt8]] { source.global }
    var locals: [[[UInt8]]] { source.locals }
    private(set) var programs: [Source: [Token]] = [:]
    // One glyph's state.
    private var stack: [Token] = []
    private var hintCount = 0
    private var hintMaskBytes = 0
    private var depth = 0
    /// CFF2: the deltas per blended value, once a blend or vsindex has set it.
    private var regionCount: Int?
    /// Tokens run for the current glyph, subroutines included: calls fanning out inside the
    /// nesting limit would otherwise run for ever (the interpreter's limit, `CharStringInterpreter`).
    private var operations = 0
    static let maximumOperations = 200_000

    init(cff: CFFTable) {
        source = Programs(
            table: "CFF ", glyphCount: cff.glyphCount, charString: cff.charString, fdIndex: cff.fdIndex,
            global: cff.globalSubrBytes, locals: cff.localSubrBytes)
    }

    init(_ programs: Programs) { source = programs }

    static func bias(_ count: Int) -> Int { count < 1240 ? 107 : count < 33900 ? 1131 : 32768 }

    mutating func decompileAll() throws {
        for g in 0..<source.glyphCount {
            stack = []; hintCount = 0; hintMaskBytes = 0; depth = 0; operations = 0; regionCount = nil
            currentFD = source.fdIndex(g)
            try execute(.glyph(g))
        }
    }

    func isDecompiled(_ source: Source) -> Bool { programs[source] != nil }

    func bytes(_ which: Source) throws -> [UInt8] {
        switch which {
        case .glyph(let g): return try source.charString(g)
        case .global(let k): return global[k]
        case .local(let fd, let k): return locals[fd][k]
        }
    }

    func error(_ message: String) -> FontError { FontError("\(source.table == "CFF2" ? "CFF2" : "CFF"): \(message)", table: source.table) }

    /// Runs a charstring (tokenizing it the first time), counting hints and following calls.
    private mutating func execute(_ which: Source) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 64 else { throw error("subroutines nest deeper than 64") }
        let known = programs[which]
        let code = known == nil ? try bytes(which) : []
        var recorded: [Token] = []
        var position = 0   // into `code` (fresh) or into `known`
        /// The next token, read from the bytecode the first time and from the program after.
        func next() throws -> Token? {
            if let known {
                guard position < known.count else { return nil }
                defer { position += 1 }
                return known[position]
            }
            guard position < code.count else { return nil }
            let (token, length) = try Self.token(code, at: position)
            position += length
            recorded.append(token)
            return token
        }
        while let token = try next() {
            operations += 1
            guard operations <= Self.maximumOperations else {
                throw error(
                    "a glyph runs more than \(Self.maximumOperations) charstring operations (subroutines calling each other without end?)")
            }
            guard case .op(let opcode) = token else {
                guard stack.count < 513 else { throw error("a charstring pushes more than 513 operands") }
                stack.append(token)
                continue
            }
            let name = Self.operatorNames[opcode]
            switch opcode {
            case 10, 29:   // callsubr, callgsubr
                guard case .int(let index)? = stack.popLast() else { throw error("\(name) without an integer subroutine number") }
                let fd: Int
                switch which {
                case .glyph(let g): fd = source.fdIndex(g)
                case .local(let f, _): fd = f
                case .global: fd = currentFD
                }
                let count = opcode == 10 ? (fd < locals.count ? locals[fd].count : 0) : global.count
                let target = index + Self.bias(count)
                guard target >= 0, target < count else { throw error("\(name) \(index) calls a subroutine that does not exist") }
                let saved = currentFD
                currentFD = fd
                try execute(opcode == 10 ? .local(fd, target) : .global(target))
                currentFD = saved
            case 1, 3, 18, 23: countHints()   // hstem, vstem, hstemhm, vstemhm
            case 19, 20:   // hintmask, cntrmask
                if hintMaskBytes == 0 { countHints(); hintMaskBytes = (hintCount + 7) / 8 }
                if let known {
                    guard position < known.count, case .mask(let mask) = known[position], mask.count == hintMaskBytes else {
                        throw error("a subroutine's \(name) has another length here than where it was first called")
                    }
                    position += 1
                } else {
                    guard position + hintMaskBytes <= code.count else { throw error("a hint mask runs past the end of its charstring") }
                    recorded.append(.mask(Array(code[position..<position + hintMaskBytes])))
                    position += hintMaskBytes
                }
            case 16:   // blend
                // CFF2: n values, each followed by its deltas, then n; the deltas are dropped.
                guard case .int(let n)? = stack.popLast(), n >= 0 else { throw error("blend without a count of values") }
                let regions = try regionCount ?? regionsOf(source.defaultVSIndex(currentFD))
                regionCount = regions
                guard n * regions <= stack.count else {
                    throw error("blend of \(n) values needs \(n * (regions + 1)) operands, \(stack.count + n) are on the stack")
                }
                stack.removeLast(n * regions)
            case 15:   // vsindex
                guard case .int(let v)? = stack.popLast() else { throw error("vsindex without an integer") }
                regionCount = try regionsOf(v)
                stack.removeAll()
            case 11, 14, 1200: break   // return, endchar, ignore
            default:
                if Self.isArithmetic(opcode) { throw error("the \(name) operator is not supported in dumps") }
                stack.removeAll()
            }
        }
        if known == nil { programs[which] = recorded }
    }

    /// The glyph's FD for subroutine calls made from global subroutines.
    private var currentFD = 0

    /// How many regions variation data `v` blends over.
    private func regionsOf(_ v: Int) throws -> Int {
        guard v >= 0, v < source.regionCounts.count else {
            throw error(
                source.regionCounts.isEmpty
                    ? "blend without a variation store"
                    : "vsindex \(v) names no variation data (the store has \(source.regionCounts.count))")
        }
        return source.regionCounts[v]
    }

    private mutating func countHints() {
        hintCount += stack.count / 2
        stack.removeAll()
    }

    /// The number or operator at `i` and its length in bytes.
    static func token(_ code: [UInt8], at i: Int) throws -> (Token, Int) {
        func byte(_ k: Int) throws -> Int {
            guard i + k < code.count else { throw FontError("CFF: a charstring ends inside a number or operator", table: "CFF ") }
            return Int(code[i + k])
        }
        let b0 = Int(code[i])
        switch b0 {
        case 28: return (.int(Int(Int16(bitPattern: UInt16(try byte(1) << 8 | byte(2))))), 3)
        case 32...246: return (.int(b0 - 139), 1)
        case 247...250: return (.int((b0 - 247) * 256 + (try byte(1)) + 108), 2)
        case 251...254: return (.int(-(b0 - 251) * 256 - (try byte(1)) - 108), 2)
        case 255: return (.fixed(Int32(bitPattern: UInt32(try byte(1) << 24 | byte(2) << 16 | byte(3) << 8 | byte(4)))), 5)
        default:
            let op = b0 == 12 ? 1200 + (try byte(1)) : b0
            guard op < operatorNames.count, !operatorNames[op].isEmpty else {
                throw FontError("CFF: unknown charstring operator \(op >= 1200 ? "12 \(op - 1200)" : String(op))", table: "CFF ")
            }
            return (.op(op), b0 == 12 ? 2 : 1)
        }
    }

    /// A program as text, one operator a line after its operands; an undecompiled subroutine as hex.
    func write(_ source: Source, indent: Int, into out: inout XMLText) {
        guard let tokens = programs[source] else {
            out.hexLines((try? bytes(source)) ?? [], indent: indent)
            return
        }
        var lineStarted = false
        func separate() {
            if lineStarted { out.add(" ") } else { out.spaces(indent); lineStarted = true }
        }
        var k = 0
        while k < tokens.count {
            switch tokens[k] {
            case .int(let v): separate(); out.add(v)
            case .fixed(let raw): separate(); out.add(TTX.decimalText(Int64(raw), scale: Fixed.scale))
            case .mask: break
            case .op(let code):
                separate(); out.add(Self.operatorNames[code])
                if code == 19 || code == 20, k + 1 < tokens.count, case .mask(let mask) = tokens[k + 1] {
                    out.add(" ")
                    for b in mask { for shift in (0..<8).reversed() { out.add(b >> shift & 1 == 1 ? "1" : "0") } }
                    k += 1
                }
                out.add("\n")
                lineStarted = false
            }
            k += 1
        }
        if lineStarted { out.add("\n") }
    }
}

extension TTX {
    /// A `<CFF>` element as a whole new CFF table: the DICT keys by name, charstrings compiled
    /// from their programs (or taken from hex), the charset from the face's glyph order.
    static func fuseCFF(_ element: XMLElement, _ face: Face, apply: Bool) throws {
        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        var builder = CFFBuilder()
        var fonts: [XMLElement] = []
        var globalSubrs: XMLElement?
        for e in element.children {
            switch e.name {
            case "major": builder.major = Int(try integerAttribute(e, "value", 0...255))
            case "minor": builder.minor = Int(try integerAttribute(e, "value", 0...255))
            case "CFFFont": fonts.append(e)
            case "GlobalSubrs": globalSubrs = e
            default: throw fail("<\(e.name)> in <CFF>: expected <major>, <minor>, <CFFFont> or <GlobalSubrs>", e)
            }
        }
        guard builder.major == 1 else { throw fail("only CFF version 1 is written from <CFF> (CFF2 is its own table)", element) }
        guard fonts.count == 1, let font = fonts.first else {
            throw fail("<CFF> needs exactly one <CFFFont>, found \(fonts.count)", element)
        }
        builder.fontName = Array(try font.attribute("name").utf8)
        if let globalSubrs { builder.globalSubrs = try cffSubrs(globalSubrs) }

        let names = try face.glyphNames()
        let isCID = font.children.contains { $0.name == "ROS" }
        var charStringsElement: XMLElement?
        var fdSelectFormat: Int?
        var privateElement: XMLElement?
        var fontDictElements: [XMLElement] = []
        for e in font.children {
            switch e.name {
            case "Encoding":
                if let name = e.value("name") {
                    switch name {
                    case "StandardEncoding": builder.encoding = .standard
                    case "ExpertEncoding": builder.encoding = .expert
                    default: throw fail("Encoding name=\"\(name)\": expected StandardEncoding or ExpertEncoding", e)
                    }
                } else {
                    var pairs: [(code: Int, glyph: Int)] = []
                    for m in e.children {
                        guard m.name == "map" else { throw fail("<\(m.name)> in <Encoding>: expected <map>", m) }
                        let code = Int(try integerAttribute(m, "code", 0...255)), glyphName = try m.attribute("name")
                        guard let g = try face.glyphID(named: glyphName) else {
                            throw fail("glyph '\(glyphName)' does not exist in this font", m)
                        }
                        pairs.append((code, g))
                    }
                    builder.encoding = .custom(pairs)
                }
            case "Private": privateElement = e
            case "FDSelect": fdSelectFormat = Int(try integerAttribute(e, "format", 0...4))
            case "FDArray": fontDictElements = e.children
            case "CharStrings": charStringsElement = e
            default:
                guard let key = cffTopKeys.first(where: { $0.name == e.name }) else {
                    var message = "<\(e.name)> is not a CFF Top DICT key"
                    if let near = closestName(to: e.name, in: cffTopKeys.map(\.name)) { message += " (did you mean <\(near)>?)" }
                    throw fail(message, e)
                }
                if let entry = try cffEntry(key, e, &builder) { builder.top.append(entry) }
            }
        }
        // Private DICTs, with each one's Subrs.
        if isCID {
            guard !fontDictElements.isEmpty else { throw fail("a CID-keyed <CFFFont> (with <ROS>) needs an <FDArray>", font) }
            for fd in fontDictElements {
                guard fd.name == "FontDict" else { throw fail("<\(fd.name)> in <FDArray>: expected <FontDict>", fd) }
                var entries: [CFFDictEntry] = []
                var privateOfDict: XMLElement?
                for e in fd.children {
                    if e.name == "Private" { privateOfDict = e; continue }
                    guard let key = cffTopKeys.first(where: { $0.name == e.name }) else {
                        throw fail("<\(e.name)> is not a font DICT key", e)
                    }
                    if let entry = try cffEntry(key, e, &builder) { entries.append(entry) }
                }
                guard let privateOfDict else { throw fail("<FontDict> needs its <Private>", fd) }
                builder.fontDicts.append(entries)
                builder.privates.append(try cffPrivate(privateOfDict, &builder))
            }
            builder.fdSelectFormat = fdSelectFormat ?? 3
        } else {
            guard let privateElement else { throw fail("<CFFFont> needs its <Private>", font) }
            builder.privates = [try cffPrivate(privateElement, &builder)]
        }
        // Charstrings, in the font's glyph order.
        guard let charStringsElement else { throw fail("<CFFFont> needs its <CharStrings>", font) }
        var byGlyph = [[UInt8]?](repeating: nil, count: names.count)
        var fdOf = [Int](repeating: 0, count: names.count)
        for e in charStringsElement.children {
            guard e.name == "CharString" else { throw fail("<\(e.name)> in <CharStrings>: expected <CharString>", e) }
            let name = try e.attribute("name")
            guard let g = try face.glyphID(named: name), g < names.count else {
                throw fail("glyph '\(name)' does not exist in this font", e)
            }
            guard byGlyph[g] == nil else { throw fail("a second charstring for '\(name)'", e) }
            byGlyph[g] = try cffCharString(e)
            if isCID { fdOf[g] = Int(try integerAttribute(e, "fdSelectIndex", 0...255)) }
        }
        if let missing = byGlyph.firstIndex(where: { $0 == nil }) {
            throw fail("<CharStrings> has no charstring for glyph '\(names[missing])'; every glyph needs one", charStringsElement)
        }
        builder.charStrings = byGlyph.map { $0 ?? [] }
        if isCID { builder.fdSelect = fdOf }
        // The charset: glyph names as strings, or the CIDs of CID-keyed glyph names (cid01234).
        builder.charset = try names.dropFirst().map { name in
            if isCID {
                guard name.hasPrefix("cid"), let cid = Int(name.dropFirst(3)), (0...0xFFFF).contains(cid) else {
                    throw fail("glyph '\(name)' has no CID: a CID-keyed CFF names its glyphs cid00001 …", font)
                }
                return cid
            }
            return builder.sid(Array(name.utf8))
        }
        do {
            let bytes = try builder.build()
            if apply { face.setRawTable("CFF ", bytes) }
        } catch let error as FontError {
            throw fail(error.message, element)
        }
    }

    /// A DICT number as fontTools reads it: an integer, else a real.
    static func cffNumber(_ text: Substring, _ e: XMLElement) throws -> CFFNumber {
        if let v = Int(text) { return .int(v) }
        if let v = Double(text), v.isFinite { return .real(v) }
        throw XMLError("'\(text)' is not a number", line: e.line, column: e.column)
    }

    /// One DICT key's element as its entry (nil for keys the builder lays out itself).
    static func cffEntry(_ key: CFFKey, _ e: XMLElement, _ builder: inout CFFBuilder) throws -> CFFDictEntry? {
        switch key.kind {
        case .ros:
            let registry = builder.sid(Array(try e.attribute("Registry").utf8)), order = builder.sid(Array(try e.attribute("Order").utf8))
            return CFFDictEntry(
                op: key.op, operands: [.int(registry), .int(order), .int(Int(try integerAttribute(e, "Supplement", 0...0xFFFF)))])
        case .sid: return CFFDictEntry(op: key.op, operands: [.int(builder.sid(Array(try e.attribute("value").utf8)))])
        case .charset, .skipped: return nil
        case .number, .array, .delta:
            let values = try e.attribute("value").split(separator: " ").map { try cffNumber($0, e) }
            guard !values.isEmpty else { throw XMLError("<\(key.name)> needs a value", line: e.line, column: e.column) }
            if key.kind == .number && values.count != 1 {
                throw XMLError("<\(key.name)> takes one number, got \(values.count)", line: e.line, column: e.column)
            }
            if values == key.defaultValue { return nil }   // as fontTools, defaults are not written
            guard key.kind == .delta else { return CFFDictEntry(op: key.op, operands: values) }
            // Deltas: each value after the first relative to the one before.
            var previous = CFFNumber.int(0)
            let deltas = values.map { v -> CFFNumber in
                defer { previous = v }
                switch (v, previous) {
                case (.int(let a), .int(let b)): return .int(a - b)
                case (.int(let a), .real(let b)): return .real(Double(a) - b)
                case (.real(let a), .int(let b)): return .real(a - Double(b))
                case (.real(let a), .real(let b)): return .real(a - b)
                }
            }
            return CFFDictEntry(op: key.op, operands: deltas)
        default: return nil
        }
    }

    static func cffPrivate(_ element: XMLElement, _ builder: inout CFFBuilder) throws -> (dict: [CFFDictEntry], subrs: [[UInt8]]) {
        var entries: [CFFDictEntry] = []
        var subrs: [[UInt8]] = []
        for e in element.children {
            if e.name == "Subrs" { subrs = try cffSubrs(e); continue }
            guard let key = cffPrivateKeys.first(where: { $0.name == e.name }) else {
                var message = "<\(e.name)> is not a Private DICT key"
                if let near = closestName(to: e.name, in: cffPrivateKeys.map(\.name)) { message += " (did you mean <\(near)>?)" }
                throw XMLError(message, line: e.line, column: e.column)
            }
            if let entry = try cffEntry(key, e, &builder) { entries.append(entry) }
        }
        return (entries, subrs)
    }

    static func cffSubrs(_ element: XMLElement) throws -> [[UInt8]] {
        try element.children.map { e in
            guard e.name == "CharString" else {
                throw XMLError("<\(e.name)> in <\(element.name)>: expected <CharString>", line: e.line, column: e.column)
            }
            return try cffCharString(e)
        }
    }

    /// A `<CharString>`: hex when raw="1", else a Type 2 program (operands, operators, and a
    /// hint mask in binary after hintmask/cntrmask).
    static func cffCharString(_ e: XMLElement) throws -> [UInt8] {
        if e.value("raw") == "1" { return try hexBytes(e) }
        func fail(_ message: String) -> XMLError { XMLError(message, line: e.line, column: e.column) }
        var w = BinaryWriter()
        var text = e.text
        // Tokens are read straight from the UTF-8 bytes: a CID font has tens of thousands of
        // charstrings, and splitting them into Strings was most of the fuse's time.
        try text.withUTF8 { bytes in
            var k = 0
            func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }
            func nextToken() -> Range<Int>? {
                while k < bytes.count, isSpace(bytes[k]) { k += 1 }
                guard k < bytes.count else { return nil }
                let start = k
                while k < bytes.count, !isSpace(bytes[k]) { k += 1 }
                return start..<k
            }
            func string(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
            while let token = nextToken() {
                // An integer (the common case), without making a String.
                if let v = integer(bytes, token) {
                    guard (-32768...32767).contains(v) else { throw fail("\(v) does not fit a charstring number (-32768...32767)") }
                    try charStringNumber(v, &w)
                    continue
                }
                let name = string(token)
                if let op = CharStringDecompiler.operatorCodes[name] {
                    if op >= 1200 { w.u8(12); w.u8(UInt8(op - 1200)) } else { w.u8(UInt8(op)) }
                    if name == "hintmask" || name == "cntrmask" {
                        guard let mask = nextToken(), mask.count % 8 == 0, mask.allSatisfy({ bytes[$0] == 0x30 || bytes[$0] == 0x31 })
                        else {
                            throw fail("\(name) needs its mask as binary digits, a multiple of 8")
                        }
                        for start in stride(from: mask.lowerBound, to: mask.upperBound, by: 8) {
                            w.u8((start..<start + 8).reduce(0) { $0 << 1 | (bytes[$1] == 0x31 ? 1 : 0) })
                        }
                    }
                    continue
                }
                guard let real = Double(name), real.isFinite, abs(real) < 32768 else {
                    throw fail("'\(name)' is neither a number nor a charstring operator")
                }
                w.u8(255); w.u32(UInt32(bitPattern: Int32((real * Fixed.scale).rounded())))
            }
        }
        return w.bytes
    }

    /// A token of ASCII digits with an optional sign, as an Int; nil for anything else (reals,
    /// operators) or a number too long to be a charstring operand.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ token: Range<Int>) -> Int? {
        var i = token.lowerBound
        let negative = bytes[i] == 0x2D
        if negative || bytes[i] == 0x2B { i += 1 }
        guard i < token.upperBound, token.upperBound - i <= 12 else { return nil }
        var v = 0
        while i < token.upperBound {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
            i += 1
        }
        return negative ? -v : v
    }
}

extension CFFTable: TTXTable { static var ttx: TTX.Converter { TTX.cffConverter } }
