import CBrotli

/// WOFF 2.0 (W3C): one Brotli stream holding every table of a font or a collection, glyf/loca
/// and hmtx optionally transformed (WOFF2Glyphs), behind a compact directory.
///
/// Reading rebuilds the sfnt (or TTC) the file wraps: the stream is decompressed once, into
/// exactly the size the directory adds up to (a stream that wants more is refused, so is a
/// directory claiming more than 100 bytes per byte of file: the reference decoder's limit), and
/// the transformed tables are reconstructed. Writing takes the sfnt FontShell would save.
enum WOFF2 {
    static let signature: UInt32 = 0x774F_4632
    static let collectionFlavor: UInt32 = 0x7474_6366
    static let maximumRatio = 100

    /// The tags a directory entry can name by index (the spec's table; 63 means "tag follows").
    static let knownTags: [Tag] = [
        "cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm", "glyf", "loca", "prep",
        "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX", "vhea", "vmtx", "BASE",
        "GDEF", "GPOS", "GSUB", "EBSC", "JSTF", "MATH", "CBDT", "CBLC", "COLR", "CPAL", "SVG ", "sbix", "acnt",
        "avar", "bdat", "bloc", "bsln", "cvar", "fdsc", "feat", "fmtx", "fvar", "gvar", "hsty", "just", "lcar",
        "mort", "morx", "opbd", "prop", "trak", "Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill",
    ]

    /// One table of the directory: where its (possibly transformed) bytes are in the stream.
    struct Entry {
        var tag: Tag
        var transformed: Bool
        var originalLength: Int
        var streamOffset: Int
        var streamLength: Int
    }

    // MARK: reading

