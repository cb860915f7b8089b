/// `fpgm` (the font program: function definitions, run once) and `prep` (the control value
/// program, run at each size): TrueType bytecode, kept as bytes. Dumps write it as assembly
/// (FontXML's `TrueTypeAssembly`), Lua as assembly text.
public class InstructionTable: DecodableTable {
    public class var tableTag: Tag { "    " }

    public private(set) var bytecode: [UInt8]
    public private(set) var isEdited = false

    public required init(bytecode: [UInt8]) { self.bytecode = bytecode }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        var r = reader
        return Self(bytecode: try r.bytes(reader.count))
    }

    public func setBytecode(_ new: [UInt8]) {
        guard new != bytecode else { return }
        bytecode = new
        isEdited = true
    }

    public func encode() throws -> [UInt8] { bytecode }
}

public final class FpgmTable: InstructionTable {
    override public class var tableTag: Tag { "fpgm" }
}

public final class PrepTable: InstructionTable {
    override public class var tableTag: Tag { "prep" }
}

extension InstructionTable: DiffableTable {
    /// One line: the program's size before and after, and where it first differs.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? InstructionTable else { return nil }
        guard bytecode != other.bytecode else { return [] }
        let first =
            zip(bytecode, other.bytecode).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(bytecode.count, other.bytecode.count)
        return [
            Difference(
                kind: .changed, table: Self.tableTag.trimmed, item: "program from byte \(first)",
                old: "\(bytecode.count) bytes", new: "\(other.bytecode.count) bytes")
        ]
    }
}
