/// One sfnt font: a table directory and its tables, decoded on first use.
public final class Face {
    public static let cffVersion: UInt32 = 0x4F54_544F   // 'OTTO'

    /// 0-based position in the file.
    public let index: Int
    public let sfntVersion: UInt32
    let bytes: FontBytes
    let path: String?
    var slots: [Tag: TableSlot]
    /// The file this face belongs to (weak to avoid a cycle: keep the Font while you use its faces).
    public internal(set) weak var font: Font?

    // Caches derived from tables, dropped when those tables change.
    var cachedGlyphNames: [String]?
    var cachedNameToID: [String: Int]?
    /// The kerning last read, and what it was read from (`Face.kerningPairs`).
    var cachedKerning: (key: KerningSource, pairs: KerningPairs)?

    init(
        offset: Int, index: Int, bytes: FontBytes, path: String?,
        sharedSlots: inout [Int: TableSlot], claimed: inout [TableClaim]
    ) throws {
        self.index = index
        self.bytes = bytes
        self.path = path
        let fileSize = bytes.count
        guard offset >= 0, offset <= fileSize else {
            throw FontError("offset \(offset) is past the end of the data (\(fileSize) bytes)", offset: min(max(offset, 0), fileSize))
        }
        var header = bytes.reader(offset..<min(fileSize, offset + 12))
        sfntVersion = try header.u32()
        guard sfntVersion == 0x0001_0000 || sfntVersion == Face.cffVersion || sfntVersion == 0x7472_7565 else {
            throw FontError("unknown sfnt version 0x\(String(sfntVersion, radix: 16))", offset: offset)
        }
        let numTables = Int(try header.u16())
        guard numTables <= (fileSize - offset - 12) / 16 else {
            throw FontError("table directory claims \(numTables) tables, more than the file can hold", offset: offset + 4)
        }
        var r = bytes.reader(offset + 12..<offset + 12 + 16 * numTables)
        var slots = [Tag: TableSlot](minimumCapacity: numTables)
        var checksums = [Int: UInt32](minimumCapacity: numTables)
        for _ in 0..<numTables {
            let recordOffset = r.base + r.offset
            let tag = try r.tag()
            let checksum = try r.u32()   // recomputed on save; kept for `info`
            let tableOffset = Int(try r.u32())
            let length = Int(try r.u32())
            guard tableOffset <= fileSize, length <= fileSize - tableOffset else {
                throw FontError(
                    "table data (\(length) bytes at \(tableOffset)) runs past the end of the file (\(fileSize) bytes)",
                    table: tag.description, offset: recordOffset)
            }
            guard slots[tag] == nil else {
                throw FontError("table is listed twice in the directory", table: tag.description, offset: recordOffset)
            }
            let range = tableOffset..<tableOffset + length
            claimed.append(TableClaim(range: range, tag: tag, face: index))
            checksums[tableOffset] = checksum
            if Font.sharedEditTags.contains(tag) {
                if let shared = sharedSlots[tableOffset], shared.tag == tag, shared.source == range {
                    slots[tag] = shared
                } else {
                    let slot = TableSlot(tag: tag, source: range)
                    sharedSlots[tableOffset] = slot
                    slots[tag] = slot
                }
            } else {
                slots[tag] = TableSlot(tag: tag, source: range)
            }
        }
        self.slots = slots
        directoryChecksums = checksums
    }
    let directoryChecksums: [Int: UInt32]

    public var format: FontFormat { sfntVersion == Face.cffVersion ? .cff : .trueType }

    /// Tags of the tables present, sorted.
    public var tags: [Tag] { slots.keys.sorted() }

    public func has(_ tag: Tag) -> Bool { slots[tag] != nil }

    /// True when any table of this face was edited.
    public var isEdited: Bool { slots.values.contains { $0.isEdited } }

    /// The faces of the file sharing this face's table `tag` (including this one).
    public func facesSharing(_ tag: Tag) -> [Int] {
        guard let key = sharingKey(tag), let font else { return [index] }
        return font.faces.filter { $0.sharingKey(tag) == key }.map(\.index)
    }

    /// What `facesSharing` compares: one slot object, or the same unedited bytes in the file.
    enum SharingKey: Hashable {
        case slot(ObjectIdentifier)
        case source(Tag, Int, Int)
    }

    func sharingKey(_ tag: Tag) -> SharingKey? {
        guard let slot = slots[tag] else { return nil }
        if let source = slot.source, !slot.isEdited { return .source(tag, source.lowerBound, source.upperBound) }
        return .slot(ObjectIdentifier(slot))
    }

    // MARK: raw bytes

    /// The table's bytes as they would be saved now (re-encoded if edited).
    public func rawTable(_ tag: Tag) throws -> [UInt8]? {
        guard let slot = slots[tag] else { return nil }
        if let replacement = slot.replacement { return replacement }
        if let decoded = slot.decoded, slot.isEdited { return try context(tag) { try decoded.encode() } }
        guard let source = slot.source else { return [] }
        return bytes.copy(source)
    }

