/// Graphite's rule programs (constraints and actions in Silf passes) as text, one instruction
/// per line with its operands in parentheses — `PUSH_BYTE(-1)`, `ASSOC(0, 1)` — the form
/// fontTools writes. Opcodes are those of the Graphite engine (graphite2's opcode table).
public enum SilfCode {
    /// How an opcode's operands are stored.
    enum Operand: Sendable {
        case s8, u8, s16, u16, u32
    }

    struct Instruction: Sendable {
        let name: String
        /// nil: a count byte then that many unsigned bytes (ASSOC).
        let operands: [Operand]?
    }

    static let instructions: [Instruction] = {
        func i(_ name: String, _ operands: Operand...) -> Instruction { Instruction(name: name, operands: operands) }
        return [
            i("NOP"), i("PUSH_BYTE", .s8), i("PUSH_BYTE_U", .u8), i("PUSH_SHORT", .s16), i("PUSH_SHORT_U", .u16), i("PUSH_LONG", .u32),
            i("ADD"), i("SUB"), i("MUL"), i("DIV"), i("MIN"), i("MAX"), i("NEG"), i("TRUNC8"), i("TRUNC16"), i("COND"),
            i("AND"), i("OR"), i("NOT"), i("EQUAL"), i("NOT_EQ"), i("LESS"), i("GTR"), i("LESS_EQ"), i("GTR_EQ"),
            i("NEXT"), i("NEXT_N", .s8), i("COPY_NEXT"), i("PUT_GLYPH_8BIT_OBS", .u8), i("PUT_SUBS_8BIT_OBS", .s8, .u8, .u8),
            i("PUT_COPY", .s8), i("INSERT"), i("DELETE"), Instruction(name: "ASSOC", operands: nil), i("CNTXT_ITEM", .s8, .u8),
            i("ATTR_SET", .u8), i("ATTR_ADD", .u8), i("ATTR_SUB", .u8), i("ATTR_SET_SLOT", .u8), i("IATTR_SET_SLOT", .u8, .u8),
            i("PUSH_SLOT_ATTR", .u8, .s8), i("PUSH_GLYPH_ATTR_OBS", .u8, .s8), i("PUSH_GLYPH_METRIC", .u8, .s8, .s8),
            i("PUSH_FEAT", .u8, .s8), i("PUSH_ATT_TO_GATTR_OBS", .u8, .s8), i("PUSH_ATT_TO_GLYPH_METRIC", .u8, .s8, .s8),
            i("PUSH_ISLOT_ATTR", .u8, .s8, .s8), i("PUSH_IGLYPH_ATTR", .u8, .s8, .s8),
            i("POP_RET"), i("RET_ZERO"), i("RET_TRUE"), i("IATTR_SET", .u8, .u8), i("IATTR_ADD", .u8, .u8), i("IATTR_SUB", .u8, .u8),
            i("PUSH_PROC_STATE", .u8), i("PUSH_VERSION"), i("PUT_SUBS", .s8, .u16, .u16), i("PUT_SUBS2"), i("PUT_SUBS3"),
            i("PUT_GLYPH", .u16), i("PUSH_GLYPH_ATTR", .u16, .s8), i("PUSH_ATT_TO_GLYPH_ATTR", .u16, .s8),
            i("BITOR"), i("BITAND"), i("BITNOT"), i("BITSET", .u16, .u16), i("SET_FEAT", .u8, .s8),
        ]
    }()

    static let opcodes: [String: Int] = Dictionary(instructions.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The program's instructions as text lines. An opcode the engine does not know or an
    /// instruction cut short is an error: the program could not be written back from text.
    public static func disassemble(_ code: [UInt8]) throws -> [String] {
        var lines: [String] = []
        var pc = 0
        while pc < code.count {
            let opcode = Int(code[pc])
            guard opcode < instructions.count else {
                throw FontError("Graphite code: opcode \(opcode) at byte \(pc) is not a known instruction")
            }
            let instruction = instructions[opcode]
            pc += 1
            var values: [Int] = []
            func need(_ n: Int) throws {
                guard n <= code.count - pc else { throw FontError("Graphite code: \(instruction.name) at byte \(pc - 1) is cut short") }
            }
            if let operands = instruction.operands {
                for operand in operands {
                    switch operand {
                    case .s8: try need(1); values.append(Int(Int8(bitPattern: code[pc]))); pc += 1
                    case .u8: try need(1); values.append(Int(code[pc])); pc += 1
                    case .s16: try need(2); values.append(Int(Int16(bitPattern: UInt16(code[pc]) << 8 | UInt16(code[pc + 1])))); pc += 2
                    case .u16: try need(2); values.append(Int(code[pc]) << 8 | Int(code[pc + 1])); pc += 2
                    case .u32: try need(4); values.append(code[pc..<pc + 4].reduce(0) { $0 << 8 | Int($1) }); pc += 4
                    }
                }
            } else {
                try need(1)
                let count = Int(code[pc]); pc += 1
                try need(count)
                values = code[pc..<pc + count].map(Int.init); pc += count
            }
            lines.append(
                instruction.operands?.isEmpty == true
                    ? instruction.name : instruction.name + "(" + values.map(String.init).joined(separator: ", ") + ")")
        }
        return lines
    }

    /// Text lines back to bytes; blank lines are skipped. Errors name the line (1-based).
    public static func assemble(_ lines: [String]) throws -> [UInt8] {
        var out: [UInt8] = []
        for (n, raw) in lines.enumerated() {
            let line = trimmed(raw)
            if line.isEmpty { continue }
            func fail(_ why: String) -> FontError { FontError("line \(n + 1) '\(line)': \(why)") }
            let name: String, arguments: [String]
            if let open = line.firstIndex(of: "(") {
                guard line.hasSuffix(")") else { throw fail("expected ')' at the end") }
                name = trimmed(line[..<open])
                let inner = line[line.index(after: open)..<line.index(before: line.endIndex)]
                arguments = inner.split(separator: ",").map { trimmed($0) }
            } else {
                name = line; arguments = []
            }
            guard let opcode = opcodes[name] else { throw fail("'\(name)' is not a Graphite instruction") }
            let values = try arguments.map { a -> Int in
                guard let v = Int(a) else { throw fail("'\(a)' is not a number") }
                return v
            }
            out.append(UInt8(opcode))
            guard let operands = instructions[opcode].operands else {
                guard values.count <= 255, values.allSatisfy({ (0...255).contains($0) }) else {
                    throw fail("ASSOC takes up to 255 slot numbers in 0...255")
                }
                out.append(UInt8(values.count)); out += values.map(UInt8.init)
                continue
            }
            guard values.count == operands.count else {
                throw fail("\(name) takes \(operands.count) operand\(operands.count == 1 ? "" : "s"), not \(values.count)")
            }
            for (v, operand) in zip(values, operands) {
                switch operand {
                case .s8:
                    guard (-128...127).contains(v) else { throw fail("\(v) is not in -128...127") }; out.append(UInt8(bitPattern: Int8(v)))
                case .u8: guard (0...255).contains(v) else { throw fail("\(v) is not in 0...255") }; out.append(UInt8(v))
                case .s16:
                    guard (-32768...32767).contains(v) else { throw fail("\(v) is not in -32768...32767") };
                    out += [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
                case .u16:
                    guard (0...65535).contains(v) else { throw fail("\(v) is not in 0...65535") }; out += [UInt8(v >> 8), UInt8(v & 0xFF)]
                case .u32:
                    guard (0...0xFFFF_FFFF).contains(v) else { throw fail("\(v) is not in 0...4294967295") };
                    out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) }
                }
            }
        }
        return out
    }

    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
