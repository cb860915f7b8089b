import Foundation
import Testing
@testable import FontModel

/// Real fonts broken on purpose: each must give a FontError naming where and what, never a crash.
@Suite struct MalformedFontTests {
    static let dejavu: [UInt8] = Array((try? Data(contentsOf: URL(fileURLWithPath: Corpus.dejavu))) ?? Data())

    /// (offset, length) of a table in the DejaVu directory.
    static func record(_ tag: FontModel.Tag, in bytes: [UInt8]) -> (recordAt: Int, offset: Int, length: Int)? {
        let n = Int(bytes[4]) << 8 | Int(bytes[5])
        for i in 0..<n {
            let at = 12 + 16 * i
            let t = UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
            func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
            if t == tag.rawValue { return (at, u32(at + 8), u32(at + 12)) }
        }
        return nil
    }

    static func put32(_ v: Int, _ bytes: inout [UInt8], at o: Int) {
        bytes[o] = UInt8((v >> 24) & 0xFF); bytes[o + 1] = UInt8((v >> 16) & 0xFF); bytes[o + 2] = UInt8((v >> 8) & 0xFF);
        bytes[o + 3] = UInt8(v & 0xFF)
    }
    static func put16(_ v: Int, _ bytes: inout [UInt8], at o: Int) {
        bytes[o] = UInt8((v >> 8) & 0xFF); bytes[o + 1] = UInt8(v & 0xFF)
    }

    /// Opens the bytes and uses every part of the model that reads data: tables, glyphs, names, save.
    static func exercise(_ bytes: [UInt8]) throws {
        let font = try Font(data: bytes, name: "broken.ttf")
        for face in font.faces {
            _ = try face.head; _ = try face.hhea; _ = try face.maxp; _ = try face.name; _ = try face.hmtx
            _ = try face.cmap?.bestUnicodeSubtable()?.mapping()
            _ = try face.glyphNames()
            if let glyf = try face.glyf {
                for id in 0..<glyf.glyphCount { _ = try glyf.glyph(id) }
                _ = try glyf.statistics()
            }
            try makeAllCaps(face)
        }
        _ = try font.serialized()
    }