    /// Length of the table as stored in the file (or as replaced).
    public func storedLength(_ tag: Tag) -> Int? {
        guard let slot = slots[tag] else { return nil }
        return slot.replacement?.count ?? slot.source?.count
    }

    /// Replaces a table with raw bytes, for this face only. The decoded object, if any, is dropped.
    public func setRawTable(_ tag: Tag, _ data: [UInt8]) {
        let slot = TableSlot(tag: tag, source: nil)
        slot.replacement = data
        slots[tag] = slot
        invalidateCaches()
    }

    /// Asks for a decoded table to be re-encoded on save even if none of its values changed.
    public func reencode(_ tag: Tag) {
        slots[tag]?.reencode = true
    }

    /// Other faces of the collection that use this face's glyph data (outlines, metrics,
    /// variations): a glyph edit through this face changes them too.
    public var facesSharingGlyphData: [Int] {
        guard let font else { return [] }
        return font.faces.filter { other in Font.sharedEditTags.contains { sharesSlot($0, with: other) } }.map(\.index)
    }

    /// Whether `other` (another face) holds this face's very slot for `tag`: one object, so an
    /// edit through either face is seen by both.
    private func sharesSlot(_ tag: Tag, with other: Face) -> Bool {
        guard other !== self, let slot = slots[tag] else { return false }
        return other.slots[tag] === slot
    }

    /// Gives this face its own copy of its glyph-data tables (`Font.sharedEditTags`: glyf and
    /// loca go together), so glyph edits through it leave the other faces as they are. Edits
    /// already made are carried into the copy. Returns the tags unshared.
    @discardableResult
    public func unshareGlyphData() throws -> [Tag] {
        var unshared: [Tag] = []
        for tag in Font.sharedEditTags.sorted() {
            guard let slot = slots[tag], font?.faces.contains(where: { sharesSlot(tag, with: $0) }) ?? false else { continue }
            let copy: TableSlot
            // loca follows glyf: once glyf is edited its offsets must be re-encoded with it.
            let glyfEdited = tag == "loca" && (slots["glyf"]?.isEdited ?? false)
            if slot.isEdited || glyfEdited {
                copy = TableSlot(tag: tag, source: nil)
                copy.replacement = glyfEdited ? try required(LocaTable.self).encode() : try rawTable(tag)
            } else {
                copy = TableSlot(tag: tag, source: slot.source)
            }
            unshared.append(tag)
            slots[tag] = copy
        }
        invalidateCaches()
        return unshared
    }

    /// Removes a table from this face.
    public func removeTable(_ tag: Tag) {
        slots[tag] = nil
        invalidateCaches()
    }

