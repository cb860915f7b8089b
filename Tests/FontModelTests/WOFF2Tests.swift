import Foundation
import Testing
@testable import FontModel

/// WOFF2 in and out. Oracles: Google's woff2_compress / woff2_decompress (the reference
/// encoder and decoder), fontTools (tables and glyph outlines) and OTS.
@Suite struct WOFF2Tests {
    static let checker = repositoryRoot.appendingPathComponent("Tests/Oracles/woff2_check.py").path
    static let singles = [Corpus.path("roboto"), Corpus.dejavu, Corpus.path("liberation-sans")]

    /// The reference tools write beside their input: work on a copy in `folder`.
    static func reference(_ tool: String, _ path: String, in folder: TemporaryFolder, as name: String) throws -> String {
        let copy = folder.file(name)
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let r = try run(tool, [copy])
        guard r.status == 0 else { throw FontError("\(tool) \(path): \(r.out) \(r.err)") }
        let ext = tool == "woff2_compress" ? ".woff2" : ".ttf"
        return (copy as NSString).deletingPathExtension + ext
    }

    /// fontTools' comparison of two fonts: tables that differ, glyphs whose outlines differ.
    static func compare(_ a: String, _ b: String, face: Int = 0) throws -> (tables: [String], glyphs: Int, differ: Int, names: [String]) {
        let r = try run("python3", [checker, "same", a, b, String(face)])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any] else {
            throw FontError("woff2_check same: \(r.err.suffix(1000))")
        }
        return (
            json["tables"] as? [String] ?? ["?"], json["glyphs"] as? Int ?? -1, json["glyphsDifferCount"] as? Int ?? -1,
            json["glyphsDiffer"] as? [String] ?? []
        )
    }

    /// Where two byte strings first differ (nil when equal), so a failure prints a number, not megabytes.
    static func firstDifference(_ ours: UnsafeRawBufferPointer, _ path: String) throws -> Int? {
        let theirs = try Data(contentsOf: URL(fileURLWithPath: path))
        if ours.count == theirs.count && ours.elementsEqual(theirs) { return nil }
        if let dump = ProcessInfo.processInfo.environment["FONTSHELL_WOFF2_DUMP"] {
            try Data(ours).write(to: URL(fileURLWithPath: dump + "/" + (path as NSString).lastPathComponent))
        }
        for (i, (a, b)) in zip(ours, theirs).enumerated() where a != b { return i }
        return min(ours.count, theirs.count)
    }

    /// A WOFF2 the reference encoder wrote opens as exactly the bytes the reference decoder
    /// gives: every table, the rebuilt glyf and loca, checksums, head.checkSumAdjustment.
    @Test func decodesAsTheReferenceDecoderDoes() throws {
        let folder = try TemporaryFolder()
        for path in Self.singles {
            let woff2 = try Self.reference("woff2_compress", path, in: folder, as: "ref.ttf")
            let decoded = try Self.reference("woff2_decompress", woff2, in: folder, as: "ref-copy.woff2")
            let font = try Font(path: woff2)
            #expect(font.webFormat == "woff2")
            #expect(try withExtendedLifetime(font) { try Self.firstDifference(font.bytes.buffer, decoded) } == nil, "\(path)")
        }
    }

    /// What FontShell writes: the reference decoder reads it back as fontTools' same tables and
    /// glyph outlines; so does FontShell; OTS accepts it; it is no bigger than the reference
    /// encoder's output, give or take 0.5 %.
    @Test func savedWOFF2IsReadByEveryone() throws {
        let folder = try TemporaryFolder()
        for path in Self.singles {
            let ours = folder.file((path as NSString).lastPathComponent + ".woff2")
            let report = try Font(path: path).save(to: ours)
            #expect(report.container?.contains("glyf/loca transformed") == true, "\(report)")
            let theirs = try Self.reference("woff2_compress", path, in: folder, as: "theirs.ttf")
            #expect(Double(fileSize(ours)) <= Double(fileSize(theirs)) * 1.005, "\(path): \(fileSize(ours)) vs \(fileSize(theirs))")
            let c = try Self.compare(ours, path)
            #expect(c.tables.isEmpty && c.differ == 0 && c.glyphs > 100, "\(path): \(c)")
            let decoded = try Self.reference("woff2_decompress", ours, in: folder, as: "ours-copy.woff2")
            // The font is held while its bytes are read: `buffer` points into memory it owns.
            let reopened = try Font(path: ours)
            #expect(try withExtendedLifetime(reopened) { try Self.firstDifference(reopened.bytes.buffer, decoded) } == nil, "\(path)")
            let (ok, message) = try otsAccepts(ours)
            #expect(ok, "\(path): \(message)")
        }
    }

    /// Where both encoders transform the same way (DejaVu Sans, Roboto; EB Garamond's CFF, not
    /// transformed), FontShell writes the reference encoder's bytes exactly: the same stream,
    /// down to head's flags (bit 11, a lossless transform, in every font) and its
    /// checkSumAdjustment, stored as the rebuilt font will have it (before, ours kept the input's:
    /// a 4-byte difference that also made Brotli take 6 % longer on Roboto).
    @Test func writesTheReferenceEncodersBytes() throws {
        let folder = try TemporaryFolder()
        for id in ["dejavu-sans", "roboto", "eb-garamond"] {
            let path = try #require(Corpus.fonts.first { $0.id == id }?.path)
            let ours = folder.file(id + ".woff2")
            _ = try Font(path: path).save(to: ours)
            let theirs = try Self.reference("woff2_compress", path, in: folder, as: id + ".ttf")
            #expect(FileManager.default.contents(atPath: ours) == FileManager.default.contents(atPath: theirs), "\(id)")
        }
    }

    /// Collections: a TTC fontTools built (shared tables) goes through the reference encoder and
    /// decodes to the reference decoder's bytes; FontShell's own WOFF2 of it, and of wqy-zenhei
    /// (which woff2_compress cannot parse), decode in the reference decoder to the same faces.
    @Test func collectionsBothWays() throws {
        let folder = try TemporaryFolder()
        let ttc = folder.file("dejavu.ttc")
        let made = try run(
            "python3", [Self.checker, "collection", ttc, Corpus.dejavu, "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"])
        #expect(made.status == 0, "\(made.err)")
        let theirs = try Self.reference("woff2_compress", ttc, in: folder, as: "theirs.ttc")
        let reference = try Self.reference("woff2_decompress", theirs, in: folder, as: "theirs-copy.woff2")
        let font = try Font(path: theirs)
        #expect(font.faces.count == 2 && font.webFormat == "woff2")
        #expect(try withExtendedLifetime(font) { try Self.firstDifference(font.bytes.buffer, reference) } == nil)

        for (source, quality) in [(ttc, 11), (Corpus.wqy, 1)] {
            let ours = folder.file((source as NSString).lastPathComponent + ".woff2")
            let original = try Font(path: source)
            try original.save(to: ours, options: SaveOptions(woff2: WOFF2Options(quality: quality)))
            let decoded = try Self.reference("woff2_decompress", ours, in: folder, as: "ours-copy.woff2")
            let again = try Font(path: ours)
            #expect(try withExtendedLifetime(again) { try Self.firstDifference(again.bytes.buffer, decoded) } == nil, "\(source)")
            #expect(again.faces.count == original.faces.count)
            // Shared tables stay shared (wqy-zenhei: one glyf for three faces).
            func distinctGlyf(_ font: Font) -> Int { Set(font.faces.compactMap { $0.slots["glyf"].map(ObjectIdentifier.init) }).count }
            #expect(distinctGlyf(again) == distinctGlyf(original), "\(source)")
            for face in [0, original.faces.count - 1] {
                let c = try Self.compare(decoded, source, face: face)
                #expect(c.tables.isEmpty && c.differ == 0, "\(source) face \(face): \(c)")
            }
            #expect(try otsAccepts(ours, face: 0).0)
        }
    }

    /// Metadata and private data survive WOFF2 → WOFF2 and WOFF2 → WOFF → WOFF2; fontTools reads them.
    @Test func metadataAndPrivateDataTravel() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Corpus.path("roboto"))
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><metadata version="1.0"><uniqueid id="fontshell.woff2"/></metadata>"#
        font.webExtras = WebFontExtras(majorVersion: 3, minorVersion: 7, metadata: Array(xml.utf8), privateData: Array("secret".utf8))
        try font.save(to: folder.file("a.woff2"))
        try Font(path: folder.file("a.woff2")).save(to: folder.file("b.woff"))
        try Font(path: folder.file("b.woff")).save(to: folder.file("c.woff2"))
        let last = try Font(path: folder.file("c.woff2"))
        #expect(last.webExtras == font.webExtras)
        let r = try run("python3", [Self.checker, "extras", folder.file("c.woff2")])
        #expect(r.out == "woff2\n\(xml)\nsecret\n", "\(r.out) \(r.err)")
        #expect(try otsAccepts(folder.file("c.woff2")).0)
    }

    /// The options: quality and window are checked; a fast quality is bigger; no transform
    /// stores glyf as it is; an explicit format must agree with the extension.
    @Test func optionsAreHonoured() throws {
        let font = try Font(path: Corpus.dejavu)
        let best = try font.serialized(format: .woff2).bytes.count
        let fast = try font.serialized(format: .woff2, woff2: WOFF2Options(quality: 2)).bytes.count
        let plain = try font.serialized(format: .woff2, woff2: WOFF2Options(transformGlyphs: false))
        #expect(fast > best && plain.bytes.count > best)
        #expect(plain.report.container?.contains("transformed") == false)
        #expect(try Font(data: plain.bytes).faces[0].rawTable("glyf") == (try font.faces[0].rawTable("glyf")))
        #expect { try font.serialized(format: .woff2, woff2: WOFF2Options(quality: 12)) } throws: { "\($0)".contains("0...11") }
        #expect { try font.serialized(format: .woff2, woff2: WOFF2Options(window: 30)) } throws: { "\($0)".contains("10...24") }
        let folder = try TemporaryFolder()
        #expect { try font.save(to: folder.file("x.ttf"), options: SaveOptions(format: .woff2)) } throws: {
            "\($0)".contains("make them agree")
        }
        try font.save(to: folder.file("x.webfont"), options: SaveOptions(format: .woff2))
        #expect(try Font(path: folder.file("x.webfont")).webFormat == "woff2")
    }

    // MARK: bad input

    /// A WOFF2 put together by hand: header, directory bytes, optional collection directory,
    /// Brotli-compressed table data.
    static func handmade(
        flavor: UInt32 = 0x0001_0000, numTables: Int, directory: [UInt8], collection: [UInt8] = [],
        tables: [UInt8], declaredLength: Int? = nil
    ) throws -> [UInt8] {
        let compressed = try WOFF2.brotliCompress(tables, quality: 5, window: 22, text: false)
        var w = BinaryWriter()
        let length = (48 + directory.count + collection.count + compressed.count + 3) & ~3
        w.u32(WOFF2.signature); w.u32(flavor); w.u32(UInt32(declaredLength ?? length)); w.u16(UInt16(numTables)); w.u16(0)
        w.u32(0); w.u32(UInt32(compressed.count)); w.u16(1); w.u16(0)
        for _ in 0..<5 { w.u32(0) }
        w.append(directory); w.append(collection); w.append(compressed)
        while w.count & 3 != 0 { w.u8(0) }
        return w.bytes
    }

    static func refused(_ bytes: [UInt8], _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) { _ = try Font(data: bytes, name: "bad.woff2") } throws: {
            "\($0)".contains(text) && "\($0)".contains("bad.woff2")
        }
    }

    /// Lying headers and directories, a Brotli stream longer or shorter than declared, a bomb,
    /// a collection pointing outside its directory: each an error naming it.
    @Test func lyingWOFF2FilesAreRefused() throws {
        let good = try Font(path: Corpus.path("roboto")).serialized(format: .woff2).bytes
        #expect(try Font(data: good).faces[0].postScriptName == "Roboto-Regular")
        Self.refused(Array(good.prefix(40)), "shorter than its 48-byte header")
        Self.refused(Array(good.prefix(good.count - 64)), "the header says the file is")

        // One arbitrary-tag table ('zzzz', 10 bytes) to play with.
        let tag: [UInt8] = [0x3F, 0x7A, 0x7A, 0x7A, 0x7A]
        let tenBytes = [UInt8](repeating: 7, count: 10)
        Self.refused(try Self.handmade(numTables: 1, directory: tag + [8], tables: tenBytes), "decompresses past the 8 bytes")
        Self.refused(try Self.handmade(numTables: 1, directory: tag + [12], tables: tenBytes), "decompresses to 10 bytes, not the 12")
        Self.refused(
            try Self.handmade(numTables: 1, directory: tag + [0x80, 0x0A], tables: tenBytes), "UIntBase128 starts with a zero byte")
        Self.refused(
            try Self.handmade(numTables: 1, directory: tag + [0x8F, 0xFF, 0xFF, 0xFF, 0x7F], tables: tenBytes), "decompression bomb")
        // A million zeros compress to a few bytes; declared honestly it is still past 100:1.
        Self.refused(
            try Self.handmade(numTables: 1, directory: tag + [0xBD, 0x84, 0x40], tables: [UInt8](repeating: 0, count: 1_000_000)),
            "decompression bomb")
        Self.refused(try Self.handmade(numTables: 1, directory: [0x7F, 0x7A, 0x7A, 0x7A, 0x7A, 10], tables: tenBytes), "transform 1")
        // Collections: an index past the directory, a font without tables.
        let ttc: UInt32 = 0x7474_6366
        Self.refused(
            try Self.handmade(
                flavor: ttc, numTables: 1, directory: tag + [10], collection: [0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 5], tables: tenBytes),
            "points at table 5; the directory has 1")
        Self.refused(
            try Self.handmade(
                flavor: ttc, numTables: 1, directory: tag + [10], collection: [0, 1, 0, 0, 1, 0, 0, 1, 0, 0], tables: tenBytes),
            "collection font 0 has no tables")
        Self.refused(
            try Self.handmade(flavor: ttc, numTables: 1, directory: tag + [10], collection: [0, 3, 0, 0, 1], tables: tenBytes),
            "collection version 0x30000")

        // 65,535 distinct tables in a 400 KB directory: checked in linear time (the duplicate
        // check was quadratic: minutes), then refused for holding no data.
        var many: [UInt8] = []
        for k in 0..<65_535 { many += [0x3F, 0x41, 0x41, UInt8(k >> 8), UInt8(k & 0xFF), 0] }
        Self.refused(try Self.handmade(numTables: 65_535, directory: many, tables: tenBytes), "the tables add up to no bytes")

        // Damaged Brotli data and random damage anywhere: an error or a font, never a crash.
        var damaged = good
        for k in 200..<260 { damaged[k] ^= 0xA5 }
        #expect(throws: FontError.self) { _ = try Font(data: damaged) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<150 {
            var bytes = good
            for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let font = try? Font(data: bytes) { _ = try? font.faces[0].postScriptName }
        }
    }

    /// A transformed glyf whose streams lie: sizes past the table, a composite without a box,
    /// an empty glyph with one, loca disagreeing; and random damage to the streams.
    @Test func lyingTransformedGlyfIsRefused() throws {
        let face = try Font(path: Corpus.dejavu).faces[0]
        let glyf = try face.rawTable("glyf")!, loca = try face.rawTable("loca")!
        let numGlyphs = try face.glyphCount
        let indexFormat = Int(try face.rawTable("head")![51])
        let transformed = try glyf.withUnsafeBytes { g in
            try loca.withUnsafeBytes { l in
                try WOFF2Glyphs.transform(glyf: g, loca: l, numGlyphs: numGlyphs, indexFormat: indexFormat)
            }
        }
        let locaLength = (indexFormat == 0 ? 2 : 4) * (numGlyphs + 1)
        func rebuild(_ bytes: [UInt8], locaLength: Int = locaLength) throws -> WOFF2Glyphs.Reconstructed {
            try bytes.withUnsafeBytes { try WOFF2Glyphs.reconstruct($0, locaLength: locaLength) }
        }
        let good = try rebuild(transformed)
        #expect(good.numGlyphs == numGlyphs && good.glyf.count >= glyf.count / 2)
        func expectError(_ bytes: [UInt8], _ text: String, locaLength: Int = locaLength, sourceLocation: SourceLocation = #_sourceLocation)
        {
            #expect(sourceLocation: sourceLocation) { _ = try rebuild(bytes, locaLength: locaLength) } throws: { "\($0)".contains(text) }
        }
        expectError(Array(transformed.prefix(20)), "header is cut short")
        expectError(transformed, "loca claims", locaLength: locaLength + 2)
        var bytes = transformed
        bytes[12] = 0x7F   // the point count stream's size: far past the table
        expectError(bytes, "point count stream")
        bytes = transformed
        bytes[6] = 0; bytes[7] = 7
        expectError(bytes, "index format 7")
        // The bounding-box bitmap: glyph 0 (.notdef, simple, box implied) said to have one, so
        // every box read after it is shifted; clear every bit and a composite has none.
        let streamSizes = (0..<7).map { k in (0..<4).reduce(0) { $0 << 8 | Int(transformed[8 + 4 * k + $1]) } }
        let bitmapAt = 36 + streamSizes[0..<5].reduce(0, +)
        bytes = transformed
        for k in 0..<(((numGlyphs + 31) >> 5) << 2) { bytes[bitmapAt + k] = 0 }
        expectError(bytes, "composite glyph must have an explicit bounding box")
        bytes = transformed
        bytes[bitmapAt] |= 0x40   // glyph 1: empty in DejaVu (.null)
        #expect(try face.glyphNames()[1] == ".null")
        expectError(bytes, "glyph 1: an empty glyph has a bounding box")
        // A contour of 65,536 points (flags repeated, no coordinate bytes) cannot be counted in
        // WOFF2's 16 bits: an error, not a trap.
        var huge = BinaryWriter()
        huge.i16(1); for _ in 0..<4 { huge.i16(0) }
        huge.u16(0xFFFF); huge.u16(0)
        for _ in 0..<256 { huge.u8(0x39); huge.u8(255) }
        let hugeLoca: [UInt8] = [0, 0, 0, 0] + [0, 0, UInt8(huge.count >> 8), UInt8(huge.count & 0xFF)]
        #expect {
            try huge.bytes.withUnsafeBytes { g in
                try hugeLoca.withUnsafeBytes { l in
                    try WOFF2Glyphs.transform(glyf: g, loca: l, numGlyphs: 1, indexFormat: 1)
                }
            }
        } throws: { "\($0)".contains("65536 points") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var damaged = transformed
            for _ in 0..<3 { damaged[Int.random(in: 36..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = try? rebuild(damaged)
        }
    }
}
