#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `Font.save` behaves.
public struct SaveOptions: Sendable {
    /// Allow the output path to be the file the font was opened from.
    public var overwriteInput: Bool
    /// Save even when the validator finds errors the edits introduced (normally refused).
    public var force: Bool
    /// The container to write; nil picks it by the file's extension (.woff, .woff2, else sfnt).
    public var format: OutputFormat?
    /// Brotli settings and transforms when the container is WOFF2.
    public var woff2: WOFF2Options
    /// Write through a symlink at the path (true), or refuse one: for names the tool made up
    /// itself (`check --fix`'s NAME.fixed.ttf, a slice, an instance named by the font).
    public var followSymlinks: Bool
    /// Told how far a long save has got (a WOFF2's Brotli stream), for a progress bar.
    public var progress: SaveProgress?
    public init(
        overwriteInput: Bool = false, force: Bool = false, format: OutputFormat? = nil, woff2: WOFF2Options = WOFF2Options(),
        followSymlinks: Bool = true, progress: SaveProgress? = nil
    ) {
        self.overwriteInput = overwriteInput
        self.force = force
        self.format = format
        self.woff2 = woff2
        self.followSymlinks = followSymlinks
        self.progress = progress
    }
}

/// `done` of `total` units of a save's slow part (the bytes Brotli has taken), on the saving thread.
public typealias SaveProgress = @Sendable (_ done: Int, _ total: Int) -> Void

/// What a save did: which tables were re-encoded, which derived values changed, how much was written.
public struct SaveReport: CustomStringConvertible, Sendable {
    public var path: String?
    public var bytesWritten = 0
    /// "glyf" for a single font, "face 2: hhea" in a collection.
    public var reencodedTables: [String] = []
    /// "head.xMin -1020 → -1000", prefixed with the face in a collection.
    public var recalculated: [String] = []
    /// Table records in all directories, and distinct table blocks written (fewer when faces share).
    public var tableRecords = 0
    public var distinctTables = 0
    /// The web container written, with what it did: "WOFF2, Brotli quality 11; glyf/loca transformed".
    public var container: String?

    public var description: String {
        // (Appended, not joined: the first `joined` of a process costs a conformance scan.)
        var text =
            "wrote \(bytesWritten) bytes\(path.map { " to \($0)" } ?? "") (\(tableRecords) table records, \(distinctTables) distinct tables)"
        text += "\nre-encoded: " + (reencodedTables.isEmpty ? "none" : reencodedTables.joined(separator: ", "))
        text += "\nrecalculated: " + (recalculated.isEmpty ? "none" : recalculated.joined(separator: ", "))
        if let container { text += "\ncontainer: " + container }
        return text
    }
}

/// One block of table data in the output; faces whose tables have identical bytes share a block.
private final class Block {
    let chunks: [ByteChunk]
    let length: Int
    /// Directory checksum (head's is taken with checkSumAdjustment zeroed). Borrowed blocks get
    /// theirs while they are written, so each input byte is read once.
    var checksum: UInt32?
    /// Where the data was in the input, to keep the input's order.
    let order: Int
    var offset = 0

    init(chunks: [ByteChunk], checksum: UInt32?, order: Int) {
        self.chunks = chunks
        self.length = chunks.reduce(0) { $0 + $1.count }
        self.checksum = checksum
        self.order = order
    }
}

/// Everything needed to write the file: the blocks in order and each face's directory entries.
private struct SavePlan {
    var blocks: [Block]
    var directories: [[(tag: Tag, block: Block)]]
    var directoryStarts: [Int]
    var headerSize: Int
    var report: SaveReport
    /// The faces laid out, and whether as a collection (a renderer lays one face of a
    /// collection out on its own, as a standalone sfnt: `Font.standalone(face:)`).
    var faces: [Face]
    var isCollection: Bool
}

