/// What the Graphite tables (Feat, Sill, Glat/Gloc, Silf) share: feature IDs written as
/// numbers or four-letter tags, the binary-search header of their sorted arrays, and the
/// compression of Silf (version 5) and Glat (version 3).
public enum Graphite {
    /// A feature ID as Graphite tools write it: small IDs as numbers, larger ones as the tag
    /// they spell (NULs dropped), as fontTools' num2tag does.
    public static func featureIDText(_ id: UInt32) -> String {
        if id < 0x20_0000 { return String(id) }
        let bytes = [id >> 24, id >> 16 & 0xFF, id >> 8 & 0xFF, id & 0xFF].map(UInt8.init).filter { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The inverse of `featureIDText`: a number, or up to four ASCII characters padded with spaces.
    public static func featureID(_ text: String) -> UInt32? {
        if let n = UInt32(text) { return n }
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return (bytes + Array(repeating: 0x20, count: 4 - bytes.count)).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A 16.16 version as a short decimal ("2.0", "3.1").
    static func versionText(_ v: UInt32) -> String { "\(shortestDecimal(Int64(v), scale: Fixed.scale))" }

    /// numRecords, searchRange, entrySelector, rangeShift for `count` records of `size` bytes.
    static func writeSearchHeader(_ w: inout BinaryWriter, count: Int, size: Int = 1) throws {
        try w.u16(count, "Graphite record count")
        guard count > 0 else { w.u16(0); w.u16(0); w.u16(0); return }
        var power = 1, log = 0
        while power * 2 <= count { power *= 2; log += 1 }
        try w.u16(power * size, "Graphite search range"); w.u16(UInt16(log)); try w.u16(count * size - power * size, "Graphite range shift")
    }

    /// A table that may be compressed (Silf 5, Glat 3): bytes 4–7 hold the scheme in their top
    /// five bits and the uncompressed size in the rest; scheme 1 is an LZ4 block of the whole
    /// table. Returns the table as it reads uncompressed, and the scheme.
    static func expand(_ reader: BinaryReader, _ tag: Tag) throws -> (bytes: [UInt8], scheme: Int) {
        let whole = Array(reader.bytes)
        guard whole.count >= 8 else { return (whole, 0) }
        let word = try reader.u32(at: 4)
        let scheme = Int(word >> 27), size = Int(word & 0x07FF_FFFF)
        switch scheme {
        case 0: return (whole, 0)
        case 1:
            guard size >= 8, size <= LZ4.maximumExpansion(of: whole.count - 8) else {
                throw reader.error("\(tag) claims \(size) bytes uncompressed, more than \(whole.count) compressed bytes can hold", at: 4)
            }
            do {
                return (try LZ4.decompress(Array(whole[8...]), size: size), 1)
            } catch let error as FontError {
                throw reader.error("\(tag): \(error.message)", at: 8)
            }
        default: throw reader.error("\(tag) uses compression scheme \(scheme); only 0 (none) and 1 (LZ4) are defined", at: 4)
        }
    }

    /// The inverse of `expand`: the table as written with its compression scheme.
    static func compress(_ table: [UInt8], scheme: Int, _ tag: Tag) throws -> [UInt8] {
        switch scheme {
        case 0: return table
        case 1:
            guard table.count <= 0x07FF_FFFF else {
                throw FontError("\(tag) is too large to compress (\(table.count) bytes)", table: tag.description)
            }
            var w = BinaryWriter()
            w.append(table.prefix(4)); w.u32(1 << 27 | UInt32(table.count))
            w.append(LZ4.compress(table))
            return w.bytes
        default: throw FontError("\(tag) compression scheme \(scheme) is not known (0: none, 1: LZ4)", table: tag.description)
        }
    }
}
