/// `meta`, metadata by tag: `dlng` (the scripts and languages the font is designed for) and
/// `slng` (those it supports) as comma-separated ScriptLangTags in UTF-8; other tags as bytes.
public final class MetaTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "meta"
    /// The tags whose data is text.
    public static let textTags: Set<Tag> = ["dlng", "slng"]

    public let version: UInt32
    public let flags: UInt32
    /// In table order.
    public let entries: [(tag: Tag, data: [UInt8])]
    public let isEdited = false

    public static func == (a: MetaTable, b: MetaTable) -> Bool {
        a.version == b.version && a.flags == b.flags && a.entries.elementsEqual(b.entries, by: { $0.tag == $1.tag && $0.data == $1.data })
    }

    public init(version: UInt32 = 1, flags: UInt32 = 0, entries: [(tag: Tag, data: [UInt8])]) {
        self.version = version; self.flags = flags; self.entries = entries
    }

    /// A text entry's text (nil for other tags, or when it is not UTF-8).
    public func text(_ tag: Tag) -> String? {
        guard Self.textTags.contains(tag), let data = entries.first(where: { $0.tag == tag })?.data else { return nil }
        return String(validating: data, as: UTF8.self)
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> MetaTable {
        var r = reader
        let version = try r.u32(), flags = try r.u32()
        try r.skip(4)   // dataOffset: each map says where its data is
        let count = Int(try r.u32())
        guard version == 1 else { throw r.error("meta version \(version) is not 1", at: 0) }
        guard count <= r.remaining / 12 else { throw r.error("meta claims \(count) data maps, more than the table holds", at: 12) }
        let entries = try (0..<count).map { k -> (tag: Tag, data: [UInt8]) in
            let tag = try r.tag(), offset = Int(try r.u32()), length = Int(try r.u32())
            let data = Array(try reader.sub(offset, length).bytes)
            if textTags.contains(tag), String(validating: data, as: UTF8.self) == nil {
                throw reader.error("meta '\(tag)' (map \(k)) is not UTF-8 text", at: offset)
            }
            return (tag, data)
        }
        return MetaTable(version: version, flags: flags, entries: entries)
    }

    /// As fontTools writes it: maps sorted by tag, data in the same order after them.
    public func encode() throws -> [UInt8] {
        let sorted = entries.sorted { $0.tag.rawValue < $1.tag.rawValue }
        var w = BinaryWriter()
        var at = 16 + 12 * sorted.count
        w.u32(version); w.u32(flags); try w.u32(at, "meta data offset"); try w.u32(sorted.count, "meta map count")
        for e in sorted { w.tag(e.tag); try w.u32(at, "meta data offset"); try w.u32(e.data.count, "meta data length"); at += e.data.count }
        for e in sorted { w.append(e.data) }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? MetaTable else { return nil }
        func items(_ t: MetaTable) -> [(String, String)] {
            t.entries.map { e in
                (
                    e.tag.description,
                    t.text(e.tag) ?? "\(e.data.count) bytes: "
                        + e.data.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                )
            }
        }
        return Difference.keyed(table: "meta", items(self), items(other))
    }
}
