import CZlib

/// WOFF 1.0 (W3C): an sfnt whose tables are each zlib-compressed where that saves bytes, plus
/// optional metadata and private data. Reading rebuilds the sfnt the file wraps (each table's
/// length is checked against what zlib gives, and what a table may expand to is bounded by its
/// compressed size, so a small file cannot claim gigabytes); writing compresses each table of
/// the sfnt FontShell would save.
enum WOFF {
    static let signature: UInt32 = 0x774F_4646
    /// zlib's best case is about 1,032:1; a table claiming more than this ratio is a lie.
    static let maximumRatio = 1100
    /// What all the tables together may expand to, against the file's size: real fonts come
    /// out of zlib at 2–4:1, so past 100:1 (the bound WOFF2 files get too) a file is refused
    /// as a decompression bomb before anything is allocated for it.
    static let maximumTotalRatio = 100

    /// The sfnt a WOFF file wraps, and its extras.
    static func decode(_ reader: BinaryReader) throws -> (sfnt: [UInt8], extras: WebFontExtras) {
        var r = reader
        guard reader.count >= 44, try r.u32() == signature else {
            throw reader.error("WOFF: the file is shorter than its 44-byte header", at: 0)
        }
        let flavor = try r.u32()
        let length = Int(try r.u32())
        let numTables = Int(try r.u16())
        let reserved = try r.u16()
        _ = try r.u32()   // totalSfntSize: recomputed from the tables
        let major = Int(try r.u16()), minor = Int(try r.u16())
        let metaOffset = Int(try r.u32()), metaLength = Int(try r.u32()), metaOrigLength = Int(try r.u32())
        let privOffset = Int(try r.u32()), privLength = Int(try r.u32())
        guard length == reader.count else {
            throw reader.error("WOFF: the header says the file is \(length) bytes, it is \(reader.count)", at: 8)
        }
        guard reserved == 0 else { throw reader.error("WOFF: the reserved header field is \(reserved), not 0", at: 14) }
        guard numTables > 0, numTables <= (reader.count - 44) / 20 else {
            throw reader.error("WOFF: \(numTables) tables do not fit in the file's directory", at: 12)
        }
        struct Entry { let tag: UInt32; let offset: Int; let compLength: Int; let origLength: Int; let checksum: UInt32; let at: Int }
        var entries: [Entry] = []
        var previousTag: UInt32?
        for _ in 0..<numTables {
            let at = r.offset
            let e = Entry(
                tag: try r.u32(), offset: Int(try r.u32()), compLength: Int(try r.u32()), origLength: Int(try r.u32()),
                checksum: try r.u32(), at: at)
            let tag = Tag(e.tag)
            if let p = previousTag, e.tag <= p {
                throw reader.error("WOFF: table '\(tag)' is out of order or listed twice in the directory", at: at)
            }
            previousTag = e.tag
            guard e.offset >= 44 + 20 * numTables, e.compLength <= reader.count, e.offset <= reader.count - e.compLength else {
                throw reader.error("WOFF: table '\(tag)' (\(e.compLength) bytes at \(e.offset)) lies outside the file", at: at)
            }
            guard e.compLength > 0 || e.origLength == 0 else {
                throw reader.error("WOFF: table '\(tag)' claims \(e.origLength) bytes from none stored", at: at)
            }
            guard e.compLength <= e.origLength else {
                throw reader.error(
                    "WOFF: table '\(tag)' is stored in \(e.compLength) bytes, more than its \(e.origLength) bytes uncompressed", at: at)
            }
            guard e.origLength <= max(e.compLength, 1) * maximumRatio else {
                throw reader.error(
                    "WOFF: table '\(tag)' claims \(e.origLength) bytes from \(e.compLength) compressed: more than zlib can give", at: at)
            }
            entries.append(e)
        }
        // Stored tables may share no byte (the format says so; a reader that allows it reads one
        // block as two tables).
        let stored = entries.sorted { $0.offset < $1.offset }
        for (a, b) in zip(stored, stored.dropFirst()) where a.offset + a.compLength > b.offset {
            throw reader.error(
                "WOFF: table '\(Tag(a.tag))' (\(a.compLength) bytes at \(a.offset)) overlaps table '\(Tag(b.tag))' at \(b.offset)", at: b.at
            )
        }
        let sfntSize = 12 + 16 * numTables + entries.reduce(0) { $0 + (($1.origLength + 3) & ~3) }
        guard sfntSize <= reader.count * maximumTotalRatio else {
            throw reader.error(
                "WOFF: the tables claim \(sfntSize) bytes from a \(reader.count)-byte file: more than \(maximumTotalRatio):1, refused as a decompression bomb",
                at: 16)
        }
        // The sfnt: header, directory in tag order, tables in file order, each padded to 4.
        // Its storage grows as tables are inflated: claimed lengths are only believed once zlib
        // has produced the bytes.
        var out = BinaryWriter(capacity: min(sfntSize, 12 + 16 * numTables + 4 * reader.count))
        out.u32(flavor)
        out.u16(UInt16(numTables))
        var power = 1, log = 0
        while power * 2 <= numTables { power *= 2; log += 1 }
        out.u16(UInt16(power * 16)); out.u16(UInt16(log)); out.u16(UInt16(numTables * 16 - power * 16))
        var offset = 12 + 16 * numTables
        let byOffset = entries.indices.sorted { entries[$0].offset < entries[$1].offset }
        var placed = [Int](repeating: 0, count: entries.count)
        for i in byOffset { placed[i] = offset; offset += (entries[i].origLength + 3) & ~3 }
        for (i, e) in entries.enumerated() {
            out.u32(e.tag); out.u32(e.checksum); out.u32(UInt32(placed[i])); out.u32(UInt32(e.origLength))
        }
        for i in byOffset {
            let e = entries[i]
            let stored = try reader.sub(e.offset, e.compLength)
            if e.compLength == e.origLength {
                out.append(stored.bytes)
            } else {
                out.append(
                    try inflate(stored.bytes, expected: e.origLength, what: "WOFF table '\(Tag(e.tag))'", at: reader.base + e.offset))
            }
            out.append([UInt8](repeating: 0, count: ((e.origLength + 3) & ~3) - e.origLength))
        }
        var extras = WebFontExtras(majorVersion: major, minorVersion: minor)
        if metaLength > 0 {
            guard metaOffset <= reader.count, metaLength <= reader.count - metaOffset else {
                throw reader.error("WOFF: the metadata block lies outside the file", at: 24)
            }
            guard metaOrigLength <= max(metaLength, 1) * maximumRatio else {
                throw reader.error(
                    "WOFF: the metadata claims \(metaOrigLength) bytes from \(metaLength) compressed: more than zlib can give", at: 32)
            }
            extras.metadata = try inflate(
                try reader.sub(metaOffset, metaLength).bytes, expected: metaOrigLength, what: "WOFF metadata", at: reader.base + metaOffset)
        }
        if privLength > 0 {
            guard privOffset <= reader.count, privLength <= reader.count - privOffset else {
                throw reader.error("WOFF: the private data block lies outside the file", at: 36)
            }
            extras.privateData = Array(try reader.sub(privOffset, privLength).bytes)
        }
        return (out.bytes, extras)
    }