    static func decode(_ reader: BinaryReader) throws -> (sfnt: [UInt8], extras: WebFontExtras) {
        var r = reader
        guard reader.count >= 48 else { throw reader.error("WOFF2: the file is shorter than its 48-byte header", at: 0) }
        _ = try r.u32()
        let flavor = try r.u32()
        let length = Int(try r.u32())
        let numTables = Int(try r.u16())
        let reserved = try r.u16()
        _ = try r.u32()   // totalSfntSize: the rebuilt size is computed
        let compressedLength = Int(try r.u32())
        let major = Int(try r.u16()), minor = Int(try r.u16())
        let metaOffset = Int(try r.u32()), metaLength = Int(try r.u32()), metaOriginalLength = Int(try r.u32())
        let privateOffset = Int(try r.u32()), privateLength = Int(try r.u32())
        guard length == reader.count else {
            throw reader.error("WOFF2: the header says the file is \(length) bytes, it is \(reader.count)", at: 8)
        }
        guard reserved == 0 else { throw reader.error("WOFF2: the reserved header field is \(reserved), not 0", at: 14) }
        guard numTables > 0 else { throw reader.error("WOFF2: the directory lists no tables", at: 12) }

        var entries: [Entry] = []
        var streamSize = 0
        for _ in 0..<numTables {
            let at = r.offset
            let flags = try r.u8()
            let tag = flags & 0x3F == 0x3F ? Tag(try r.u32()) : knownTags[Int(flags & 0x3F)]
            let version = Int(flags >> 6)
            let transformed: Bool
            switch (tag, version) {
            case ("glyf", 0), ("loca", 0), ("hmtx", 1): transformed = true
            case ("glyf", 3), ("loca", 3), (_, 0): transformed = false
            default: throw reader.error("WOFF2: table '\(tag)' names transform \(version), which the format does not define for it", at: at)
            }
            let originalLength = try r.readUIntBase128()
            let streamLength = transformed ? try r.readUIntBase128() : originalLength
            if tag == "loca" && transformed && streamLength != 0 {
                throw reader.error("WOFF2: a transformed loca must be stored in no bytes, not \(streamLength)", at: at)
            }
            entries.append(
                Entry(
                    tag: tag, transformed: transformed, originalLength: originalLength, streamOffset: streamSize, streamLength: streamLength
                ))
            streamSize += streamLength
        }

        // The fonts: one of every table, or a collection directory choosing tables by index.
        var fonts: [(flavor: UInt32, tables: [Int])] = []
        var collectionVersion: UInt32?
        if flavor == collectionFlavor {
            let at = r.offset
            let version = try r.u32()
            guard version == 0x0001_0000 || version == 0x0002_0000 else {
                throw reader.error("WOFF2: collection version 0x\(String(version, radix: 16)) is neither 1.0 nor 2.0", at: at)
            }
            collectionVersion = version
            let numFonts = try r.read255UInt16()
            guard numFonts > 0 else { throw reader.error("WOFF2: the collection directory lists no fonts", at: at + 4) }
            for i in 0..<numFonts {
                let fontAt = r.offset
                let count = try r.read255UInt16()
                guard count > 0 else { throw reader.error("WOFF2: collection font \(i) has no tables", at: fontAt) }
                let fontFlavor = try r.u32()
                var indices: [Int] = []
                for _ in 0..<count {
                    let indexAt = r.offset
                    let index = try r.read255UInt16()
                    guard index < entries.count else {
                        throw reader.error(
                            "WOFF2: collection font \(i) points at table \(index); the directory has \(entries.count)", at: indexAt)
                    }
                    indices.append(index)
                }
                fonts.append((fontFlavor, indices))
            }
        } else {
            fonts = [(flavor, Array(entries.indices))]
        }
        for (i, font) in fonts.enumerated() {
            var seen = Set<Tag>()
            for t in font.tables.map({ entries[$0].tag }) where !seen.insert(t).inserted {
                throw reader.error("WOFF2: \(fonts.count > 1 ? "collection font \(i)" : "the font") lists table '\(t)' twice", at: 48)
            }
            let glyf = font.tables.first { entries[$0].tag == "glyf" }, loca = font.tables.first { entries[$0].tag == "loca" }
            guard (glyf == nil) == (loca == nil) else {
                throw reader.error("WOFF2: a font has \(glyf == nil ? "loca without glyf" : "glyf without loca")", at: 48)
            }
            if let glyf, let loca, entries[glyf].transformed != entries[loca].transformed {
                throw reader.error("WOFF2: glyf and loca must be transformed together or not at all", at: 48)
            }
        }

        let compressedStart = r.offset
        guard compressedLength <= reader.count - compressedStart else {
            throw reader.error(
                "WOFF2: the compressed stream (\(compressedLength) bytes at \(compressedStart)) runs past the end of the file", at: 20)
        }
        guard streamSize > 0 else { throw reader.error("WOFF2: the tables add up to no bytes", at: 48) }
        guard streamSize <= reader.count * maximumRatio else {
            throw reader.error(
                "WOFF2: the directory adds up to \(streamSize) bytes from a \(reader.count)-byte file: more than \(maximumRatio):1, refused as a decompression bomb",
                at: 48)
        }
        let stream = try brotliDecompress(
            try reader.sub(compressedStart, compressedLength).bytes, expected: streamSize,
            what: "WOFF2 table data", at: reader.base + compressedStart)
        for e in entries where e.streamOffset + e.streamLength > stream.count {
            throw FontError("WOFF2: table '\(e.tag)' runs past the decompressed data", table: e.tag.description)
        }

        var extras = WebFontExtras(majorVersion: major, minorVersion: minor)
        if metaLength > 0 {
            guard metaOffset <= reader.count, metaLength <= reader.count - metaOffset else {
                throw reader.error("WOFF2: the metadata block lies outside the file", at: 28)
            }
            guard metaOriginalLength <= reader.count * maximumRatio else {
                throw reader.error("WOFF2: the metadata claims \(metaOriginalLength) bytes, more than \(maximumRatio):1", at: 36)
            }
            extras.metadata = try brotliDecompress(
                try reader.sub(metaOffset, metaLength).bytes, expected: metaOriginalLength,
                what: "WOFF2 metadata", at: reader.base + metaOffset)
        }
        if privateLength > 0 {
            guard privateOffset <= reader.count, privateLength <= reader.count - privateOffset else {
                throw reader.error("WOFF2: the private data block lies outside the file", at: 40)
            }
            extras.privateData = Array(try reader.sub(privateOffset, privateLength).bytes)
        }
        let sfnt = try stream.withUnsafeBytes {
            try rebuild($0, entries: entries, fonts: fonts, collectionVersion: collectionVersion).bytes
        }
        return (sfnt, extras)
    }

