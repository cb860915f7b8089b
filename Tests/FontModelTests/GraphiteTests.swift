import Foundation
import Testing
@testable import FontModel

/// The Graphite tables (Feat, Sill, Glat/Gloc, Silf) on the SIL fonts Scripts/bootstrap installs:
/// every version the model reads (Silf 2, 3, 4, 5 plain and LZ4-compressed; Glat 1 and 3 with
/// octaboxes; Feat 1 and 2; Gloc with attribute names).
@Suite struct GraphiteTests {
    static let fonts = [
        "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf",   // Silf 5, Glat 3 with octaboxes
        "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf",   // Silf 5.1 and Glat 3, LZ4-compressed
        "/usr/share/fonts/truetype/harmattan/Harmattan-Regular.ttf",   // Silf 4.1, Glat 3
        "/usr/share/fonts/truetype/abyssinica/AbyssinicaSIL-Regular.ttf",   // Silf 4
        "/usr/share/fonts/truetype/dai-banna/DBSILBR.ttf",   // Silf 3, Feat 1
        "/usr/share/fonts/truetype/scheherazade/Scheherazade-Regular.ttf",   // Silf 2.1 with pseudo-glyphs
        "/usr/share/fonts/truetype/gentium-basic/GenBasR.ttf",   // Silf 2, Feat 1
    ]

    static func read<T: DecodableTable>(_ type: T.Type, _ bytes: [UInt8], _ face: Face) throws -> T {
        try bytes.withUnsafeBytes { try T.decode(BinaryReader($0), face: face) }
    }

    /// Each table reads, writes, and reads back the same; unedited, the encoding is the
    /// font's own byte for byte wherever the compiler laid it out as the format implies.
    @Test(arguments: fonts) func everyTableRoundTrips(path: String) throws {
        let face = try Font(path: path).faces[0]
        var sameBytes: [String] = []
        func check<T: DecodableTable & Equatable>(_ type: T.Type) throws {
            guard let original = try face.rawTable(T.tableTag) else { Issue.record("\(path) has no \(T.tableTag)"); return }
            let table = try Self.read(T.self, original, face)
            let encoded = try table.encode()
            #expect(try Self.read(T.self, encoded, face) == table, "\(path) \(T.tableTag)")
            if encoded == original { sameBytes.append(T.tableTag.description) }
        }
        try check(FeatTable.self); try check(GlocTable.self); try check(GlatTable.self); try check(SilfTable.self)
        if face.has("Sill") { try check(SillTable.self) }
        // Written as the Graphite compiler lays them out, uncompressed tables come back byte for
        // byte: Gloc and Glat always, Silf since version 3 (older compilers wrote 0 for a pass's
        // fsmOffset). Feat is not (the compiler adds a stray setting after the last list), nor
        // Awami's empty Sill, whose search fields and closing record are not the usual ones.
        #expect(sameBytes.contains("Gloc"), "\(path): byte-identical \(sameBytes)")
        if try face.table(GlatTable.self)?.compression == 0 { #expect(sameBytes.contains("Glat"), "\(path): \(sameBytes)") }
        if let silf = try face.table(SilfTable.self), silf.version >= 0x0003_0000, silf.compression == 0 {
            #expect(sameBytes.contains("Silf"), "\(path): \(sameBytes)")
        }
    }

    @Test func readsWhatTheFontSays() throws {
        let padauk = try Font(path: Self.fonts[0]).faces[0]
        let glyphCount = try padauk.glyphCount
        let silf = try #require(try padauk.table(SilfTable.self))
        #expect(silf.version == 0x0005_0000 && silf.subtables.count == 1)
        let s = silf.subtables[0]
        #expect(s.passes.count >= 3 && s.scalar("maxGlyphID") >= glyphCount - 1)
        // Every rule's programs disassemble and assemble back to the same bytes.
        for p in s.passes {
            for r in p.rules {
                #expect(try SilfCode.assemble(try SilfCode.disassemble(r.action)) == r.action)
                #expect(try SilfCode.assemble(try SilfCode.disassemble(r.constraint)) == r.constraint)
            }
            #expect(p.transitions.allSatisfy { $0.count == Int(p.machine[3]) })
        }
        let glat = try #require(try padauk.table(GlatTable.self))
        // Gloc indexes a few more glyphs than the font has (glyph00782 … in ttx's dump).
        #expect(
            glat.glyphs.count == (try padauk.table(GlocTable.self)?.locations.count ?? 0) - 1 && glat.glyphs.count >= glyphCount
                && glat.hasOctaboxes)
        let feat = try #require(try padauk.table(FeatTable.self))
        #expect(feat.features.allSatisfy { (try? padauk.name.string(Int($0.label))) != nil })
        // Awami's compressed tables expand to what they claim.
        let awami = try Font(path: Self.fonts[1]).faces[0]
        #expect(try awami.table(SilfTable.self)?.compression == 1)
        let awamiGlyphs = try awami.glyphCount
        #expect(try awami.table(GlatTable.self)?.glyphs.count ?? 0 >= awamiGlyphs)
    }

    @Test func lz4RoundTripsAndRefusesDamage() throws {
        var random = SystemRandomNumberGenerator()
        for size in [0, 1, 5, 12, 13, 100, 70_000] {
            // Half repetitive, half noise: both literal runs and matches, long ones too.
            let data = (0..<size).map { i in i % 2000 < 1000 ? UInt8(i % 7) : UInt8.random(in: 0...255, using: &random) }
            let packed = LZ4.compress(data)
            #expect(try LZ4.decompress(packed, size: data.count) == data, "\(size) bytes")
        }
        let packed = LZ4.compress(Array(repeating: 9, count: 1000))
        #expect(packed.count < 30)
        #expect(throws: FontError.self) { try LZ4.decompress(packed, size: 999) }   // expands to more than claimed
        #expect(throws: FontError.self) { try LZ4.decompress(packed, size: 1001) }   // or to less
        #expect(throws: FontError.self) { try LZ4.decompress([0x0F, 1, 0, 0xFF], size: 100) }   // a match before anything was written
        #expect(throws: FontError.self) { try LZ4.decompress([0xF0, 0xFF, 0xFF], size: 1000) }   // ends inside a length
    }

    /// A damaged table is an error naming what is wrong, never a crash: every Graphite table of
    /// a small font cut at every length, and with each byte changed, reads or throws.
    @Test func damagedTablesAreErrors() throws {
        let face = try Font(path: Self.fonts[4]).faces[0]
        func survive<T: DecodableTable>(_ type: T.Type) throws {
            let original = try #require(try face.rawTable(T.tableTag))
            let step = max(1, original.count / 400)
            for cut in stride(from: 0, to: original.count, by: step) {
                _ = try? Self.read(T.self, Array(original[..<cut]), face)
                var changed = original
                changed[cut] ^= 0xA5
                if let table = try? Self.read(T.self, changed, face) { _ = try? table.encode() }
            }
        }
        try survive(FeatTable.self); try survive(SillTable.self); try survive(GlocTable.self); try survive(GlatTable.self);
        try survive(SilfTable.self)
        // A Silf claiming an enormous compressed size is refused before anything is allocated.
        var huge: [UInt8] = [0, 5, 0, 0, 0x0F, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 16)
        #expect(throws: FontError.self) { try Self.read(SilfTable.self, huge, face) }
        huge[4] = 0x17   // scheme 2 is not defined
        #expect(throws: FontError.self) { try Self.read(SilfTable.self, huge, face) }
    }
}
