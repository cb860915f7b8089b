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
        guard !code.isEmpty else { return "" }
        if let text = TrueTypeAssembly.disassemble(code, indent: indent + "  ") {
            return indent + "<assembly>\n" + text + indent + "</assembly>\n"
        }
        return indent + "<bytecode>\n" + hexLines(code).replacingLeading("      ", with: indent + "  ") + indent + "</bytecode>\n"
    }

    /// The bytecode of an `<assembly>` or `<bytecode>` element, or an error at its position.
    static func programBytes(_ e: XMLElement, in parent: String) throws -> [UInt8] {
        switch e.name {
        case "assembly":
            do { return try TrueTypeAssembly.assemble(e.text) } catch let error as AssemblyError { throw XMLError(error.description, line: e.line, column: e.column) }
        case "bytecode": return try hexBytes(e)
        default: throw XMLError("<\(e.name)> in <\(parent)>: expected <assembly> or <bytecode>", line: e.line, column: e.column)
        }
    }
}
