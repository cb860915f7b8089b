import FontModel

/// fpgm and prep in TTX, as fontTools writes them: the program as `<assembly>` (fontTools'
/// mnemonics, `TrueTypeAssembly.swift`), or `<bytecode>` hex when it cannot be disassembled (a
/// push running past the end). Fusing takes either.
extension TTX {
    static func programConverter(_ type: InstructionTable.Type) -> Converter {
        let tag = type.tableTag, name = xmlName(tag)
        return Converter(
            dump: { face in
                guard let program = try face.decodedTable(tag) as? InstructionTable else { return nil }
                return "  <\(name)>\n" + programElement(program.bytecode, indent: "    ") + "  </\(name)>\n"
            },
            fuse: { element, face, apply in
                var code: [UInt8] = []
                for e in element.children { code += try programBytes(e, in: name) }
                if apply { face.setRawTable(tag, code) }
            })
    }

    /// A program's `<assembly>` (or `<bytecode>`) element at `indent`; nothing for no bytecode.
    static func programElement(_ code: [UInt8], indent: String) -> String {
        var out = XMLText()
        programElement(code, indent: indent.count, into: &out)
        return out.string
    }

    static func programElement(_ code: [UInt8], indent: Int, into out: inout XMLText) {
        guard !code.isEmpty else { return }
        let mark = out.bytes.count
        out.spaces(indent); out.add("<assembly>\n")
        if TrueTypeAssembly.disassemble(code, indent: indent + 2, into: &out) {
            out.spaces(indent); out.add("</assembly>\n")
            return
        }
        // Code that does not disassemble (a push cut short) is written as bytes, as fontTools does.
        out.bytes.removeSubrange(mark...)
        out.spaces(indent); out.add("<bytecode>\n")
        out.hexLines(code, indent: indent + 2)
        out.spaces(indent); out.add("</bytecode>\n")
    }

    /// The bytecode of an `<assembly>` or `<bytecode>` element, or an error at its position.
    static func programBytes(_ e: XMLElement, in parent: String) throws -> [UInt8] {
        switch e.name {
        case "assembly":
            do { return try TrueTypeAssembly.assemble(e.text) } catch let error as AssemblyError {
                throw XMLError(error.description, line: e.line, column: e.column)
            }
        case "bytecode": return try hexBytes(e)
        default: throw XMLError("<\(e.name)> in <\(parent)>: expected <assembly> or <bytecode>", line: e.line, column: e.column)
        }
    }
}

extension FpgmTable: TTXTable { static var ttx: TTX.Converter { TTX.programConverter(FpgmTable.self) } }

extension PrepTable: TTXTable { static var ttx: TTX.Converter { TTX.programConverter(PrepTable.self) } }
