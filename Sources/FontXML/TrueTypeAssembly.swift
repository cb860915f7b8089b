import FontModel

/// TrueType instructions written as fontTools writes them in TTX (`<assembly>`): mnemonics with
/// their argument bits in brackets (`SVTCA[0]`, `MDRP[10100]`), pushes followed by their values
/// (`PUSHB[ ]`, `NPUSHW[ ]`, or `PUSH[ ]` for the most compact encoding), `/* comments */`.
enum TrueTypeAssembly {
    /// Mnemonic → first opcode and the number of argument bits added to it (the TrueType
    /// instruction set; the push instructions carry their count instead).
    static let opcodes: [String: (op: UInt8, bits: Int)] = [
        "AA": (0x7F, 0), "ABS": (0x64, 0), "ADD": (0x60, 0), "ALIGNPTS": (0x27, 0),
        "ALIGNRP": (0x3C, 0), "AND": (0x5A, 0), "CALL": (0x2B, 0), "CEILING": (0x67, 0),
        "CINDEX": (0x25, 0), "CLEAR": (0x22, 0), "DEBUG": (0x4F, 0), "DELTAC1": (0x73, 0),
        "DELTAC2": (0x74, 0), "DELTAC3": (0x75, 0), "DELTAP1": (0x5D, 0), "DELTAP2": (0x71, 0),
        "DELTAP3": (0x72, 0), "DEPTH": (0x24, 0), "DIV": (0x62, 0), "DUP": (0x20, 0),
        "EIF": (0x59, 0), "ELSE": (0x1B, 0), "ENDF": (0x2D, 0), "EQ": (0x54, 0),
        "EVEN": (0x57, 0), "FDEF": (0x2C, 0), "FLIPOFF": (0x4E, 0), "FLIPON": (0x4D, 0),
        "FLIPPT": (0x80, 0), "FLIPRGOFF": (0x82, 0), "FLIPRGON": (0x81, 0), "FLOOR": (0x66, 0),
        "GC": (0x46, 1), "GETINFO": (0x88, 0), "GETVARIATION": (0x91, 0), "GFV": (0x0D, 0),
        "GPV": (0x0C, 0), "GT": (0x52, 0), "GTEQ": (0x53, 0), "IDEF": (0x89, 0),
        "IF": (0x58, 0), "INSTCTRL": (0x8E, 0), "IP": (0x39, 0), "ISECT": (0x0F, 0),
        "IUP": (0x30, 1), "JMPR": (0x1C, 0), "JROF": (0x79, 0), "JROT": (0x78, 0),
        "LOOPCALL": (0x2A, 0), "LT": (0x50, 0), "LTEQ": (0x51, 0), "MAX": (0x8B, 0),
        "MD": (0x49, 1), "MDAP": (0x2E, 1), "MDRP": (0xC0, 5), "MIAP": (0x3E, 1),
        "MIN": (0x8C, 0), "MINDEX": (0x26, 0), "MIRP": (0xE0, 5), "MPPEM": (0x4B, 0),
        "MPS": (0x4C, 0), "MSIRP": (0x3A, 1), "MUL": (0x63, 0), "NEG": (0x65, 0),
        "NEQ": (0x55, 0), "NOT": (0x5C, 0), "NPUSHB": (0x40, 0), "NPUSHW": (0x41, 0),
        "NROUND": (0x6C, 2), "ODD": (0x56, 0), "OR": (0x5B, 0), "POP": (0x21, 0),
        "PUSHB": (0xB0, 3), "PUSHW": (0xB8, 3), "RCVT": (0x45, 0), "RDTG": (0x7D, 0),
        "ROFF": (0x7A, 0), "ROLL": (0x8A, 0), "ROUND": (0x68, 2), "RS": (0x43, 0),
        "RTDG": (0x3D, 0), "RTG": (0x18, 0), "RTHG": (0x19, 0), "RUTG": (0x7C, 0),
        "S45ROUND": (0x77, 0), "SANGW": (0x7E, 0), "SCANCTRL": (0x85, 0), "SCANTYPE": (0x8D, 0),
        "SCFS": (0x48, 0), "SCVTCI": (0x1D, 0), "SDB": (0x5E, 0), "SDPVTL": (0x86, 1),
        "SDS": (0x5F, 0), "SFVFS": (0x0B, 0), "SFVTCA": (0x04, 1), "SFVTL": (0x08, 1),
        "SFVTPV": (0x0E, 0), "SHC": (0x34, 1), "SHP": (0x32, 1), "SHPIX": (0x38, 0),
        "SHZ": (0x36, 1), "SLOOP": (0x17, 0), "SMD": (0x1A, 0), "SPVFS": (0x0A, 0),
        "SPVTCA": (0x02, 1), "SPVTL": (0x06, 1), "SROUND": (0x76, 0), "SRP0": (0x10, 0),
        "SRP1": (0x11, 0), "SRP2": (0x12, 0), "SSW": (0x1F, 0), "SSWCI": (0x1E, 0),
        "SUB": (0x61, 0), "SVTCA": (0x00, 1), "SWAP": (0x23, 0), "SZP0": (0x13, 0),
        "SZP1": (0x14, 0), "SZP2": (0x15, 0), "SZPS": (0x16, 0), "UTP": (0x29, 0),
        "WCVTF": (0x70, 0), "WCVTP": (0x44, 0), "WS": (0x42, 0),
    ]

