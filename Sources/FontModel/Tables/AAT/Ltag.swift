/// `ltag` (Apple): IETF language tags, which Unicode-platform name records (and AAT tables)
/// refer to by index. Written back as fontTools writes it: one
/// string pool, each tag stored once (a tag inside an earlier one shares its bytes).
public final class LtagTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "ltag"
    public let version: UInt32
    public let flags: UInt32
    public let tags: [String]
    /// Edits reach the face through `setRawTable` (TTX fuse), so a decoded ltag is never re-encoded.
    public let isEdited = false

    public init(version: UInt32 = 1, flags: UInt32 = 0, tags: [String]) { self.version = version; self.flags = flags; self.tags = tags }

    public static func == (a: LtagTable, b: LtagTable) -> Bool { (a.version, a.flags, a.tags) == (b.version, b.flags, b.tags) }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> LtagTable {
        var r = reader
        let version = try r.u32(), flags = try r.u32(), count = Int(try r.u32())
        guard count <= r.remaining / 4 else { throw r.error("\(count) language tags do not fit the table (\(reader.count) bytes)", at: 8) }
        let tags = try (0..<count).map { _ -> String in
            let offset = Int(try r.u16()), length = Int(try r.u16())
            let bytes = try reader.sub(offset, length)
            guard let text = String(validating: Array(bytes.bytes), as: UTF8.self), text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw reader.error("a language tag is not ASCII text", at: offset)
            }
            return text
        }
        return LtagTable(version: version, flags: flags, tags: tags)
    }

    /// Tags by index (name records and AAT tables refer to them so), then version and flags.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? LtagTable else { return nil }
        func items(_ t: LtagTable) -> [(String, String)] {
            [("version", String(t.version)), ("flags", String(t.flags))] + t.tags.enumerated().map { ("tag \($0.offset)", $0.element) }
        }
        return Difference.keyed(table: "ltag", items(self), items(other))
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u32(version); w.u32(flags); try w.u32(tags.count, "ltag tag count")
        var pool: [UInt8] = []
        let start = 12 + 4 * tags.count
        for tag in tags {
            let bytes = Array(tag.utf8)
            let offset: Int
            if let found = Self.find(bytes, in: pool) { offset = found } else { offset = pool.count; pool += bytes }
            try w.u16(start + offset, "ltag string offset"); try w.u16(bytes.count, "ltag string length")
        }
        w.append(pool)
        return w.bytes
    }

    static func find(_ needle: [UInt8], in pool: [UInt8]) -> Int? {
        guard !needle.isEmpty else { return 0 }
        guard needle.count <= pool.count else { return nil }
        for i in 0...(pool.count - needle.count) where pool[i] == needle[0] && Array(pool[i..<i + needle.count]) == needle { return i }
        return nil
    }
}
