/// A table read and written from its `Shape` (GDEF, GSUB, GPOS). It is
/// decoded whole on first use; unedited it is saved as the bytes it came from. Members of the
/// top-level record are read and replaced by name; a replacement is checked against the
/// description before it is accepted.
open class StructuredTable: DecodableTable {
    open class var tableTag: Tag { "    " }
    /// The table's description: a `.record` whose first member is the version.
    open class var shape: Shape { .record(Record("", [])) }

    public private(set) var root: StructFields
    public private(set) var isEdited = false

    public required init(root: StructFields) { self.root = root }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        guard case .record(let fields) = try StructureCodec.decode(reader, shape, name: tableTag.trimmed) else {
            throw FontError("\(tableTag) is not described as a record")
        }
        return Self(root: fields)
    }

    public var record: Record { Self.record }

    public static var record: Record {
        guard case .record(let r) = shape else { return Record("", []) }
        return r
    }

    public var tag: Tag { Self.tableTag }

    /// Names of the members present (the version's), in binary order, counts left out.
    public var memberNames: [String] { record.valueMembers.map(\.name).filter { root[$0] != nil } }

    public func member(_ name: String) throws -> Member {
        guard let m = record.valueMembers.first(where: { $0.name == name }) else {
            var message = "\(tag.trimmed) has no member '\(name)'"
            if let near = closestName(to: name, in: record.valueMembers.map(\.name)) { message += " (did you mean '\(near)'?)" }
            throw FontError(message)
        }
        return m
    }

    public func value(_ name: String) throws -> StructValue? {
        _ = try member(name)
        return root[name]
    }

    /// Replaces a member (`.none` removes an offset's subtable). The new value must fit the
    /// description: it is encoded once to check.
    public func set(_ name: String, _ value: StructValue) throws {
        let m = try member(name)
        if let since = m.since, let version = root.values.first?.int, version < since {
            throw FontError("\(tag.trimmed).\(name) needs table version 0x\(String(since, radix: 16)) or later")
        }
        var changed = root
        changed[name] = value
        _ = try Self(root: changed).encode()   // as saving would encode it (GSUB/GPOS may promote lookups)
        guard changed != root else { return }
        root = changed
        isEdited = true
    }

    /// Replaces the whole value (a model operation that has kept it to the description; it is
    /// checked when the table is encoded). Returns whether anything changed.
    func replaceRoot(_ fields: StructFields) -> Bool {
        guard fields != root else { return false }
        root = fields
        isEdited = true
        return true
    }

    public func encode() throws -> [UInt8] {
        try StructureCodec.encode(.record(root), Self.shape, name: tag.trimmed)
    }
}