    /// The sfnt or TTC: headers and directories (tags sorted), then each table once, padded to 4,
    /// with checksums and head.checkSumAdjustment computed as for any font; and where each
    /// directory entry's table went.
    /// `known`: glyf tables the caller has rebuilt already (the encoder), by directory index.
    static func rebuild(
        _ stream: UnsafeRawBufferPointer, entries: [Entry], fonts: [(flavor: UInt32, tables: [Int])],
        collectionVersion: UInt32?, known: [Int: WOFF2Glyphs.Reconstructed] = [:]
    ) throws -> (bytes: [UInt8], tableOffsets: [Int]) {
        func bytes(_ i: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: stream[entries[i].streamOffset..<entries[i].streamOffset + entries[i].streamLength])
        }
        // Rebuilt tables (transformed ones), by directory index; the rest are stream slices.
        var rebuilt: [Int: [UInt8]] = [:]
        var xMinsByGlyf: [Int: [Int16]] = [:]
        var locaOfGlyf: [Int: Int] = [:]
        for font in fonts {
            guard let glyf = font.tables.first(where: { entries[$0].tag == "glyf" && entries[$0].transformed }),
                let loca = font.tables.first(where: { entries[$0].tag == "loca" }), rebuilt[glyf] == nil
            else { continue }
            let r = try known[glyf] ?? WOFF2Glyphs.reconstruct(bytes(glyf), locaLength: entries[loca].originalLength)
            rebuilt[glyf] = r.glyf
            rebuilt[loca] = r.loca
            xMinsByGlyf[glyf] = r.xMins
            locaOfGlyf[glyf] = loca
        }
        for font in fonts {
            guard let hmtx = font.tables.first(where: { entries[$0].tag == "hmtx" && entries[$0].transformed }), rebuilt[hmtx] == nil else {
                continue
            }
            guard let glyf = font.tables.first(where: { entries[$0].tag == "glyf" }), let xMins = xMinsByGlyf[glyf] else {
                throw FontError("WOFF2: hmtx is transformed but the font's glyf is not", table: "hmtx")
            }
            guard let hhea = font.tables.first(where: { entries[$0].tag == "hhea" }), entries[hhea].streamLength >= 36 else {
                throw FontError("WOFF2: hmtx is transformed but the font has no hhea to count its metrics", table: "hmtx")
            }
            let numHMetrics = Int(try BinaryReader(bytes(hhea)).u16(at: 34))
            rebuilt[hmtx] = try WOFF2Glyphs.reconstructHmtx(bytes(hmtx), numHMetrics: numHMetrics, xMins: xMins)
        }
        func length(_ i: Int) -> Int { rebuilt[i]?.count ?? entries[i].streamLength }

