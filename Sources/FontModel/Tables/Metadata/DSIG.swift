/// `DSIG`, digital signatures: PKCS#7 blocks signing the font's other tables. Most fonts that
/// have one carry an empty stub (version 1, no signatures) that old Office versions looked for;
/// a real signature is invalid as soon as any table changes. Kept as decoded here, written back
/// in fontTools' layout (blocks in record order, padded to an even length) when edited.
public final class DSIGTable: DecodableTable {
    public static let tableTag: Tag = "DSIG"

    public struct Signature: Equatable, Sendable {
        /// 1 is the only format defined (PKCS#7).
        public var format: UInt32
        public var reserved1: UInt16
        public var reserved2: UInt16
        /// The DER-encoded PKCS#7 packet.
        public var pkcs7: [UInt8]

        public init(format: UInt32 = 1, reserved1: UInt16 = 0, reserved2: UInt16 = 0, pkcs7: [UInt8]) {
            self.format = format; self.reserved1 = reserved1; self.reserved2 = reserved2; self.pkcs7 = pkcs7
        }
    }

    public private(set) var version: UInt32
    /// Bit 0: the signature may not be resigned.
    public private(set) var flags: UInt16
    public private(set) var signatures: [Signature]
    public private(set) var isEdited = false

    public init(version: UInt32 = 1, flags: UInt16 = 0, signatures: [Signature] = []) {
        self.version = version
        self.flags = flags
        self.signatures = signatures
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> DSIGTable {
        var r = reader
        let version = try r.u32(), count = Int(try r.u16()), flags = try r.u16()
        var signatures: [Signature] = []
        for k in 0..<count {
            let format = try r.u32()
            _ = try r.u32()   // the block's length: it follows from the block
            let offset = Int(try r.u32())
            guard offset <= reader.count - 8 else {
                throw reader.error(
                    "DSIG signature \(k): its block at \(offset) lies past the end of the table (\(reader.count) bytes)", at: r.offset - 4)
            }
            var block = reader
            try block.seek(offset)
            let reserved1 = try block.u16(), reserved2 = try block.u16()
            let length = try block.i32()
            guard length >= 0, Int(length) <= block.remaining else {
                throw reader.error(
                    "DSIG signature \(k): \(length) bytes of signature do not fit the table (\(reader.count) bytes)", at: offset + 4)
            }
            signatures.append(Signature(format: format, reserved1: reserved1, reserved2: reserved2, pkcs7: try block.bytes(Int(length))))
        }
        return DSIGTable(version: version, flags: flags, signatures: signatures)
    }

    public func set(version: UInt32? = nil, flags: UInt16? = nil, signatures: [Signature]? = nil) {
        let new = (version ?? self.version, flags ?? self.flags, signatures ?? self.signatures)
        guard new.0 != self.version || new.1 != self.flags || new.2 != self.signatures else { return }
        (self.version, self.flags, self.signatures) = new
        isEdited = true
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        guard signatures.count <= 0xFFFF else { throw FontError("DSIG: \(signatures.count) signatures, more than 65535") }
        w.u32(version); w.u16(UInt16(signatures.count)); w.u16(flags)
        var offset = 8 + 12 * signatures.count
        for s in signatures {
            w.u32(s.format)
            try w.u32(s.pkcs7.count + 8, "DSIG signature block length"); try w.u32(offset, "DSIG signature block offset")
            offset += s.pkcs7.count + 8
        }
        for s in signatures {
            w.u16(s.reserved1); w.u16(s.reserved2)
            guard s.pkcs7.count <= Int(Int32.max) else { throw FontError("DSIG: a signature of \(s.pkcs7.count) bytes is too long") }
            w.u32(UInt32(s.pkcs7.count)); w.append(s.pkcs7)
        }
        if w.bytes.count % 2 == 1 { w.u8(0) }
        return w.bytes
    }
}

extension DSIGTable: DiffableTable {
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? DSIGTable else { return nil }
        var out: [Difference] = []
        if version != other.version {
            out.append(Difference(kind: .changed, table: "DSIG", item: "version", old: String(version), new: String(other.version)))
        }
        if flags != other.flags {
            out.append(Difference(kind: .changed, table: "DSIG", item: "flags", old: String(flags), new: String(other.flags)))
        }
        for k in 0..<max(signatures.count, other.signatures.count) {
            let a = k < signatures.count ? signatures[k] : nil, b = k < other.signatures.count ? other.signatures[k] : nil
            guard a != b else { continue }
            out.append(
                Difference(
                    kind: a == nil ? .added : b == nil ? .removed : .changed, table: "DSIG", item: "signature \(k)",
                    old: a.map { "\($0.pkcs7.count) bytes" }, new: b.map { "\($0.pkcs7.count) bytes" }))
        }
        return out
    }
}