    /// A WOFF file of an sfnt (one font, not a collection), tables compressed at zlib's best.
    static func encode(_ sfnt: [UInt8], extras: WebFontExtras?) throws -> [UInt8] {
        try sfnt.withUnsafeBytes { buffer -> [UInt8] in
            let reader = BinaryReader(buffer)
            let flavor = try reader.u32(at: 0)
            guard flavor != 0x7474_6366 else { throw FontError("WOFF holds one font: save one face of a collection (face:save, --face)") }
            let numTables = Int(try reader.u16(at: 4))
            struct Entry { let tag: UInt32; let checksum: UInt32; let offset: Int; let length: Int }
            var entries: [Entry] = []
            for k in 0..<numTables {
                let at = 12 + 16 * k
                entries.append(
                    Entry(
                        tag: try reader.u32(at: at), checksum: try reader.u32(at: at + 4),
                        offset: Int(try reader.u32(at: at + 8)), length: Int(try reader.u32(at: at + 12))))
            }
            let extras = extras ?? WebFontExtras()
            let metadata = try extras.metadata.map { try deflate($0) }
            try extras.checkVersion("WOFF")
            // Tables in the sfnt's order; each stored compressed only when that is smaller.
            let byOffset = entries.indices.sorted { entries[$0].offset < entries[$1].offset }
            var stored = [[UInt8]](repeating: [], count: entries.count)
            for i in byOffset {
                let table = Array(try reader.sub(entries[i].offset, entries[i].length).bytes)
                let packed = try deflate(table)
                stored[i] = packed.count < table.count ? packed : table
            }
            var w = BinaryWriter()
            var offset = 44 + 20 * numTables
            var placed = [Int](repeating: 0, count: entries.count)
            for i in byOffset { placed[i] = offset; offset += (stored[i].count + 3) & ~3 }
            // Every table padded to 4; the metadata too when private data follows it (fontTools' layout).
            let metaOffset = metadata == nil ? 0 : offset
            if let m = metadata { offset += extras.privateData == nil ? m.count : (m.count + 3) & ~3 }
            let privOffset = extras.privateData == nil ? 0 : offset
            if let p = extras.privateData { offset += p.count }
            let totalSfntSize = 12 + 16 * numTables + entries.reduce(0) { $0 + (($1.length + 3) & ~3) }
            w.u32(signature); w.u32(flavor); w.u32(UInt32(offset)); w.u16(UInt16(numTables)); w.u16(0)
            w.u32(UInt32(totalSfntSize)); w.u16(UInt16(extras.majorVersion)); w.u16(UInt16(extras.minorVersion))
            w.u32(UInt32(metaOffset)); w.u32(UInt32(metadata?.count ?? 0)); w.u32(UInt32(extras.metadata?.count ?? 0))
            w.u32(UInt32(privOffset)); w.u32(UInt32(extras.privateData?.count ?? 0))
            for (i, e) in entries.enumerated() {   // the sfnt directory is in tag order already
                w.u32(e.tag); w.u32(UInt32(placed[i])); w.u32(UInt32(stored[i].count)); w.u32(UInt32(e.length)); w.u32(e.checksum)
            }
            for i in byOffset {
                w.append(stored[i])
                w.append([UInt8](repeating: 0, count: ((stored[i].count + 3) & ~3) - stored[i].count))
            }
            if let m = metadata {
                w.append(m)
                if extras.privateData != nil { w.append([UInt8](repeating: 0, count: ((m.count + 3) & ~3) - m.count)) }
            }
            if let p = extras.privateData { w.append(p) }
            return w.bytes
        }
    }

