import Foundation
import Testing
@testable import FontModel

/// WOFF 1.0 in and out, with fontTools and OTS as the oracles, and lying WOFF files.
@Suite struct WOFFTests {
    /// fontTools' table bytes of a font, by tag, as hex (it decompresses WOFF itself).
    static func fontToolsTables(_ path: String) throws -> [String: String] {
        let r = try run(
            "python3",
            [
                "-c",
                """
                import sys, json
                from fontTools.ttLib import TTFont
                f = TTFont(sys.argv[1])
                json.dump({t: f.reader[t].hex() for t in f.reader.keys()}, sys.stdout)
                """, path,
            ])
        guard r.status == 0 else { throw FontError("fontTools: \(r.err.suffix(500))") }
        return try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: String] ?? [:]
    }

    /// A WOFF fontTools wrote (with metadata and private data) opens as its sfnt, and saving it
    /// as WOFF again keeps the tables, the metadata and the private data.
    @Test func fontToolsWOFFOpensAndRoundTrips() throws {
        let folder = try TemporaryFolder()
        let theirs = folder.file("theirs.woff"), ours = folder.file("ours.woff")
        let made = try run(
            "python3",
            [
                "-c",
                """
                import sys
                from fontTools.ttLib import TTFont
                from fontTools.ttLib.woff2 import WOFFFlavorData
                f = TTFont(sys.argv[1]); f.flavor = "woff"
                f.flavorData = WOFFFlavorData()
                f.flavorData.metaData = b'<?xml version="1.0" encoding="UTF-8"?><metadata version="1.0"><uniqueid id="fontshell.test"/></metadata>'
                f.flavorData.privData = b"private bytes"
                f.save(sys.argv[2])
                """, Corpus.dejavu, theirs,
            ])
        #expect(made.status == 0, "\(made.err)")
        let font = try Font(path: theirs)
        #expect(font.webFormat == "woff")
        let expected = try Self.fontToolsTables(theirs)
        for tag in font.faces[0].tags {
            #expect(
                try font.faces[0].rawTable(tag).map { $0.map { String(format: "%02x", $0) }.joined() } == expected[tag.description],
                "\(tag)")
        }
        #expect(try font.faces[0].postScriptName == "DejaVuSans")
        try font.save(to: ours)
        let check = try run(
            "python3",
            [
                "-c",
                """
                import sys
                from fontTools.ttLib import TTFont
                f = TTFont(sys.argv[1])
                print(f.flavor, f.flavorData.metaData.decode(), f.flavorData.privData.decode())
                """, ours,
            ])
        #expect(
            check.out.hasPrefix("woff <?xml") && check.out.contains("fontshell.test") && check.out.hasSuffix("private bytes\n"),
            "\(check.out) \(check.err)")
        #expect(try Self.fontToolsTables(ours) == expected)
        #expect(try otsAccepts(ours).0)
    }

    /// An sfnt saved as .woff: fontTools reads the same tables, OTS accepts it, it is smaller,
    /// and it opens again as the same font. A collection is refused (WOFF holds one font).
    @Test func savingAsWOFF() throws {
        let folder = try TemporaryFolder()
        for path in [Corpus.dejavu, Corpus.path("roboto")] {
            let out = folder.file((path as NSString).lastPathComponent + ".woff")
            try Font(path: path).save(to: out)
            #expect(try Self.fontToolsTables(out) == Self.fontToolsTables(path), "\(path)")
            let (ok, message) = try otsAccepts(out)
            #expect(ok, "\(message)")
            #expect(fileSize(out) < fileSize(path))
            let again = try Font(path: out)
            #expect(try again.faces[0].rawTable("glyf") == (try Font(path: path).faces[0].rawTable("glyf")))
        }
        #expect { try Font(path: Corpus.wqy).save(to: folder.file("c.woff")) } throws: { "\($0)".contains("WOFF holds one font") }
        let font = try Font(path: Corpus.dejavu)
        font.webExtras = WebFontExtras(majorVersion: 70000)
        #expect { try font.save(to: folder.file("v.woff")) } throws: { "\($0)".contains("UInt16") }
    }

    /// Lying WOFF files are errors naming what is wrong, never a crash or a huge allocation.
    @Test func lyingWOFFFilesAreRefused() throws {
        let good = try Font(path: Corpus.dejavu)
        var woff = try WOFF.encode(try good.serialized().bytes, extras: nil)
        func u32(_ at: Int) -> Int { woff[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func put(_ at: Int, _ v: Int) { for k in 0..<4 { woff[at + k] = UInt8(v >> (24 - 8 * k) & 0xFF) } }
        func refused(_ bytes: [UInt8], _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(sourceLocation: sourceLocation) { _ = try Font(data: bytes, name: "bad.woff") } throws: { "\($0)".contains(text) }
        }
        #expect(try Font(data: woff).faces[0].postScriptName == "DejaVuSans")
        refused(Array(woff.prefix(30)), "shorter than its 44-byte header")
        refused(Array(woff.prefix(woff.count - 100)), "the header says the file is")
        // The first table (by directory): its stored bytes corrupted, its claimed size changed.
        let entry = 44, offset = u32(entry + 4), compLength = u32(entry + 8), origLength = u32(entry + 12)
        #expect(compLength < origLength)
        var damaged = woff
        for k in 8..<min(40, compLength) { damaged[offset + k] ^= 0x5A }
        refused(damaged, "WOFF table")
        let saved = woff
        put(entry + 12, compLength * 2000)
        refused(woff, "more than zlib can give")
        woff = saved
        put(entry + 12, origLength + 10)
        refused(woff, "expands to")
        woff = saved
        put(entry + 8, origLength + 10)
        refused(woff, "more than its")
        woff = saved
        put(entry + 4, woff.count)
        refused(woff, "lies outside the file")
        woff = saved
        // Two tables' stored bytes overlapping (the second entry pointed into the first's).
        put(entry + 20 + 4, offset + 4)
        refused(woff, "overlaps table")
        woff = saved
        // Every table claiming up to zlib's ratio: gigabytes from a 400 KB file, refused before
        // anything is allocated; within the total bound but lying, refused by what zlib gives.
        let numTables = Int(woff[12]) << 8 | Int(woff[13])
        for k in 0..<numTables { put(entry + 20 * k + 12, max(u32(entry + 20 * k + 8), 1) * 1000) }
        refused(woff, "decompression bomb")
        woff = saved
        put(entry + 12, compLength * 90)
        refused(woff, "expands to \(origLength) bytes, not the")
        woff = saved
        // Random damage anywhere: an error or a font, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = saved
            for _ in 0..<6 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let font = try? Font(data: bytes) { _ = try? font.faces[0].postScriptName }
        }
    }
}