    /// A short description of each instruction, written as a comment after it in dumps.
    static let meanings: [String: String] = [
        "AA": "adjust angle", "ABS": "absolute value", "ADD": "add", "ALIGNPTS": "align points",
        "ALIGNRP": "align to reference point", "AND": "logical and", "CALL": "call function",
        "CEILING": "ceiling", "CINDEX": "copy indexed element to top", "CLEAR": "clear stack",
        "DEBUG": "debug", "DELTAC1": "delta CVT, sizes 0-15", "DELTAC2": "delta CVT, sizes 16-31",
        "DELTAC3": "delta CVT, sizes 32-47", "DELTAP1": "delta point, sizes 0-15",
        "DELTAP2": "delta point, sizes 16-31", "DELTAP3": "delta point, sizes 32-47", "DEPTH": "stack depth",
        "DIV": "divide", "DUP": "duplicate top", "EIF": "end if", "ELSE": "else", "ENDF": "end function",
        "EQ": "equal", "EVEN": "even", "FDEF": "function definition", "FLIPOFF": "auto flip off",
        "FLIPON": "auto flip on", "FLIPPT": "flip point", "FLIPRGOFF": "flip range off",
        "FLIPRGON": "flip range on", "FLOOR": "floor", "GC": "get coordinate", "GETINFO": "get information",
        "GETVARIATION": "get variation", "GFV": "get freedom vector", "GPV": "get projection vector",
        "GT": "greater than", "GTEQ": "greater than or equal", "IDEF": "instruction definition",
        "IF": "if", "INSTCTRL": "instruction execution control", "IP": "interpolate point",
        "ISECT": "move point to intersection", "IUP": "interpolate untouched points", "JMPR": "jump",
        "JROF": "jump if false", "JROT": "jump if true", "LOOPCALL": "call function repeatedly",
        "LT": "less than", "LTEQ": "less than or equal", "MAX": "maximum", "MD": "measure distance",
        "MDAP": "move direct absolute point", "MDRP": "move direct relative point",
        "MIAP": "move indirect absolute point", "MIN": "minimum", "MINDEX": "move indexed element to top",
        "MIRP": "move indirect relative point", "MPPEM": "pixels per em", "MPS": "point size",
        "MSIRP": "move stack indirect relative point", "MUL": "multiply", "NEG": "negate",
        "NEQ": "not equal", "NOT": "logical not", "NROUND": "no rounding", "ODD": "odd", "OR": "logical or",
        "POP": "pop", "RCVT": "read CVT", "RDTG": "round down to grid", "ROFF": "rounding off",
        "ROLL": "roll top three", "ROUND": "round", "RS": "read storage", "RTDG": "round to double grid",
        "RTG": "round to grid", "RTHG": "round to half grid", "RUTG": "round up to grid",
        "S45ROUND": "super round 45 degrees", "SANGW": "set angle weight", "SCANCTRL": "scan conversion control",
        "SCANTYPE": "scan type", "SCFS": "set coordinate from stack", "SCVTCI": "set CVT cut-in",
        "SDB": "set delta base", "SDPVTL": "set dual projection vector to line", "SDS": "set delta shift",
        "SFVFS": "set freedom vector from stack", "SFVTCA": "set freedom vector to axis",
        "SFVTL": "set freedom vector to line", "SFVTPV": "freedom vector to projection vector",
        "SHC": "shift contour", "SHP": "shift point", "SHPIX": "shift point by pixels", "SHZ": "shift zone",
        "SLOOP": "set loop", "SMD": "set minimum distance", "SPVFS": "set projection vector from stack",
        "SPVTCA": "set projection vector to axis", "SPVTL": "set projection vector to line",
        "SROUND": "super round", "SRP0": "set reference point 0", "SRP1": "set reference point 1",
        "SRP2": "set reference point 2", "SSW": "set single width", "SSWCI": "set single width cut-in",
        "SUB": "subtract", "SVTCA": "set vectors to axis", "SWAP": "swap", "SZP0": "set zone pointer 0",
        "SZP1": "set zone pointer 1", "SZP2": "set zone pointer 2", "SZPS": "set zone pointers",
        "UTP": "untouch point", "WCVTF": "write CVT in font units", "WCVTP": "write CVT in pixels",
        "WS": "write storage",
    ]

