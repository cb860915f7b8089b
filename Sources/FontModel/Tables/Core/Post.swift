/// `post` — PostScript information and, in format 2, glyph names. Formats 1, 2, 2.5 and 3 are read;
/// names set through `setGlyphNames` are written as format 2.
public final class PostTable: FieldTable {
    public override class var tableTag: Tag { "post" }

    public override class var record: Record { described }

    // swift-format-ignore
    static let described = Record("post", [
        Member("version", .version32, ttxName: "formatType", format: .exactFloat), Member("italicAngle", .fixed, format: .exactFloat),
        Member("underlinePosition", .int16), Member("underlineThickness", .int16),
        Member("isFixedPitch", .uint32), Member("minMemType42", .uint32), Member("maxMemType42", .uint32),
        Member("minMemType1", .uint32), Member("maxMemType1", .uint32),
    ])

    public override class func versionField(of reader: BinaryReader) -> UInt32 { (try? reader.u32(at: 0)) ?? 0 }

    public var version: UInt32 { UInt32(truncatingIfNeeded: int("version")) }

    /// Glyph names from the table, or nil when the format carries none (3) or they do not fit.
    public func glyphNames(count: Int) throws -> [String]? {
        try tail.withUnsafeBytes { buffer -> [String]? in
            var r = BinaryReader(buffer, base: 32)
            switch version {
            case 0x0001_0000:
                return count <= standardMacGlyphNames.count ? Array(standardMacGlyphNames.prefix(count)) : nil
            case 0x0002_0000:
                let n = Int(try r.u16())
                var indices: [Int] = []
                indices.reserveCapacity(n)
                for _ in 0..<n { indices.append(Int(try r.u16())) }
                var custom: [String] = []
                while r.remaining > 0 {
                    let length = Int(try r.u8())
                    let bytes = try r.bytes(length)
                    custom.append(String(decoding: bytes, as: UTF8.self))
                }
                var names: [String] = []
                names.reserveCapacity(count)
                for i in 0..<count {
                    guard i < n else { names.append("glyph\(zeroPadded5(i))"); continue }
                    let index = indices[i]
                    if index < 258 {
                        names.append(standardMacGlyphNames[index])
                    } else if index - 258 < custom.count {
                        names.append(custom[index - 258])
                    } else {
                        throw FontError(
                            "post name index \(index) of glyph \(i) points past the \(custom.count) names stored", table: "post")
                    }
                }
                return names
            case 0x0002_5000:
                let n = Int(try r.u16())
                var names: [String] = []
                for i in 0..<min(n, count) {
                    let index = i + Int(try r.i8())
                    guard (0..<258).contains(index) else {
                        throw FontError("post 2.5 offset of glyph \(i) leaves the standard names", table: "post")
                    }
                    names.append(standardMacGlyphNames[index])
                }
                return names.count == count ? names : nil
            default:
                return nil
            }
        }
    }

    /// Format 2's own names (those not in the standard Mac order), in stored order; [] otherwise.
    /// As many as the glyph indices use, as fontTools reads them: bytes after them are ignored,
    /// and a name the data does not hold is empty.
    public func extraNames() throws -> [String] {
        guard version == 0x0002_0000 else { return [] }
        return try tail.withUnsafeBytes { buffer in
            var r = BinaryReader(buffer, base: 32)
            let n = Int(try r.u16())
            var highest = 0
            for _ in 0..<n { highest = max(highest, Int(try r.u16())) }
            var names: [String] = []
            for _ in 0..<max(0, highest - 257) {
                guard r.remaining > 0 else { names.append(""); continue }
                let length = Int(try r.u8())
                guard length <= r.remaining else { names.append(""); r.offset = r.count; continue }
                names.append(String(decoding: try r.bytes(length), as: UTF8.self))
            }
            return names
        }
    }

    /// Stores glyph names as format 2.
    public func setGlyphNames(_ names: [String]) throws {
        guard names.count <= 0xFFFF else { throw FontError("post holds at most 65535 glyph names", table: "post") }
        var standard: [String: Int] = [:]
        for (i, n) in standardMacGlyphNames.enumerated() { standard[n] = i }
        var w = BinaryWriter()
        w.u16(UInt16(names.count))
        var custom: [String] = [], customIndex: [String: Int] = [:]
        for name in names {
            if let s = standard[name] { w.u16(UInt16(s)); continue }
            if let c = customIndex[name] { try w.u16(258 + c, "post glyph name index"); continue }
            guard name.utf8.count <= 255 else {
                throw FontError("glyph name '\(name.prefix(20))…' is longer than 255 bytes", table: "post")
            }
            guard 258 + custom.count <= 0xFFFF else { throw FontError("too many distinct glyph names for post format 2", table: "post") }
            customIndex[name] = custom.count
            try w.u16(258 + custom.count, "post glyph name index")
            custom.append(name)
        }
        for name in custom { w.u8(UInt8(name.utf8.count)); w.append(Array(name.utf8)) }
        try set("version", .int(0x0002_0000))
        tail = w.bytes
        isEdited = true
    }
}

/// Zero-padded to five digits, as fontTools names glyphs (glyph00042, cid00042).
func zeroPadded5(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: Swift.max(0, 5 - digits.count)) + digits
}