    static func expectError(_ bytes: [UInt8], containing words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try exercise(bytes)
            Issue.record("no error for a broken font", sourceLocation: sourceLocation)
        } catch let e as FontError {
            let text = e.description
            #expect(text.hasPrefix("broken.ttf"), "\(text)", sourceLocation: sourceLocation)
            for w in words { #expect(text.contains(w), "'\(w)' missing in: \(text)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func truncatedFiles() {
        for length in [0, 3, 11, 100, 400, Self.dejavu.count / 2, Self.dejavu.count - 1] {
            Self.expectError(Array(Self.dejavu.prefix(length)), containing: [])
        }
    }

    @Test func unsupportedFormatsAreNamed() throws {
        // WOFF and WOFF2 are read (WOFFTests, WOFF2Tests); one whose header lies is named as such.
        do {
            _ = try Font(data: Array("wOFF".utf8) + [UInt8](repeating: 0, count: 64), name: "broken.woff");
            Issue.record("accepted a WOFF of zeros")
        } catch let e as FontError { #expect(e.description.contains("WOFF: the header says the file is 0 bytes")) }
        do {
            _ = try Font(data: Array("wOF2".utf8) + [UInt8](repeating: 0, count: 64), name: "broken.woff2");
            Issue.record("accepted a WOFF2 of zeros")
        } catch let e as FontError { #expect(e.description.contains("WOFF2: the header says the file is 0 bytes")) }
        for (magic, word) in [("typ1", "Type 1"), ("%!PS-AdobeFont-1.0", "Type 1")] {
            do {
                _ = try Font(data: Array(magic.utf8) + [UInt8](repeating: 0, count: 64), name: "broken.ttf");
                Issue.record("accepted \(magic)")
            } catch let e as FontError { #expect(e.description.contains(word) && e.description.contains("not supported")) }
        }
        do {
            _ = try Font(data: [0, 0, 1, 0] + [UInt8](repeating: 0, count: 64), name: "broken.ttf"); Issue.record("accepted dfont")
        } catch let e as FontError { #expect(e.description.contains("dfont")) }
    }

    @Test func tableOffsetPastTheEnd() throws {
        var b = Self.dejavu
        let glyf = try #require(Self.record("glyf", in: b))
        Self.put32(b.count + 100, &b, at: glyf.recordAt + 8)
        Self.expectError(b, containing: ["glyf", "past the end"])
    }

    @Test func overlappingTables() throws {
        var b = Self.dejavu
        let hmtx = try #require(Self.record("hmtx", in: b))
        let glyf = try #require(Self.record("glyf", in: b))
        Self.put32(glyf.offset + 8, &b, at: hmtx.recordAt + 8)
        Self.expectError(b, containing: ["overlaps"])
    }

    @Test func tableInsideTheDirectory() throws {
        var b = Self.dejavu
        let gasp = try #require(Self.record("gasp", in: b))
        Self.put32(16, &b, at: gasp.recordAt + 8)
        Self.expectError(b, containing: ["gasp", "overlaps the table directory"])
    }

    @Test func locaRunningBackwards() throws {
        var b = Self.dejavu
        let loca = try #require(Self.record("loca", in: b))
        // Long loca (DejaVu uses format 1): make glyph 5 start after glyph 6.
        Self.put32(0x7FFF_FF00, &b, at: loca.offset + 4 * 5)
        Self.expectError(b, containing: ["loca", "runs backwards"])
    }

    @Test func compositeReferencingItself() throws {
        var b = Self.dejavu
        let font = try Font(data: b)
        let face = font.faces[0]
        let id = try #require(try face.glyphID(for: "\u{C1}"))
        let glyf = try #require(Self.record("glyf", in: b)), loca = try #require(Self.record("loca", in: b))
        let start = try #require(try face.table(LocaTable.self)).offsets[id]
        // First component's glyph index sits after numberOfContours, bbox and flags.
        Self.put16(id, &b, at: glyf.offset + start + 12)
        Self.expectError(b, containing: ["glyf", "references itself"])
    }

    @Test func compositesNestingTooDeep() throws {
        let font = try Font(path: Corpus.dejavu)
        let glyf = try #require(try font.faces[0].glyf)
        // A chain of 40 composites, each using the next.
        for id in 1...40 {
            try glyf.setGlyphData(
                id,
                try TrueTypeGlyph(components: [GlyphComponent(glyphID: id + 1, arg1: 0, arg2: 0)]).encode(
                    compositeBounds: GlyphBounds(xMin: 0, yMin: 0, xMax: 1, yMax: 1)))
        }
        #expect(throws: FontError.self) { try glyf.statistics() }
        do { _ = try glyf.statistics() } catch let e as FontError { #expect(e.message.contains("deeper")) }
    }

    @Test func countsThatWouldOverflow() throws {
        var b = Self.dejavu
        Self.put16(0xFFFF, &b, at: 4)   // numTables
        Self.expectError(b, containing: ["more than the file can hold"])
        var c = Self.dejavu
        let name = try #require(Self.record("name", in: c))
        Self.put16(0xFFFF, &c, at: name.offset + 2)   // name record count
        Self.expectError(c, containing: ["name"])
        var d = Self.dejavu
        let hhea = try #require(Self.record("hhea", in: d))
        Self.put16(0, &d, at: hhea.offset + 34)   // numberOfHMetrics = 0
        Self.expectError(d, containing: ["hmtx", "numberOfHMetrics"])
    }

    @Test func randomCorruptionNeverCrashes() {
        // Deterministic pseudo-random byte flips across the file: any outcome but a crash is fine.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        for _ in 0..<60 {
            var b = Self.dejavu
            for _ in 0..<8 { b[next() % min(b.count, 4096 + next() % b.count)] = UInt8(next() & 0xFF) }
            _ = try? Self.exercise(b)
        }
    }
}
