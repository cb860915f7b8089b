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
