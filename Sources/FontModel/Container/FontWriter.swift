#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `Font.save` behaves.
public struct SaveOptions: Sendable {
    /// Allow the output path to be the file the font was opened from.
    public var overwriteInput: Bool
    public init(overwriteInput: Bool = false) { self.overwriteInput = overwriteInput }
}

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

    public var description: String {
        var lines = ["wrote \(bytesWritten) bytes\(path.map { " to \($0)" } ?? "") (\(tableRecords) table records, \(distinctTables) distinct tables)"]
        lines.append("re-encoded: " + (reencodedTables.isEmpty ? "none" : reencodedTables.joined(separator: ", ")))
        lines.append("recalculated: " + (recalculated.isEmpty ? "none" : recalculated.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }
}

/// One block of table data in the output; faces whose tables have identical bytes share a block.
private final class Block {
    let chunks: [ByteChunk]
    let length: Int
    /// Checksum for the directory (head's is taken with checkSumAdjustment zeroed).
    let checksum: UInt32
    /// Where the data was in the input, to keep the input's order.
    let order: Int
    var offset = 0

    init(chunks: [ByteChunk], checksum: UInt32, order: Int) {
        self.chunks = chunks
        self.length = chunks.reduce(0) { $0 + $1.count }
        self.checksum = checksum
        self.order = order
    }
}

extension Font {
    /// Saves every face to `path` atomically: written to a temporary file in the same folder,
    /// flushed, then renamed over the target. Refuses to replace the input unless asked.
    @discardableResult
    public func save(to path: String, options: SaveOptions = SaveOptions()) throws -> SaveReport {
        if let input = self.path, !options.overwriteInput, Font.sameFile(input, path) {
            throw FontError("refusing to overwrite the input file; save elsewhere or allow overwriting explicitly", path: path)
        }
        var (header, blocks, report) = try plan()
        report.path = path
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var template = Array(((directory.isEmpty ? "/" : directory) + "/.fontshell-save-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw FontError("cannot create a temporary file next to the output: \(String(cString: strerror(errno)))", path: path) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var sink = FileSink(fd: fd)
        do {
            try Font.emit(header: header, blocks: blocks, into: &sink, dropping: bytes)
            try sink.flush()
            guard fsync(fd) == 0 else { throw FontError("cannot flush: \(String(cString: strerror(errno)))", path: path) }
            guard fchmod(fd, 0o644) == 0, close(fd) == 0 else { throw FontError("cannot close: \(String(cString: strerror(errno)))", path: path) }
            guard rename(temporary, path) == 0 else { throw FontError("cannot move the saved file into place: \(String(cString: strerror(errno)))", path: path) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        report.bytesWritten = sink.written
        header.removeAll()
        return report
    }

    /// The saved font as bytes in memory (what `save` would write).
    public func serialized() throws -> (bytes: [UInt8], report: SaveReport) {
        let (header, blocks, report) = try plan()
        var sink = ArraySink()
        try Font.emit(header: header, blocks: blocks, into: &sink)
        var r = report
        r.bytesWritten = sink.bytes.count
        return (sink.bytes, r)
    }

    static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    // MARK: planning

    /// Recalculates derived values, encodes edited tables, shares identical blocks and lays out
    /// every directory before any table data, tables 4-byte aligned.
    private func plan() throws -> (header: [UInt8], blocks: [Block], report: SaveReport) {
        var report = SaveReport()
        func label(_ face: Face, _ text: String) -> String { isCollection ? "face \(face.index): \(text)" : text }
        for face in faces {
            report.recalculated += try face.recalculateDerived().map { label(face, $0) }
        }

        var blockForSlot: [ObjectIdentifier: Block] = [:]
        var blockForSource: [Range<Int>: Block] = [:]
        // Edited tables are shared again when their bytes match: same length and checksum, then compared.
        var blocksByDigest: [ContentDigest: [(bytes: [UInt8], block: Block)]] = [:]
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
                    if let shared = blockForSource[source] { block = shared } else {
                        let buffer = UnsafeRawBufferPointer(rebasing: bytes.buffer[source])
                        block = Block(chunks: [.borrowed(buffer)], checksum: sfntChecksum(buffer), order: order)
                        bytes.dropPages(buffer)
                        blockForSource[source] = block
                        blocks.append(block)
                    }
                } else {
                    var chunks: [ByteChunk]
                    if let replacement = slot.replacement { chunks = [.owned(replacement)] }
                    else if let decoded = slot.decoded, decoded.isEdited {
                        chunks = try face.context(tag) { try decoded.encodeChunks() }
                        if !reencodedSlots.contains(id) { reencodedSlots.insert(id); report.reencodedTables.append(label(face, tag.description)) }
                    } else if let source = slot.source { chunks = [.owned(bytes.copy(source))] }
                    else { chunks = [.owned([])] }
                    var checksum = sfntChecksum(chunks)
                    for case .borrowed(let b) in chunks { bytes.dropPages(b) }
                    if tag == "head", case .owned(var head) = chunks[0], chunks.count == 1, head.count >= 12 {
                        // The directory checksum of head is taken with checkSumAdjustment zeroed.
                        for i in 8..<12 { head[i] = 0 }
                        checksum = sfntChecksum(head)
                    }
                    let single: [UInt8]? = chunks.count == 1 ? { if case .owned(let a) = chunks[0] { a } else { nil } }() : nil
                    let digest = ContentDigest(length: chunks.reduce(0) { $0 + $1.count }, checksum: checksum)
                    if let single, tag != "head", let shared = blocksByDigest[digest]?.first(where: { $0.bytes == single })?.block {
                        block = shared
                    } else {
                        block = Block(chunks: chunks, checksum: checksum, order: order)
                        if let single, tag != "head" { blocksByDigest[digest, default: []].append((single, block)) }
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
        blocks.sort { $0.order < $1.order }
        for b in blocks {
            position = (position + 3) & ~3
            b.offset = position
            position += b.length
        }

        var w = BinaryWriter(capacity: directoryStarts.last.map { $0 + 12 + 16 * (directories.last?.count ?? 0) } ?? 12)
        if isCollection {
            w.u32(0x7474_6366); w.u32(collectionVersion ?? 0x0001_0000); w.u32(UInt32(faces.count))
            for s in directoryStarts { w.u32(UInt32(s)) }
            if v2 { w.u32(0); w.u32(0); w.u32(0) } // no DSIG: any signature is invalid after a save
        }
        for (face, entries) in zip(faces, directories) {
            let n = entries.count
            var selector = 0
            while (1 << (selector + 1)) <= n { selector += 1 }
            let searchRange = (1 << selector) * 16
            w.u32(face.sfntVersion); w.u16(UInt16(n)); w.u16(UInt16(searchRange)); w.u16(UInt16(selector)); w.u16(UInt16(n * 16 - searchRange))
            for e in entries.sorted(by: { $0.tag < $1.tag }) {
                w.tag(e.tag); w.u32(e.block.checksum); w.u32(UInt32(e.block.offset)); w.u32(UInt32(e.block.length))
            }
        }
        report.tableRecords = directories.reduce(0) { $0 + $1.count }
        report.distinctTables = blocks.count

        // A single font's checkSumAdjustment makes the whole file sum to 0xB1B0AFBA. In a
        // collection the spec says the field is invalidated by the file structure and must be
        // ignored, so it is left as it is (and faces keep sharing equal head tables).
        if !isCollection, let headEntry = directories.first?.first(where: { $0.tag == "head" }),
           case .owned(var head) = headEntry.block.chunks[0], head.count >= 12 {
            let total = directories[0].reduce(sfntChecksum(w.bytes)) { $0 &+ $1.block.checksum }
            let adjustment = 0xB1B0_AFBA &- total
            let old = UInt32(head[8]) << 24 | UInt32(head[9]) << 16 | UInt32(head[10]) << 8 | UInt32(head[11])
            if old != adjustment {
                head[8] = UInt8(adjustment >> 24); head[9] = UInt8((adjustment >> 16) & 0xFF)
                head[10] = UInt8((adjustment >> 8) & 0xFF); head[11] = UInt8(adjustment & 0xFF)
                if let i = blocks.firstIndex(where: { $0 === headEntry.block }) {
                    let patched = Block(chunks: [.owned(head)], checksum: headEntry.block.checksum, order: headEntry.block.order)
                    patched.offset = headEntry.block.offset
                    blocks[i] = patched
                }
                report.recalculated.append("head.checkSumAdjustment \(old) → \(adjustment)")
            }
        }
        return (w.bytes, blocks, report)
    }

    /// Writes header and blocks in order; borrowed pages are dropped once written (see dropPages).
    private static func emit<S: ByteSink>(header: [UInt8], blocks: [Block], into sink: inout S, dropping source: FontBytes? = nil) throws {
        try header.withUnsafeBytes { try sink.write($0) }
        var position = header.count
        let zeros: [UInt8] = [0, 0, 0, 0]
        for b in blocks {
            if b.offset > position { try zeros.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<(b.offset - position)])) } }
            for c in b.chunks {
                try c.withBytes { try sink.write($0) }
                if case .borrowed(let region) = c { try sink.flush(); source?.dropPages(region) }
            }
            position = b.offset + b.length
        }
        let padding = (4 - position % 4) % 4
        if padding > 0 { try zeros.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<padding])) } }
    }
}

private struct ContentDigest: Hashable {
    let length: Int
    let checksum: UInt32
}

protocol ByteSink {
    mutating func write(_ buffer: UnsafeRawBufferPointer) throws
    mutating func flush() throws
}

struct ArraySink: ByteSink {
    var bytes: [UInt8] = []
    mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }
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
        if data.count >= 1 << 15 { try FileSink.writeAll(fd, data) } else { buffer.append(contentsOf: data) }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try FileSink.writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
    }

    static func writeAll(_ fd: Int32, _ data: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < data.count {
            guard let base = data.baseAddress else { return }
            let n = systemWrite(fd, base + done, data.count - done)
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