    /// A reader over the table's current bytes (file bytes, or its replacement).
    func reader(for tag: Tag) throws -> BinaryReader? {
        guard let slot = slots[tag] else { return nil }
        if let owned = slot.replacementBytes { return BinaryReader(owned.buffer) }
        guard let source = slot.source else { return BinaryReader(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return bytes.reader(source)
    }

    // MARK: typed tables

    /// The decoded table, or nil when the face has none. Decodes on first use.
    public func table<T: DecodableTable>(_ type: T.Type) throws -> T? {
        let tag = T.tableTag
        guard let slot = slots[tag] else { return nil }
        if let decoded = slot.decoded {
            // Fast path for the hot case (scripts reading a field per glyph): same type, no cast.
            if ObjectIdentifier(Swift.type(of: decoded)) == ObjectIdentifier(T.self) { return unsafeDowncast(decoded, to: T.self) }
            guard let typed = decoded as? T else {
                throw FontError(
                    "table was decoded as \(Swift.type(of: decoded)), not \(T.self)", path: path, face: faceLabel, table: tag.description)
            }
            return typed
        }
        guard let reader = try reader(for: tag) else { return nil }
        let table = try context(tag) { try T.decode(reader, face: self) }
        table.keepSource(slot.replacementBytes ?? bytes)
        slot.decoded = table
        return table
    }

    /// The decoded table, or a clear error when the face lacks it.
    public func required<T: DecodableTable>(_ type: T.Type) throws -> T {
        guard let t = try table(type) else {
            throw FontError("the face has no '\(T.tableTag)' table", path: path, face: faceLabel)
        }
        return t
    }

    public var head: HeadTable { get throws { try required(HeadTable.self) } }
    public var hhea: HheaTable { get throws { try required(HheaTable.self) } }
    public var maxp: MaxpTable { get throws { try required(MaxpTable.self) } }
    public var vhea: VheaTable? { get throws { try table(VheaTable.self) } }
    public var os2: OS2Table? { get throws { try table(OS2Table.self) } }
    public var post: PostTable? { get throws { try table(PostTable.self) } }
    public var name: NameTable { get throws { try required(NameTable.self) } }
    public var cmap: CmapTable? { get throws { try table(CmapTable.self) } }
    public var hmtx: HmtxTable { get throws { try required(HmtxTable.self) } }
    public var vmtx: VmtxTable? { get throws { try table(VmtxTable.self) } }
    public var kern: KernTable? { get throws { try table(KernTable.self) } }
    public var glyf: GlyfTable? { get throws { try table(GlyfTable.self) } }
    public var cff: CFFTable? { get throws { try table(CFFTable.self) } }
    public var cff2: CFF2Table? { get throws { try table(CFF2Table.self) } }
    public var gvar: GvarTable? { get throws { try table(GvarTable.self) } }
    public var gdef: GDEFTable? { get throws { try table(GDEFTable.self) } }

    /// The table and field named by a path such as "hhea.ascender" or "OS/2.usWinAscent" (the
    /// field itself is checked when it is read or set).
    public func field(path: String) throws -> (table: FieldTable, name: String) {
        guard let dot = path.lastIndex(of: ".") else { throw FontError("expected TABLE.FIELD (e.g. hhea.ascender), got '\(path)'") }
        let tagText = String(path[..<dot])
        guard let tag = Tag(string: tagText), let table = try fieldTable(tag) else {
            let known = TableRegistry.fieldTableTags.map(\.trimmed).joined(separator: ", ")
            throw FontError("'\(tagText)' is not a table with fields in this face (\(known))")
        }
        return (table, String(path[path.index(after: dot)...]))
    }

    /// Any registered table by tag, decoded on first use; nil when the face lacks it or FontShell
    /// keeps that tag as bytes.
    public func decodedTable(_ tag: Tag) throws -> FontTable? {
        guard let type = TableRegistry.type(for: tag) else { return nil }
        return try table(type)
    }

    /// A fixed-layout table by tag (head, hhea, vhea, maxp, OS/2, post), for access by field name.
    public func fieldTable(_ tag: Tag) throws -> FieldTable? {
        guard TableRegistry.fieldTableTags.contains(tag) else { return nil }
        return try decodedTable(tag) as? FieldTable
    }

    /// A hand-written table with a description (HVAR …) read through it: its record and value;
    /// nil when the face lacks it, the tag has no description, or these bytes are beyond it.
    public func describedView(_ tag: Tag) throws -> (record: Record, fields: StructFields)? {
        guard let type = TableRegistry.type(for: tag)?.shapeDescribed, case .record(let record) = type.shape,
            let bytes = try rawTable(tag), bytes.withUnsafeBytes({ type.isDescribable(BinaryReader($0)) })
        else { return nil }
        let value = try context(tag) {
            try bytes.withUnsafeBytes { try StructureCodec.decode(BinaryReader($0), type.shape, name: tag.trimmed, lazy: false) }
        }
        guard case .record(let fields) = value else { return nil }
        return (record, fields)
    }

    /// A structured table by tag (GDEF …), for access by member.
    public func structuredTable(_ tag: Tag) throws -> StructuredTable? {
        guard TableRegistry.structuredTags.contains(tag) else { return nil }
        return try decodedTable(tag) as? StructuredTable
    }

    /// maxp's glyph count; without a maxp (test fragments, broken fonts) the CFF's or CFF2's
    /// charstring count, as fontTools takes it.
    public var glyphCount: Int {
        get throws {
            if has("maxp") { return try maxp.numGlyphs }
            if let cff = try cff { return cff.glyphCount }
            if let cff2 = try cff2 { return cff2.glyphCount }
            return try maxp.numGlyphs   // the error naming the missing maxp
        }
    }

    // MARK: names

    public var postScriptName: String? { get throws { try name.string(6) } }
    public var familyName: String? { get throws { try name.string(16) ?? name.string(1) } }
    public var fullName: String? { get throws { try name.string(4) } }

    // MARK: errors

    /// The face index for messages: only collections number their faces.
    var faceLabel: Int? { (font?.isCollection ?? false) ? index : nil }

    /// Runs `body`, naming this face and table in a FontError it throws. The labels are made
    /// only on failure: hot loops (a glyph at a time) call this per item.
    func context<T>(_ tag: Tag, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FontError {
            throw error.adding(path: path, face: faceLabel, table: tag.description)
        }
    }

    func invalidateCaches() {
        cachedGlyphNames = nil
        cachedNameToID = nil
    }
}

extension Face {
    /// The checksum recorded in the input's table directory.
    public func storedChecksum(_ tag: Tag) -> UInt32? {
        guard let source = slots[tag]?.source else { return nil }
        return directoryChecksums[source.lowerBound]
    }
}

extension Face {
    /// Tags of the tables decoded so far (to check that lazy paths stay lazy).
    public var decodedTags: [Tag] { slots.filter { $0.value.decoded != nil }.map(\.key).sorted() }
}