    /// Opcode → mnemonic, argument bits and their value, for every opcode that is not a push.
    static let byOpcode: [UInt8: (mnemonic: String, bits: Int, argument: Int)] = {
        var table: [UInt8: (String, Int, Int)] = [:]
        for (mnemonic, (op, bits)) in opcodes where !mnemonic.contains("PUSH") {
            for k in 0..<(1 << bits) { table[op + UInt8(k)] = (mnemonic, bits, k) }
        }
        return table
    }()

    /// Bytecode as the text of an `<assembly>` element, as fontTools writes it: one instruction
    /// per line with its meaning as a comment, each push followed by its values (25 to a line),
    /// function and IF bodies indented two spaces (an unmatched end goes below zero, as in
    /// fontTools); `indent` starts every line. Nil when the bytecode ends inside a push or has
    /// an empty NPUSH (fontTools then writes `<bytecode>` too).
    static func disassemble(_ code: [UInt8], indent: String) -> String? {
        var out = XMLText()
        guard disassemble(code, indent: indent.count, into: &out) else { return nil }
        return out.string
    }

    /// Each opcode's line as fontTools writes it ("SVTCA[0]\t/* SetFPVectorToAxis */"), by opcode;
    /// nil for the push instructions (their lines hold counts) and unknown opcodes.
    static let instructionLines: [[UInt8]?] = (0...255).map { op -> [UInt8]? in
        guard let (name, bits, value) = byOpcode[UInt8(op)] else { return nil }
        let argument = bits == 0 ? " " : String((0..<bits).reversed().map { value >> $0 & 1 == 1 ? "1" : "0" })
        return Array("\(name)[\(argument)]\t/* \(meanings[name] ?? name) */".utf8)
    }

