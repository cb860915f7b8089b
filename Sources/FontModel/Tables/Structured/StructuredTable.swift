/// A table read and written from its `Shape` (GDEF, GSUB, GPOS). It is decoded on first use,
/// except its lazy members (a lookup's subtables), each decoded when first used: `lazyRoot` is
/// the value as far as it is decoded, `root` the whole value (decoding what is left). Unedited,
/// it is saved as the bytes it came from. Members of the top-level record are read and replaced
/// by name; a replacement is checked against the description before it is accepted.
open class StructuredTable: DecodableTable {
    open class var tableTag: Tag { "    " }
    /// The table's description: a `.record` whose first member is the version.
    open class var shape: Shape { .record(Record("", [])) }
    /// Whether decoding needs the face's glyph count (AAT lookups of format 0); others leave maxp alone.
    open class var readsGlyphCount: Bool { false }

    /// The value with lazy subtables left as `.lazy` where nothing asked for them yet.
    public private(set) var lazyRoot: StructFields
    private var isResolved: Bool
    public private(set) var isEdited = false
    /// Counts changes, so what is derived from the table (`Face.kerningPairs`) knows it is stale.
    public private(set) var editCount = 0

    public required init(root: StructFields) {
        lazyRoot = root
        isResolved = !StructValue.record(root).containsLazy
    }

    /// The whole value: lazy subtables still undecoded are decoded now (an error names the
    /// subtable and the offset, as does a subtable kept as bytes when the table was read).
    public var root: StructFields {
        get throws {
            try requireIntact()
            if !isResolved {
                lazyRoot = try lazyRoot.resolvedDeep()
                isResolved = true
            }
            return lazyRoot
        }
    }

    /// The whole value with subtables that do not decode kept as bytes (`.opaque`): what a dump
    /// writes and an edited table saves, so damage nobody touched is carried over unchanged.
    public var rootKeepingDamage: StructFields {
        get throws { isResolved ? lazyRoot : try lazyRoot.resolvedDeep(keepingDamage: true) }
    }

    /// Checks what the description cannot say before decoding (STAT's record size); throws to refuse.
    open class func checkBeforeDecoding(_ reader: BinaryReader) throws {}

    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        try checkBeforeDecoding(reader)
        let (value, damaged) = try StructureCodec.decodeNotingDamage(
            reader, shape, name: tableTag.trimmed, lazy: true, keepingDamage: true,
            glyphCount: readsGlyphCount ? try? face.glyphCount : nil)
        guard case .record(let fields) = value else { throw FontError("\(tableTag) is not described as a record") }
        let table = Self(root: fields)
        table.original = fields
        if damaged { table.damage = value.opaqueParts(shape, path: "") }
        return table
    }

    /// The subtables read so far that did not decode and are kept as bytes, by path
    /// ("FeatureList.FeatureRecord[3].Feature.FeatureParams") with the reason. Subtables decoded
    /// when first used (a lookup's) are not listed: their errors come when they are used.
    public private(set) var damage: [(path: String, part: OpaqueSubtable)] = []

    /// Throws the first damage inside the parts a verb needs (paths starting with one of
    /// `parts`, or holding one; all parts when nil), unless its path names a `tolerated` member:
    /// an error naming the table and the path.
    public func requireIntact(_ parts: [String]? = nil, tolerating tolerated: [String] = []) throws {
        // "Lookup[1]" holds "Lookup[1].SubTable[0]", not "Lookup[10]".
        func holds(_ outer: String, _ inner: String) -> Bool {
            inner == outer || inner.hasPrefix(outer + ".") || inner.hasPrefix(outer + "[")
        }
        guard
            let d = damage.first(where: { d in
                (parts?.contains { holds($0, d.path) || holds(d.path, $0) } ?? true) && !tolerated.contains { d.path.contains($0) }
            })
        else { return }
        throw FontError("\(tag.trimmed).\(d.path): \(d.part.reason)", table: tag.description, offset: d.part.offset)
    }

    /// The value as decoded (its lazy subtables are shared with `lazyRoot`, so comparing the
    /// two decodes nothing twice), for the save report.
    private var original: StructFields?
    /// Set by an encoding that had to move lookups behind extensions, or split subtables.
    var promotedLookups = false
    var splitSubtables: [String] = []

    /// GSUB/GPOS: which lookups differ from the ones read ("lookups 1, 3 changed"), and whether
    /// they moved behind extensions to fit.
    public var encodingSummary: String? {
        guard let original, let before = original["LookupList"]?.fields?["Lookup"], case .list(let old) = before,
            case .list(let new)? = lazyRoot["LookupList"]?.fields?["Lookup"]
        else { return nil }
        var parts: [String] = []
        let changed = new.indices.filter { $0 >= old.count || old[$0] != new[$0] }
        if !changed.isEmpty {
            parts.append("lookup\(changed.count == 1 ? "" : "s") \(changed.map(String.init).joined(separator: ", ")) changed")
        }
        if new.count < old.count { parts.append("\(old.count - new.count) lookups removed") }
        if promotedLookups { parts.append("lookups moved behind extensions: offsets overflowed") }
        if !splitSubtables.isEmpty { parts.append("split to fit: " + splitSubtables.joined(separator: ", ")) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    public var record: Record { Self.record }

    public static var record: Record {
        guard case .record(let r) = shape else { return Record("", []) }
        return r
    }

    public var tag: Tag { Self.tableTag }

    /// Names of the members present (the version's), in binary order, counts left out.
    public var memberNames: [String] { record.valueMembers.map(\.name).filter { lazyRoot[$0] != nil } }

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
        return try lazyRoot[name]?.resolvedDeep()
    }

    /// Replaces a member (`.none` removes an offset's subtable). The new value must fit the
    /// description: it is encoded once to check.
    public func set(_ name: String, _ value: StructValue) throws {
        let m = try member(name)
        if let since = m.since, let version = lazyRoot.values.first?.int, version < since {
            throw FontError("\(tag.trimmed).\(name) needs table version 0x\(String(since, radix: 16)) or later")
        }
        var changed = try root
        changed[name] = value
        _ = try Self(root: changed).encode()   // as saving would encode it (GSUB/GPOS may promote lookups)
        guard changed != lazyRoot else { return }
        lazyRoot = changed
        isResolved = !StructValue.record(changed).containsLazy
        isEdited = true
        editCount += 1
    }

    /// Replaces the whole value (a model operation that has kept it to the description; it is
    /// checked when the table is encoded). Returns whether anything changed.
    func replaceRoot(_ fields: StructFields) -> Bool {
        guard fields != lazyRoot else { return false }
        lazyRoot = fields
        isResolved = !StructValue.record(fields).containsLazy
        isEdited = true
        editCount += 1
        return true
    }

    public func encode() throws -> [UInt8] {
        try StructureCodec.encode(.record(try rootKeepingDamage), Self.shape, name: tag.trimmed)
    }
}