extension Font {
    /// Saves every face to `path` atomically (`AtomicFile`: a temporary file in the same folder,
    /// flushed, renamed over the target). Refuses to replace the input unless asked.
    @discardableResult
    public func save(to path: String, options: SaveOptions = SaveOptions()) throws -> SaveReport {
        try write(try makePlan(), to: path, options: options)
    }

    /// Saves one face on its own, as a single TrueType/OpenType font (e.g. out of a collection).
    @discardableResult
    public func save(face: Face, to path: String, options: SaveOptions = SaveOptions()) throws -> SaveReport {
        guard faces.contains(where: { $0 === face }) else { throw FontError("the face is not one of this font's faces", path: path) }
        return try write(try makePlan(only: face), to: path, options: options)
    }

    /// Refuses a file name whose extension promises another format than the one written.
    static func checkExtension(_ path: String, collection: Bool, format: OutputFormat) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if ext == "eot" {
            throw FontError(
                "FontShell writes TrueType/OpenType, WOFF and WOFF2, not EOT: save as .ttf, .otf, .ttc, .woff or .woff2", path: path)
        }
        let named: OutputFormat? = ["woff": .woff, "woff2": .woff2, "ttf": .sfnt, "otf": .sfnt, "ttc": .sfnt, "otc": .sfnt][ext]
        if let named, named != format {
            throw FontError("the file name says \(ext), the format asked for is \(format.rawValue): make them agree", path: path)
        }
        if format == .woff && collection {
            throw FontError(
                "WOFF holds one font, not a collection: save one face (face:save, --face) as .woff, or the collection as .woff2", path: path
            )
        }
        if ["ttc", "otc"].contains(ext) && !collection {
            throw FontError("this is a single font, not a collection: save it as .ttf or .otf", path: path)
        }
        if ["ttf", "otf"].contains(ext) && collection {
            throw FontError("this is a collection: save it as .ttc or .woff2 (or one face with face:save / --face)", path: path)
        }
    }

    private func write(_ planned: SavePlan, to path: String, options: SaveOptions) throws -> SaveReport {
        if let input = self.path, !options.overwriteInput, Font.sameFile(input, path) {
            throw FontError("refusing to overwrite the input file; save elsewhere or allow overwriting explicitly", path: path)
        }
        let format = options.format ?? OutputFormat.from(path: path)
        try Font.checkExtension(path, collection: planned.isCollection, format: format)
        var plan = planned
        plan.report.path = path
        var written = 0
        try AtomicFile.write(to: path, overwrite: options.overwriteInput, followSymlinks: options.followSymlinks) { fd in
            var sink = FileSink(fd: fd)
            if format != .sfnt {
                // The sfnt in memory, then wrapped.
                var sfnt = ArraySink()
                try emit(&plan, into: &sfnt)
                let web = try webFont(sfnt.bytes, format: format, options: options.woff2, progress: options.progress)
                plan.report.container = web.container
                try web.bytes.withUnsafeBytes { try sink.write($0) }
            } else {
                try emit(&plan, into: &sink)
            }
            try sink.flush()
            written = sink.written
            try bytes.checkIntact()   // a source truncated while open would have given zeros
            // An edited font is read back and validated before it replaces anything.
            if !options.force && !plan.report.reencodedTables.isEmpty {
                try refuseNewErrors(
                    in: Font(bytes: FontBytes(mapping: fd, count: written), path: path),
                    reencoded: plan.report.reencodedTables, path: path)
            }
        }
        plan.report.bytesWritten = written
        return plan.report
    }

    /// Throws when the written font has validator errors that the font as opened did not have
    /// (so a font that was already imperfect can still be edited).
    private func refuseNewErrors(in written: Font, reencoded: [String], path: String) throws {
        let cffOutlines = faces.contains { ($0.slots["CFF "]?.decoded as? CFFTable)?.outlinesEdited ?? false }
        let checks = Validator.checksAffected(
            byEditsTo: Set(reencoded.map { String($0.split(separator: " ").last ?? "") }), cffOutlines: cffOutlines)
        let errors = Validator.validate(written, runCharStrings: false, checks: checks).filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        // The font as opened: a fresh view of the same bytes, without this one's edits.
        let original = try Font(bytes: bytes, path: self.path)
        let before = Set(
            Validator.validate(original, runCharStrings: false, checks: checks).filter { $0.severity == .error }.map {
                "\($0.check) \($0.message)"
            })
        let new = errors.filter { !before.contains("\($0.check) \($0.message)") }
        guard let first = new.first else { return }
        throw FontError(
            "not saved: the edited font would not be valid: \(first)\(new.count > 1 ? " (and \(new.count - 1) more)" : ""); fix it, or force the save (force = true, --force)",
            path: path)
    }

    /// An sfnt wrapped as WOFF or WOFF2, and what the container did.
    func webFont(_ sfnt: [UInt8], format: OutputFormat, options: WOFF2Options, progress: SaveProgress? = nil) throws -> (
        bytes: [UInt8], container: String
    ) {
        if format == .woff { return (try WOFF.encode(sfnt, extras: webExtras), "WOFF") }
        let (bytes, notes) = try WOFF2.encode(sfnt, extras: webExtras, options: options, progress: progress)
        return (bytes, "WOFF2, Brotli quality \(options.quality)" + (notes.isEmpty ? "" : "; " + notes.joined(separator: ", ")))
    }

    /// The saved font as bytes in memory (what `save` would write), in any container.
    public func serialized(format: OutputFormat = .sfnt, woff2: WOFF2Options = WOFF2Options()) throws -> (
        bytes: [UInt8], report: SaveReport
    ) {
        var plan = try makePlan()
        if format == .woff && plan.isCollection { throw FontError("WOFF holds one font, not a collection: use WOFF2") }
        var sink = ArraySink()
        try emit(&plan, into: &sink)
        try bytes.checkIntact()
        var out = sink.bytes
        if format != .sfnt {
            let web = try webFont(out, format: format, options: woff2)
            out = web.bytes
            plan.report.container = web.container
        }
        plan.report.bytesWritten = out.count
        return (out, plan.report)
    }

    /// Lays the font out in memory as `serialized()` does, straight into storage of its exact
    /// size (an instance is laid out once, then read and saved from these bytes).
    func laidOut() throws -> FontBytes {
        var plan = try makePlan()
        let end = plan.blocks.last.map { $0.offset + $0.length } ?? plan.headerSize
        let laid = try FontBytes(count: (end + 3) & ~3) { storage in
            var sink = BufferSink(storage: storage)
            try emit(&plan, into: &sink)
            guard sink.position == storage.count else { throw FontError("laid out \(sink.position) bytes of \(storage.count) planned") }
        }
        try bytes.checkIntact()
        return laid
    }

    func standaloneView(of face: Face) throws -> StandaloneFace {
        let plan = try makePlan(only: face, forRendering: true)
        let tables = plan.directories[0].map { (tag: $0.tag, offset: $0.block.offset, chunks: $0.block.chunks) }
        return StandaloneFace(header: try directoryBytes(plan), tables: tables, source: bytes)
    }

    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    // MARK: planning

    /// The edited structured tables (GSUB, GPOS, GDEF … of every face: a caps edit of a CJK
    /// collection re-encodes fifteen) encoded on all cores at once, by slot. Each encodes from
    /// its own decoded tree and touches nothing else; an error is kept for its table's turn.
    static func encodeStructuredTables(_ faces: [Face]) -> [ObjectIdentifier: Result<[ByteChunk], Error>] {
        var seen = Set<ObjectIdentifier>()
        var work: [(id: ObjectIdentifier, table: StructuredTable)] = []
        for face in faces {
            for slot in face.slots.values where slot.isEdited && slot.replacement == nil {
                guard let table = slot.decoded as? StructuredTable, seen.insert(ObjectIdentifier(slot)).inserted else { continue }
                work.append((ObjectIdentifier(slot), table))
            }
        }
        guard work.count > 1 else { return [:] }
        let results =
            (try? ParallelWork.map(work.count, minimumPerChunk: 1) { range in
                range.map { k in Result { try work[k].table.encodeChunks() } }
            }) ?? []
        var byID: [ObjectIdentifier: Result<[ByteChunk], Error>] = [:]
        for (item, result) in zip(work, results) { byID[item.id] = result }
        return byID
    }

    /// Recalculates derived values, encodes edited tables, shares identical blocks and lays out
    /// every directory before any table data, tables 4-byte aligned.
    private func makePlan(only single: Face? = nil, forRendering: Bool = false) throws -> SavePlan {
        var report = SaveReport()
        let faces = single.map { [$0] } ?? self.faces
        let isCollection = single == nil && self.isCollection
        func label(_ face: Face, _ text: String) -> String { isCollection ? "face \(face.index): \(text)" : text }
        for face in faces {
            report.recalculated += try face.recalculateDerived(forRendering: forRendering).map { label(face, $0) }
        }
        let preEncoded = Self.encodeStructuredTables(faces)

        // (Keys are of the standard library's types: a key type of our own, or Range, costs each
        // process a scan of every conformance record when its dictionary is first made.)
        var blockForSlot: [ObjectIdentifier: Block] = [:]
        // Unedited tables by where they start in the file (shared when the length matches too).
        var blockForSource: [Int: Block] = [:]
        // Edited tables are shared again when their bytes match: same length and checksum (the
        // key packs both), then compared.
        var blocksByDigest: [Int: [(bytes: [UInt8], block: Block)]] = [:]
        var blocks: [Block] = []
        var directories: [[(tag: Tag, block: Block)]] = []
        var reencodedSlots = Set<ObjectIdentifier>()

        for face in faces {
            var entries: [(tag: Tag, block: Block)] = []
            for tag in face.tags {
                guard let slot = face.slots[tag] else { continue }
                let id = ObjectIdentifier(slot)
                if let b = blockForSlot[id] { entries.append((tag, b)); continue }
                let order = slot.source?.lowerBound ?? Int.max
                let block: Block
                if !slot.isEdited, let source = slot.source, tag != "head" {
                    if let shared = blockForSource[source.lowerBound], shared.length == source.count {
                        block = shared
                    } else {
                        block = Block(
                            chunks: [.borrowed(UnsafeRawBufferPointer(rebasing: bytes.buffer[source]))], checksum: nil, order: order)
                        if blockForSource[source.lowerBound] == nil { blockForSource[source.lowerBound] = block }
                        blocks.append(block)
                    }
                } else {
                    var chunks: [ByteChunk]
                    if let replacement = slot.replacement {
                        chunks = [.owned(replacement)]
                    } else if let decoded = slot.decoded, slot.isEdited {
                        chunks = try face.context(tag) { try preEncoded[id]?.get() ?? decoded.encodeChunks() }
                        if !reencodedSlots.contains(id) {
                            reencodedSlots.insert(id);
                            report.reencodedTables.append(label(face, tag.description + (decoded.encodingSummary.map { " (\($0))" } ?? "")))
                        }
                    } else if let source = slot.source {
                        chunks = [.owned(bytes.copy(source))]
                    } else {
                        chunks = [.owned([])]
                    }
                    let single: [UInt8]? = chunks.count == 1 ? { if case .owned(let a) = chunks[0] { a } else { nil } }() : nil
                    guard let single else {
                        // Large encodings that borrow from the file (glyf, CFF) are checksummed while written.
                        block = Block(chunks: chunks, checksum: nil, order: order)
                        blocks.append(block)
                        blockForSlot[id] = block
                        entries.append((tag, block))
                        continue
                    }
                    var checksum = sfntChecksum(single)
                    if tag == "head", single.count >= 12 {
                        // The directory checksum of head is taken with checkSumAdjustment zeroed.
                        var zeroed = single
                        for i in 8..<12 { zeroed[i] = 0 }
                        checksum = sfntChecksum(zeroed)
                    }
                    let digest = single.count &<< 32 | Int(checksum)
                    if tag != "head", let shared = blocksByDigest[digest]?.first(where: { $0.bytes == single })?.block {
                        block = shared
                    } else {
                        block = Block(chunks: chunks, checksum: checksum, order: order)
                        if tag != "head" { blocksByDigest[digest, default: []].append((single, block)) }
                        blocks.append(block)
                    }
                }
                blockForSlot[id] = block
                entries.append((tag, block))
            }
            directories.append(entries)
        }

        // Layout: header and every directory first, then blocks in input order, 4-byte aligned.
        let v2 = (collectionVersion ?? 0) == 0x0002_0000
        var position = isCollection ? 12 + 4 * faces.count + (v2 ? 12 : 0) : 0
        let directoryStarts = directories.map { d -> Int in
            defer { position += 12 + 16 * d.count }
            return position
        }
        let headerSize = position
        blocks.sort { $0.order < $1.order }
        for b in blocks {
            position = (position + 3) & ~3
            b.offset = position
            position += b.length
        }
        report.tableRecords = directories.reduce(0) { $0 + $1.count }
        report.distinctTables = blocks.count
        return SavePlan(
            blocks: blocks, directories: directories, directoryStarts: directoryStarts, headerSize: headerSize,
            report: report, faces: faces, isCollection: isCollection)
    }

    /// The collection header and every face's table directory, once all checksums are known.
    private func directoryBytes(_ plan: SavePlan) throws -> [UInt8] {
        var w = BinaryWriter(capacity: plan.headerSize)
        if plan.isCollection {
            w.u32(0x7474_6366); w.u32(collectionVersion ?? 0x0001_0000); try w.u32(plan.faces.count, "number of faces")
            for s in plan.directoryStarts { try w.u32(s, "table directory offset") }
            if collectionVersion == 0x0002_0000 { w.u32(0); w.u32(0); w.u32(0) }   // no DSIG: a signature is invalid after a save
        }
        for (face, entries) in zip(plan.faces, plan.directories) {
            let n = entries.count
            guard n > 0 else {
                throw FontError("face \(face.index) has no tables; a font needs at least head, maxp, cmap and its outlines")
            }
            var selector = 0
            while (1 << (selector + 1)) <= n { selector += 1 }
            let searchRange = (1 << selector) * 16
            w.u32(face.sfntVersion); try w.u16(n, "number of tables"); try w.u16(searchRange, "searchRange")
            w.u16(UInt16(selector)); try w.u16(n * 16 - searchRange, "rangeShift")
            for e in entries.sorted(by: { $0.tag < $1.tag }) {
                w.tag(e.tag); w.u32(e.block.checksum ?? 0)
                try w.u32(e.block.offset, "offset of table '\(e.tag)' (a font file is limited to 4 GB)")
                try w.u32(e.block.length, "length of table '\(e.tag)'")
            }
        }
        return w.bytes
    }

    /// Writes the table data in one pass (checksumming borrowed bytes as they go by and letting
    /// their pages go), then the directories at the front, then a single font's checkSumAdjustment.
    private func emit<S: ByteSink>(_ plan: inout SavePlan, into sink: inout S) throws {
        try sink.write(zeros: plan.headerSize)
        var position = plan.headerSize
        for b in plan.blocks {
            if b.offset > position { try sink.write(zeros: b.offset - position) }
            if b.checksum == nil { b.checksum = sfntChecksum(b.chunks) }   // pages fault in once, here
            for c in b.chunks {
                try c.withBytes { try sink.write($0) }
                if case .borrowed(let region) = c { try sink.flush(); bytes.dropPages(region) }
            }
            position = b.offset + b.length
        }
        if position % 4 != 0 { try sink.write(zeros: 4 - position % 4) }
        let header = try directoryBytes(plan)
        try header.withUnsafeBytes { try sink.write($0, at: 0) }

        // A single font's checkSumAdjustment makes the whole file sum to 0xB1B0AFBA. In a
        // collection the spec says the field is invalidated by the file structure and must be
        // ignored, so it is left as it is (and faces keep sharing equal head tables).
        guard !plan.isCollection, let head = plan.directories.first?.first(where: { $0.tag == "head" })?.block,
            case .owned(let headBytes) = head.chunks[0], headBytes.count >= 12
        else { return }
        let total = plan.directories[0].reduce(sfntChecksum(header)) { $0 &+ ($1.block.checksum ?? 0) }
        let adjustment = 0xB1B0_AFBA &- total
        let old = UInt32(headBytes[8]) << 24 | UInt32(headBytes[9]) << 16 | UInt32(headBytes[10]) << 8 | UInt32(headBytes[11])
        if old != adjustment {
            let value: [UInt8] = [
                UInt8(adjustment >> 24), UInt8((adjustment >> 16) & 0xFF), UInt8((adjustment >> 8) & 0xFF), UInt8(adjustment & 0xFF),
            ]
            try value.withUnsafeBytes { try sink.write($0, at: head.offset + HeadTable.checkSumAdjustmentOffset) }
            plan.report.recalculated.append("head.checkSumAdjustment \(old) → \(adjustment)")
        }
    }
}