    /// Writes the assembly, one instruction a line, bodies of FDEF/IDEF/IF/ELSE indented; false
    /// (and nothing written) when the code does not disassemble (a push cut short), as fontTools.
    static func disassemble(_ code: [UInt8], indent: Int, into out: inout XMLText) -> Bool {
        let start = out.bytes.count
        var depth = 0
        var i = 0
        func lineStart() { out.spaces(indent + 2 * max(0, depth)) }
        while i < code.count {
            let op = code[i]
            var count = 0, words = false
            let mnemonic: StaticString
            switch op {
            case 0x40, 0x41:
                // fontTools refuses an empty NPUSH as it refuses a truncated one.
                guard i + 1 < code.count, code[i + 1] > 0 else { out.bytes.removeSubrange(start...); return false }
                count = Int(code[i + 1]); words = op == 0x41; mnemonic = words ? "NPUSHW" : "NPUSHB"; i += 2
            case 0xB0...0xB7: count = Int(op - 0xB0) + 1; mnemonic = "PUSHB"; i += 1
            case 0xB8...0xBF: count = Int(op - 0xB8) + 1; words = true; mnemonic = "PUSHW"; i += 1
            default:
                i += 1
                guard let text = instructionLines[Int(op)], let (name, _, _) = byOpcode[op] else {
                    lineStart(); out.add("INSTR"); out.add(Int(op)); out.add("[ ]\n"); continue
                }
                if name == "ELSE" || name == "ENDF" || name == "EIF" { depth -= 1 }
                lineStart(); out.bytes.append(contentsOf: text); out.add("\n")
                if name == "FDEF" || name == "IDEF" || name == "IF" || name == "ELSE" { depth += 1 }
                continue
            }
            guard i + count * (words ? 2 : 1) <= code.count else { out.bytes.removeSubrange(start...); return false }
            lineStart(); out.add(mnemonic); out.add("[ ]\t/* "); out.add(count);
            out.add(count == 1 ? " value pushed */\n" : " values pushed */\n")
            // The values, 25 to a line.
            for k in 0..<count {
                if k % 25 == 0 { if k > 0 { out.add("\n") }; lineStart() } else { out.add(" ") }
                if words {
                    out.add(Int(Int16(bitPattern: UInt16(code[i]) << 8 | UInt16(code[i + 1])))); i += 2
                } else {
                    out.add(Int(code[i])); i += 1
                }
            }
            out.add("\n")
        }
        return true
    }

    /// Assembles the text of an `<assembly>` element into bytecode.
    static func assemble(_ text: String) throws -> [UInt8] {
        var scanner = Scanner(text)
        var tokens: [Token] = []
        while let t = try scanner.next() { tokens.append(t) }
        var out: [UInt8] = []
        var k = 0
        while k < tokens.count {
            guard case .instruction(let mnemonic, let bits) = tokens[k] else {
                throw AssemblyError("a value (\(tokens[k])) outside a push instruction")
            }
            k += 1
            if ["PUSH", "PUSHB", "PUSHW", "NPUSHB", "NPUSHW"].contains(mnemonic) {
                var values: [Int] = []
                while k < tokens.count, case .number(let v) = tokens[k] { values.append(v); k += 1 }
                try push(mnemonic, values, into: &out)
                continue
            }
            if mnemonic.hasPrefix("INSTR"), let op = UInt8(mnemonic.dropFirst(5)) { out.append(op); continue }
            guard let (op, count) = opcodes[mnemonic] else { throw AssemblyError("unknown instruction \(mnemonic)") }
            guard bits.count == count, bits.allSatisfy({ $0 == "0" || $0 == "1" }) else {
                throw AssemblyError("\(mnemonic) takes \(count) argument bit\(count == 1 ? "" : "s"), got [\(bits)]")
            }
            out.append(op + UInt8(bits.reduce(0) { $0 << 1 | ($1 == "1" ? 1 : 0) }))
        }
        return out
    }