    static func inflate(_ data: UnsafeRawBufferPointer, expected: Int, what: String, at offset: Int) throws -> [UInt8] {
        // Inflated in steps into storage that grows with what zlib really gives (at most
        // `expected`), so a table claiming more than its data holds costs no more than its data.
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FontError("\(what): zlib could not start (out of memory)", offset: offset)
        }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        out.reserveCapacity(min(expected, max(data.count, 1) * 8))
        var chunk = [UInt8](repeating: 0, count: min(max(expected, 1), 1 << 20))
        stream.next_in = UnsafeMutablePointer(mutating: data.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(data.count)
        var status = Z_OK
        while status == Z_OK {
            let produced = chunk.withUnsafeMutableBytes { c -> Int in
                stream.next_out = c.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(c.count)
                status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return c.count - Int(stream.avail_out)
            }
            guard out.count + produced <= expected else {
                throw FontError("\(what): the zlib data is damaged (it expands to more than the \(expected) bytes claimed)", offset: offset)
            }
            out += chunk[0..<produced]
        }
        guard status == Z_STREAM_END else {
            let reason = status == Z_BUF_ERROR || status == Z_OK ? "it ends before its end marker" : "zlib error \(status)"
            throw FontError("\(what): the zlib data is damaged (\(reason))", offset: offset)
        }
        guard out.count == expected else {
            throw FontError("\(what): expands to \(out.count) bytes, not the \(expected) claimed", offset: offset)
        }
        return out
    }

    static func deflate(_ data: [UInt8]) throws -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBytes { i in
            out.withUnsafeMutableBytes { o in
                compress2(
                    o.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                    i.baseAddress.map { $0.assumingMemoryBound(to: Bytef.self) } ?? UnsafePointer(bitPattern: 1)!, uLong(data.count),
                    Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw FontError("zlib could not compress a table (error \(status))") }
        return Array(out.prefix(Int(length)))
    }
}