protocol ByteSink {
    mutating func write(_ buffer: UnsafeRawBufferPointer) throws
    /// Overwrites bytes already written (the directories, checkSumAdjustment).
    mutating func write(_ buffer: UnsafeRawBufferPointer, at offset: Int) throws
    mutating func flush() throws
}

extension ByteSink {
    mutating func write(zeros count: Int) throws {
        let zeros = [UInt8](repeating: 0, count: count)
        try zeros.withUnsafeBytes { try write($0) }
    }
}

/// Writes into storage of a size known in advance (`Font.laidOut`).
struct BufferSink: ByteSink {
    let storage: UnsafeMutableRawBufferPointer
    var position = 0
    mutating func write(_ buffer: UnsafeRawBufferPointer) throws {
        try write(buffer, at: position)
        position += buffer.count
    }
    func write(_ buffer: UnsafeRawBufferPointer, at offset: Int) throws {
        guard offset >= 0, buffer.count <= storage.count - offset else {
            throw FontError("layout overran its planned \(storage.count) bytes at offset \(offset)")
        }
        if let source = buffer.baseAddress, let target = storage.baseAddress {
            (target + offset).copyMemory(from: source, byteCount: buffer.count)
        }
    }
    func flush() {}
}

struct ArraySink: ByteSink {
    var bytes: [UInt8] = []
    mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }
    mutating func write(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        bytes.replaceSubrange(offset..<offset + buffer.count, with: buffer)
    }
    mutating func flush() {}
}

/// Buffers small writes; large borrowed chunks go straight from the mapped input to the file.
struct FileSink: ByteSink {
    let fd: Int32
    var buffer: [UInt8] = []
    var written = 0

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ data: UnsafeRawBufferPointer) throws {
        written += data.count
        if buffer.count + data.count <= 1 << 16 { buffer.append(contentsOf: data); return }
        try flush()
        if data.count >= 1 << 15 { try FileSink.writeAll(fd, data, at: nil) } else { buffer.append(contentsOf: data) }
    }

    mutating func write(_ data: UnsafeRawBufferPointer, at offset: Int) throws {
        try flush()
        try FileSink.writeAll(fd, data, at: offset)
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try FileSink.writeAll(fd, $0, at: nil) }
        buffer.removeAll(keepingCapacity: true)
    }

    static func writeAll(_ fd: Int32, _ data: UnsafeRawBufferPointer, at offset: Int?) throws {
        var done = 0
        while done < data.count {
            guard let base = data.baseAddress else { return }
            let n =
                offset.map { pwrite(fd, base + done, data.count - done, off_t($0 + done)) }
                ?? systemWrite(fd, base + done, data.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw FontError("cannot write: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