    private static func push(_ mnemonic: String, _ values: [Int], into out: inout [UInt8]) throws {
        guard !values.isEmpty else { throw AssemblyError("\(mnemonic) with no values") }
        func bytes(_ v: [Int]) throws {
            guard let bad = v.first(where: { !(0...255).contains($0) }) else { out += v.map { UInt8($0) }; return }
            throw AssemblyError("\(mnemonic) value \(bad) is not a byte (0...255)")
        }
        func words(_ v: [Int]) throws {
            if let bad = v.first(where: { !(-32768...32767).contains($0) }) {
                throw AssemblyError("\(mnemonic) value \(bad) is not a 16-bit word")
            }
            for x in v { out.append(UInt8((x >> 8) & 0xFF)); out.append(UInt8(x & 0xFF)) }
        }
        switch mnemonic {
        case "PUSHB", "PUSHW":
            guard values.count <= 8 else { throw AssemblyError("\(mnemonic) pushes at most 8 values, got \(values.count)") }
            out.append((mnemonic == "PUSHB" ? 0xB0 : 0xB8) + UInt8(values.count - 1))
            try mnemonic == "PUSHB" ? bytes(values) : words(values)
        case "NPUSHB", "NPUSHW":
            guard values.count <= 255 else { throw AssemblyError("\(mnemonic) pushes at most 255 values, got \(values.count)") }
            out.append(mnemonic == "NPUSHB" ? 0x40 : 0x41)
            out.append(UInt8(values.count))
            try mnemonic == "NPUSHB" ? bytes(values) : words(values)
        default:
            // PUSH: the most compact mix, as fontTools chooses it (runs of bytes, words where a
            // value does not fit a byte, a lone byte between words written as a word).
            var rest = values[...]
            var wordCount = 0
            while !rest.isEmpty {
                let all = Array(rest)
                while wordCount < all.count && wordCount < 255 && !(0...255).contains(all[wordCount]) { wordCount += 1 }
                var byteCount = 0
                while wordCount + byteCount < all.count && byteCount < 255 && (0...255).contains(all[wordCount + byteCount]) {
                    byteCount += 1
                }
                if byteCount < 2 && wordCount + byteCount < 255 && wordCount + byteCount != all.count {
                    wordCount += byteCount
                    continue
                }
                if wordCount > 0 { try push(wordCount <= 8 ? "PUSHW" : "NPUSHW", Array(all[0..<wordCount]), into: &out) }
                if byteCount > 0 {
                    try push(byteCount <= 8 ? "PUSHB" : "NPUSHB", Array(all[wordCount..<wordCount + byteCount]), into: &out)
                }
                rest = rest.dropFirst(wordCount + byteCount)
                wordCount = 0
            }
        }
    }

    enum Token: CustomStringConvertible {
        case instruction(String, bits: String)
        case number(Int)
        var description: String {
            switch self {
            case .instruction(let m, let b): "\(m)[\(b)]"
            case .number(let n): String(n)
            }
        }
    }

    /// Splits assembly into instructions and numbers, skipping whitespace and comments.
    struct Scanner {
        let bytes: [UInt8]
        var i = 0
        init(_ text: String) { bytes = Array(text.utf8) }

        private mutating func skipSpaceAndComments() throws {
            while i < bytes.count {
                if bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1; continue }
                if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                    var j = i + 2
                    while j + 1 < bytes.count && !(bytes[j] == UInt8(ascii: "*") && bytes[j + 1] == UInt8(ascii: "/")) { j += 1 }
                    guard j + 1 < bytes.count else { throw AssemblyError("unterminated comment") }
                    i = j + 2
                    continue
                }
                return
            }
        }

        mutating func next() throws -> Token? {
            try skipSpaceAndComments()
            guard i < bytes.count else { return nil }
            let start = i
            if bytes[i] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[i]) {
                i += 1
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
                guard let n = Int(String(decoding: bytes[start..<i], as: UTF8.self)) else { throw AssemblyError("bad number") }
                return .number(n)
            }
            while i < bytes.count, (0x41...0x5A).contains(bytes[i]) || (0x30...0x39).contains(bytes[i]) { i += 1 }
            let mnemonic = String(decoding: bytes[start..<i], as: UTF8.self)
            guard !mnemonic.isEmpty else {
                throw AssemblyError("unexpected '\(String(decoding: bytes[i..<min(bytes.count, i + 12)], as: UTF8.self))'")
            }
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else {
                throw AssemblyError("\(mnemonic) needs its argument bits in brackets, e.g. \(mnemonic)[ ]")
            }
            let open = i + 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "]") { i += 1 }
            guard i < bytes.count else { throw AssemblyError("unterminated [ after \(mnemonic)") }
            let bits = String(decoding: bytes[open..<i], as: UTF8.self).filter { $0 != " " }
            i += 1
            return .instruction(mnemonic, bits: bits)
        }
    }
}

struct AssemblyError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = "TrueType assembly: " + message }
}

extension TTX {
    /// TrueType bytecode as assembly text, as dumps write it (no indentation at the left);
    /// nil when it ends inside a push.
    public static func assembly(_ code: [UInt8]) -> String? { TrueTypeAssembly.disassemble(code, indent: "") }

    /// Assembly text (ours or fontTools') as bytecode; an error names what is wrong.
    public static func assemble(_ text: String) throws -> [UInt8] {
        do { return try TrueTypeAssembly.assemble(text) } catch let error as AssemblyError { throw FontError(error.description) }
    }
}