        // Layout: headers, then the tables: for one font in the WOFF2 directory's order, for a
        // collection in the order the sorted directories first name them, a rebuilt loca right
        // after its glyf (the reference decoder's layout, so both give the same bytes).
        let sortedFonts = fonts.map { f in (flavor: f.flavor, tables: f.tables.sorted { entries[$0].tag < entries[$1].tag }) }
        let dataOrder = collectionVersion == nil ? fonts.map(\.tables) : sortedFonts.map(\.tables)
        var position = collectionVersion == nil ? 0 : 12 + 4 * fonts.count + (collectionVersion == 0x0002_0000 ? 12 : 0)
        var directoryStarts: [Int] = []
        for f in sortedFonts { directoryStarts.append(position); position += 12 + 16 * f.tables.count }
        // Where each directory entry's table goes (-1: not yet placed), and its checksum.
        var tableOffsets = [Int](repeating: -1, count: entries.count)
        var order: [Int] = []
        for tables in dataOrder {
            for i in tables where tableOffsets[i] < 0 {
                for j in [i] + (locaOfGlyf[i].map { [$0] } ?? []) {
                    tableOffsets[j] = position
                    order.append(j)
                    position += (length(j) + 3) & ~3
                }
            }
        }
        guard position <= Int(UInt32.max) else {
            throw FontError("WOFF2: the rebuilt font would be \(position) bytes, past sfnt's 4 GiB offsets")
        }
        var out = [UInt8](repeating: 0, count: position)
        func put32(_ v: UInt32, _ at: Int) { for k in 0..<4 { out[at + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) } }
        func put16(_ v: Int, _ at: Int) { out[at] = UInt8(truncatingIfNeeded: v >> 8); out[at + 1] = UInt8(truncatingIfNeeded: v) }
        var checksums = [UInt32](repeating: 0, count: entries.count)
        for i in order {
            let at = tableOffsets[i]
            if let data = rebuilt[i] {
                out.replaceSubrange(at..<at + data.count, with: data)
            } else if let source = bytes(i).baseAddress, entries[i].streamLength > 0 {
                out.withUnsafeMutableBytes { $0.baseAddress?.advanced(by: at).copyMemory(from: source, byteCount: entries[i].streamLength) }
            }
            if entries[i].tag == "head" && length(i) >= 12 { put32(0, at + 8) }
            checksums[i] = out.withUnsafeBytes { sfntChecksum(UnsafeRawBufferPointer(rebasing: $0[at..<at + length(i)])) }
        }
        if let version = collectionVersion {
            put32(collectionFlavor, 0); put32(version, 4); put32(UInt32(fonts.count), 8)
            for (k, start) in directoryStarts.enumerated() { put32(UInt32(start), 12 + 4 * k) }
        }
        for (k, f) in sortedFonts.enumerated() {
            let start = directoryStarts[k], n = f.tables.count
            var power = 1, log = 0
            while power * 2 <= n { power *= 2; log += 1 }
            put32(f.flavor, start); put16(n, start + 4); put16(power * 16, start + 6); put16(log, start + 8);
            put16(n * 16 - power * 16, start + 10)
            for (j, i) in f.tables.enumerated() {
                let at = start + 12 + 16 * j
                put32(entries[i].tag.rawValue, at); put32(checksums[i], at + 4); put32(UInt32(tableOffsets[i]), at + 8);
                put32(UInt32(length(i)), at + 12)
            }
            var sum = out.withUnsafeBytes { sfntChecksum(UnsafeRawBufferPointer(rebasing: $0[start..<start + 12 + 16 * n])) }
            for i in f.tables { sum &+= checksums[i] }
            if let head = f.tables.first(where: { entries[$0].tag == "head" }), length(head) >= 12 {
                put32(0xB1B0_AFBA &- sum, tableOffsets[head] + 8)
            }
        }
        return (out, tableOffsets)
    }

    /// Exactly `expected` bytes out of a Brotli stream: more is refused as it comes, not after.
    static func brotliDecompress(_ input: UnsafeRawBufferPointer, expected: Int, what: String, at offset: Int) throws -> [UInt8] {
        guard expected > 0 else { return [] }
        guard input.count > 0 else { throw FontError("\(what): no compressed bytes for \(expected) bytes of data", offset: offset) }
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw FontError("\(what): Brotli could not start") }
        defer { BrotliDecoderDestroyInstance(state) }
        var out = [UInt8](repeating: 0, count: expected)
        var availableIn = input.count
        var nextIn: UnsafePointer<UInt8>? = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var availableOut = expected
        let result = out.withUnsafeMutableBufferPointer { o -> BrotliDecoderResult in
            var nextOut: UnsafeMutablePointer<UInt8>? = o.baseAddress
            return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
        }
        switch result {
        case BROTLI_DECODER_RESULT_SUCCESS:
            guard availableOut == 0 else {
                throw FontError(
                    "\(what): decompresses to \(expected - availableOut) bytes, not the \(expected) the directory declares", offset: offset)
            }
            return out
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
            throw FontError("\(what): decompresses past the \(expected) bytes the directory declares", offset: offset)
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
            throw FontError("\(what): the Brotli stream is cut short (\(expected - availableOut) of \(expected) bytes)", offset: offset)
        default:
            let message = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)).map { String(cString: $0) } ?? "unknown error"
            throw FontError("\(what): the Brotli data is damaged (\(message))", offset: offset)
        }
    }

    // MARK: writing

    /// A WOFF2 of an sfnt or TTC, and notes on what it did (transforms, a dropped DSIG).
    static func encode(_ sfnt: [UInt8], extras: WebFontExtras?, options: WOFF2Options, progress: SaveProgress? = nil) throws -> (
        bytes: [UInt8], notes: [String]
    ) {
        try options.check()
        let extras = extras ?? WebFontExtras()
        try extras.checkVersion("WOFF2")
        return try sfnt.withUnsafeBytes { buffer in
            let reader = BinaryReader(buffer)
            // The fonts and their tables; a table shared by offset is stored once.
            var faceOffsets = [0]
            var collectionVersion: UInt32?
            if try reader.u32(at: 0) == collectionFlavor {
                collectionVersion = try reader.u32(at: 4)
                let count = Int(try reader.u32(at: 8))
                faceOffsets = try (0..<count).map { Int(try reader.u32(at: 12 + 4 * $0)) }
            }
            struct Source { let tag: Tag; let offset: Int; let length: Int }
            var sources: [Source] = []
            var sourceIndex: [Int: Int] = [:]   // by offset
            var fonts: [(flavor: UInt32, tables: [Int])] = []
            for start in faceOffsets {
                let n = Int(try reader.u16(at: start + 4))
                var tables: [Int] = []
                for k in 0..<n {
                    let at = start + 12 + 16 * k
                    let tag = Tag(try reader.u32(at: at)), offset = Int(try reader.u32(at: at + 8)),
                        length = Int(try reader.u32(at: at + 12))
                    if let i = sourceIndex[offset], sources[i].tag == tag, sources[i].length == length { tables.append(i); continue }
                    sourceIndex[offset] = sources.count
                    tables.append(sources.count)
                    sources.append(Source(tag: tag, offset: offset, length: length))
                }
                fonts.append((try reader.u32(at: start), tables))
            }
            func data(_ i: Int) throws -> UnsafeRawBufferPointer { try reader.sub(sources[i].offset, sources[i].length).bytes }
            func find(_ font: (flavor: UInt32, tables: [Int]), _ tag: Tag) -> Int? { font.tables.first { sources[$0].tag == tag } }

            var notes: [String] = []
            var replaced: [Int: [UInt8]] = [:]   // head with its flags changed
            var transformed: [Int: [UInt8]] = [:]   // glyf, loca (empty), hmtx as stored
            var originalLength: [Int: Int] = [:]   // glyf and loca as they will be rebuilt
            var rebuiltGlyf: [Int: WOFF2Glyphs.Reconstructed] = [:]   // by source index, for the checksum below
            let transforming = options.transformGlyphs && fonts.contains { find($0, "glyf") != nil && find($0, "loca") != nil }
            if transforming {
                for f in fonts {
                    guard let glyf = find(f, "glyf"), let loca = find(f, "loca"), transformed[glyf] == nil else { continue }
                    guard let head = find(f, "head"), let maxp = find(f, "maxp"), sources[head].length >= 54, sources[maxp].length >= 6
                    else {
                        throw FontError("WOFF2: a font with glyf needs head and maxp to transform it")
                    }
                    var headBytes = try replaced[head] ?? Array(data(head))
                    let numGlyphs = Int(try reader.u16(at: sources[maxp].offset + 4))
                    var indexFormat = Int(headBytes[51])
                    var stored = try WOFF2Glyphs.transform(
                        glyf: try data(glyf), loca: try data(loca), numGlyphs: numGlyphs, indexFormat: indexFormat)
                    // What a decoder will rebuild: its length goes in the directory, and a glyf
                    // past what short offsets can address needs the long loca.
                    let rebuilt = try stored.withUnsafeBytes {
                        try WOFF2Glyphs.reconstruct($0, locaLength: (indexFormat == 0 ? 2 : 4) * (numGlyphs + 1), checkShortLoca: false)
                    }
                    if indexFormat == 0 && rebuilt.glyf.count > 0x1FFFE {
                        indexFormat = 1
                        stored[7] = 1
                        headBytes[51] = 1
                        notes.append("loca made long (the rebuilt glyf passes 128 KiB)")
                    } else {
                        rebuiltGlyf[glyf] = rebuilt   // as a decoder rebuilds it (a long loca it rebuilds anew)
                    }
                    headBytes[16] |= 0x08   // head.flags bit 11: the font went through a lossless transform
                    replaced[head] = headBytes
                    transformed[glyf] = stored
                    transformed[loca] = []
                    originalLength[glyf] = rebuilt.glyf.count
                    originalLength[loca] = (indexFormat == 0 ? 2 : 4) * (numGlyphs + 1)
                    // hmtx without the side bearings glyf implies (single fonts, as decoders expect).
                    if fonts.count == 1, let hmtx = find(f, "hmtx"), let hhea = find(f, "hhea"), sources[hhea].length >= 36,
                        let smaller = WOFF2Glyphs.transformHmtx(
                            try data(hmtx), numHMetrics: Int(try reader.u16(at: sources[hhea].offset + 34)), xMins: rebuilt.xMins)
                    {
                        transformed[hmtx] = smaller
                        notes.append("hmtx transformed")
                    }
                }
                notes.insert("glyf/loca transformed", at: 0)
                // The transform changes the bytes a DSIG signed.
                if fonts.contains(where: { find($0, "DSIG") != nil }) {
                    fonts = fonts.map { f in (f.flavor, f.tables.filter { sources[$0].tag != "DSIG" }) }
                    notes.append("DSIG dropped (its signature no longer matches)")
                }
            }

            // head.flags bit 11 (a lossless transform: a decoded font is not the input byte for
            // byte, whether or not glyf was transformed) in every font, as the reference encoder sets it.
            for f in fonts {
                guard let head = find(f, "head"), replaced[head] == nil, sources[head].length >= 18 else { continue }
                var headBytes = Array(try data(head))
                headBytes[16] |= 0x08
                replaced[head] = headBytes
            }

            // Each font's tables in tag order with loca right after glyf; the directory lists
            // every table once, in the order fonts first use it.
            func outputOrder(_ tables: [Int]) -> [Int] {
                var sorted = tables.sorted { sources[$0].tag < sources[$1].tag }
                if let l = sorted.firstIndex(where: { sources[$0].tag == "loca" }), sorted.contains(where: { sources[$0].tag == "glyf" }) {
                    let loca = sorted.remove(at: l)
                    if let g = sorted.firstIndex(where: { sources[$0].tag == "glyf" }) {
                        sorted.insert(loca, at: g + 1)
                    } else {
                        sorted.append(loca)
                    }
                }
                return sorted
            }
            var order: [Int] = []
            var position = [Int](repeating: -1, count: sources.count)   // each table's index in the directory
            for f in fonts { for i in outputOrder(f.tables) where position[i] < 0 { position[i] = order.count; order.append(i) } }

            // The directory counts tables and fonts in 16 bits (255UInt16 indices, UInt16 numTables).
            guard order.count <= 0xFFFF, fonts.count <= 0xFFFF else {
                throw FontError("WOFF2 holds at most 65,535 tables and fonts; this font has \(order.count) tables in \(fonts.count) fonts")
            }
            var stream: [UInt8] = []
            stream.reserveCapacity(order.reduce(0) { $0 + (transformed[$1]?.count ?? sources[$1].length) })
            for i in order {
                if let t = transformed[i] {
                    stream.append(contentsOf: t)
                } else if let h = replaced[i] {
                    stream.append(contentsOf: h)
                } else {
                    stream.append(contentsOf: try data(i))
                }
            }
            // head.checkSumAdjustment as the font a decoder rebuilds will have it (what the
            // reference encoder stores too, so the two write the same bytes); the decoder
            // computes its own, but the stored head is then right as it stands.
            var entries: [Entry] = []
            for i in order {
                let length = transformed[i]?.count ?? replaced[i]?.count ?? sources[i].length
                entries.append(
                    Entry(
                        tag: sources[i].tag, transformed: transformed[i] != nil, originalLength: originalLength[i] ?? sources[i].length,
                        streamOffset: entries.last.map { $0.streamOffset + $0.streamLength } ?? 0, streamLength: length))
            }
            let decodedFonts =
                collectionVersion == nil
                ? [(fonts[0].flavor, Array(entries.indices))] : fonts.map { f in (f.flavor, outputOrder(f.tables).map { position[$0] }) }
            var known: [Int: WOFF2Glyphs.Reconstructed] = [:]   // by directory index
            for (source, glyf) in rebuiltGlyf { known[position[source]] = glyf }
            let rebuilt = try stream.withUnsafeBytes {
                try rebuild($0, entries: entries, fonts: decodedFonts, collectionVersion: collectionVersion, known: known)
            }
            for (k, e) in entries.enumerated() where e.tag == "head" && e.streamLength >= 12 {
                let at = rebuilt.tableOffsets[k] + 8
                stream.replaceSubrange(e.streamOffset + 8..<e.streamOffset + 12, with: rebuilt.bytes[at..<at + 4])
            }
            let compressed = try brotliCompress(stream, quality: options.quality, window: options.window, text: false, progress: progress)
            let metadata = try extras.metadata.map { try brotliCompress($0, quality: options.quality, window: options.window, text: true) }

            var directory: [UInt8] = []
            for i in order {
                let tag = sources[i].tag
                let known = knownTags.firstIndex(of: tag) ?? 63
                let isTransformed = transformed[i] != nil
                let version: UInt8 = (tag == "glyf" || tag == "loca") ? (isTransformed ? 0 : 3) : (isTransformed ? 1 : 0)
                directory.append(version << 6 | UInt8(known))
                if known == 63 { for k in 0..<4 { directory.append(UInt8(truncatingIfNeeded: tag.rawValue >> (24 - 8 * k))) } }
                directory.appendUIntBase128(originalLength[i] ?? sources[i].length)
                if let stored = transformed[i] { directory.appendUIntBase128(stored.count) }
            }
            if let version = collectionVersion {
                for k in 0..<4 { directory.append(UInt8(truncatingIfNeeded: version >> (24 - 8 * k))) }
                directory.append255UInt16(fonts.count)
                for f in fonts {
                    directory.append255UInt16(f.tables.count)
                    for k in 0..<4 { directory.append(UInt8(truncatingIfNeeded: f.flavor >> (24 - 8 * k))) }
                    for i in outputOrder(f.tables) { directory.append255UInt16(position[i]) }
                }
            }
            let headerSize = collectionVersion.map { 12 + 4 * fonts.count + ($0 == 0x0002_0000 ? 12 : 0) } ?? 0
            let totalSfntSize =
                headerSize + fonts.reduce(0) { $0 + 12 + 16 * $1.tables.count }
                + order.reduce(0) { $0 + (((originalLength[$1] ?? sources[$1].length) + 3) & ~3) }

            // Header, directory, stream padded to 4, metadata (padded when private data follows), private data.
            var offset = (48 + directory.count + compressed.count + 3) & ~3
            let metaOffset = metadata == nil ? 0 : offset
            if let m = metadata { offset += extras.privateData == nil ? m.count : (m.count + 3) & ~3 }
            let privateOffset = extras.privateData == nil ? 0 : offset
            offset += extras.privateData?.count ?? 0
            guard totalSfntSize <= Int(UInt32.max), offset <= Int(UInt32.max) else {
                throw FontError("WOFF2: the font is past the format's 4 GiB")
            }
            var w = BinaryWriter(capacity: offset)
            w.u32(signature); w.u32(collectionVersion == nil ? fonts[0].flavor : collectionFlavor); w.u32(UInt32(offset))
            w.u16(UInt16(order.count)); w.u16(0); w.u32(UInt32(totalSfntSize)); w.u32(UInt32(compressed.count))
            w.u16(UInt16(extras.majorVersion)); w.u16(UInt16(extras.minorVersion))
            w.u32(UInt32(metaOffset)); w.u32(UInt32(metadata?.count ?? 0)); w.u32(UInt32(extras.metadata?.count ?? 0))
            w.u32(UInt32(privateOffset)); w.u32(UInt32(extras.privateData?.count ?? 0))
            w.append(directory)
            w.append(compressed)
            while w.count & 3 != 0 { w.u8(0) }
            if let m = metadata {
                w.append(m)
                if extras.privateData != nil { while w.count & 3 != 0 { w.u8(0) } }
            }
            if let p = extras.privateData { w.append(p) }
            return (w.bytes, notes)
        }
    }

    /// Brotli in font mode (table data) or text mode (the XML metadata). Fed 256 KiB at a time,
    /// so `progress` can be told the bytes taken so far; the stream is the one
    /// `BrotliEncoderCompress` makes (the encoder works in the same blocks however it is fed).
    static func brotliCompress(
        _ data: [UInt8], quality: Int, window: Int, text: Bool,
        progress: SaveProgress? = nil
    ) throws -> [UInt8] {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else { throw FontError("Brotli could not start") }
        defer { BrotliEncoderDestroyInstance(state) }
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, UInt32(quality))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, UInt32(window))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_MODE, UInt32((text ? BROTLI_MODE_TEXT : BROTLI_MODE_FONT).rawValue))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_SIZE_HINT, UInt32(min(data.count, 1 << 30)))
        var out: [UInt8] = []
        out.reserveCapacity(data.count / 2)
        let chunk = 1 << 18
        try data.withUnsafeBufferPointer { input in
            var fed = 0
            repeat {
                let end = min(fed + chunk, data.count)
                let operation = end == data.count ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS
                var availableIn = end - fed
                var nextIn: UnsafePointer<UInt8>? = input.baseAddress.map { $0 + fed } ?? UnsafePointer(bitPattern: 1)
                while true {
                    var availableOut = 0
                    guard BrotliEncoderCompressStream(state, operation, &availableIn, &nextIn, &availableOut, nil, nil) == BROTLI_TRUE
                    else {
                        throw FontError("Brotli could not compress \(data.count) bytes")
                    }
                    var size = 0
                    if let taken = BrotliEncoderTakeOutput(state, &size), size > 0 {
                        out.append(contentsOf: UnsafeBufferPointer(start: taken, count: size))
                    }
                    let finished = operation == BROTLI_OPERATION_FINISH ? BrotliEncoderIsFinished(state) == BROTLI_TRUE : availableIn == 0
                    if finished && BrotliEncoderHasMoreOutput(state) == BROTLI_FALSE { break }
                }
                fed = end
                progress?(fed, data.count)
            } while fed < data.count
        }
        return out
    }
}
