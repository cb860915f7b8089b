import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// EBLC/EBDT and CBLC/CBDT: the pair read and written as one, in TTX both ways; damaged
/// tables and bad XML are clear errors. (Parity with ttx: fontshellTests' TTXParityTests.)
@Suite struct EmbeddedBitmapsTests {
    typealias Bitmaps = EmbeddedBitmaps

    static let line = Bitmaps.ByteRecord(.lineMetrics, values: [9, -3, 12, 1, 1, 0, 0, 0, 0, 0, 0, 0])
    static let small = Bitmaps.ByteRecord(.smallGlyphMetrics, values: [8, 6, 0, 7, 7])
    static let big = Bitmaps.ByteRecord(.bigGlyphMetrics, values: [8, 6, 0, 7, 7, -3, 0, 9])

    /// Composites (8, 9) beside plain images (1, 5 in a fixed-size subtable), over four index formats.
    static var mono: Bitmaps {
        var strike = Bitmaps.Strike(hori: line, vert: line, ppemX: 12, ppemY: 12, bitDepth: 1, flags: 1)
        strike.indexSubtables = [
            .init(indexFormat: 1, imageFormat: 1, glyphIDs: [3, 5]),
            .init(indexFormat: 5, imageFormat: 5, imageSize: 3, metrics: big, glyphIDs: [7, 9]),
            .init(indexFormat: 3, imageFormat: 8, glyphIDs: [20]),
            .init(indexFormat: 4, imageFormat: 9, glyphIDs: [21, 30]),
        ]
        strike.glyphs = [
            3: .init(imageFormat: 1, metrics: small, imageData: [0xF0, 0x0F]), 5: .init(imageFormat: 1, metrics: small, imageData: [1]),
            7: .init(imageFormat: 5, imageData: [1, 2, 3]), 9: .init(imageFormat: 5, imageData: [4, 5, 6]),
            20: .init(
                imageFormat: 8, metrics: small,
                components: [.init(glyph: 3, xOffset: 0, yOffset: -1), .init(glyph: 5, xOffset: 4, yOffset: 2)]),
            21: .init(imageFormat: 9, metrics: big, components: [.init(glyph: 7, xOffset: -2, yOffset: 0)]),
            30: .init(imageFormat: 9, metrics: big, components: []),
        ]
        strike.glyphOrder = [3, 5, 7, 9, 20, 21, 30]
        return Bitmaps(kind: .monochrome, locatorVersion: 0x20000, dataVersion: 0x20000, strikes: [strike])
    }

    static func face() throws -> (Font, Face) {
        let font = try Font(path: try #require(corpus["dejavu-sans"]))
        return (font, font.faces[0])
    }

    @Test func compositesRoundTripThroughTTX() throws {
        let (_, face) = try Self.face()
        try Self.mono.write(to: face)
        let read = try #require(try Bitmaps.read(from: face, .monochrome))
        #expect(read.strikes[0].glyphs == Self.mono.strikes[0].glyphs)
        #expect(read.strikes[0].glyphOrder == Self.mono.strikes[0].glyphOrder)
        // first/last glyph and the strike's range are recomputed on writing.
        #expect(read.strikes[0].indexSubtables.map(\.firstGlyphIndex) == [3, 7, 20, 21])
        #expect((read.strikes[0].startGlyphIndex, read.strikes[0].endGlyphIndex) == (3, 30))

        let xml = try TTX.dump(face, tags: ["EBLC", "EBDT"])
        #expect(xml.contains("<ebdt_bitmap_format_8 name=\"\(try face.glyphName(20))\">"))
        #expect(xml.contains("<ebdtComponent name=\"\(try face.glyphName(5))\">"))
        let (_, fresh) = try Self.face()
        try TTX.fuse(xml, into: fresh)
        #expect(try Bitmaps.read(from: fresh, .monochrome) == read)
        #expect(try fresh.rawTable("EBLC") == face.rawTable("EBLC"))
        #expect(try fresh.rawTable("EBDT") == face.rawTable("EBDT"))
    }

    /// Fusing the data table alone keeps the face's layout; the location table alone keeps its data.
    @Test func oneTableFusesAgainstTheFacesOther() throws {
        let (_, face) = try Self.face()
        try Self.mono.write(to: face)
        var data = try TTX.dump(face, tags: ["EBDT"])
        data = data.replacingOccurrences(of: "f00f", with: "abcd")
        try TTX.fuse(data, into: face)
        let edited = try #require(try Bitmaps.read(from: face, .monochrome))
        #expect(edited.strikes[0].glyphs[3]?.imageData == [0xAB, 0xCD])
        #expect(edited.strikes[0].indexSubtables.map(\.glyphIDs) == Self.mono.strikes[0].indexSubtables.map(\.glyphIDs))

        // A location table that drops glyph 5 from its subtable: its bitmap goes too.
        var locator = try TTX.dump(face, tags: ["EBLC"])
        locator = locator.replacingOccurrences(of: "<glyphLoc id=\"5\" name=\"\(try face.glyphName(5))\"/>", with: "")
        try TTX.fuse(locator, into: face)
        let dropped = try #require(try Bitmaps.read(from: face, .monochrome))
        #expect(dropped.strikes[0].indexSubtables[0].glyphIDs == [3])
        #expect(dropped.strikes[0].glyphs[5] == nil && dropped.strikes[0].glyphs[3]?.imageData == [0xAB, 0xCD])
    }

    func expectFuseError(_ xml: String, _ expected: String, into face: Face, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = try? face.rawTable("EBDT")
        do {
            try TTX.fuse("<ttFont>\(xml)</ttFont>", into: face)
            Issue.record("fused: \(xml.prefix(80))", sourceLocation: sourceLocation)
        } catch let e as XMLError {
            #expect(e.message.contains(expected), "\(e.message)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
        #expect((try? face.rawTable("EBDT")) == before, "the face was left as it was", sourceLocation: sourceLocation)
    }

    @Test func badXMLIsAnErrorAndChangesNothing() throws {
        let (_, face) = try Self.face()
        let (_, bare) = try Self.face()
        expectFuseError("<EBDT><header version=\"2.0\"/></EBDT>", "needs the face's EBLC", into: bare)
        try Self.mono.write(to: face)
        let g3 = try face.glyphName(3)
        let locator = try TTX.dump(face, tags: ["EBLC"]).replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "")
        let body = locator.components(separatedBy: "\n").dropFirst().dropLast(3).joined(separator: "\n")
        // A glyph the location table lists that has no bitmap.
        expectFuseError(
            body.replacingOccurrences(
                of: "<glyphLoc id=\"5\"", with: "<glyphLoc id=\"6\" name=\"\(try face.glyphName(6))\"/><glyphLoc id=\"5\""),
            "glyph 6 is listed in EBLC but has no bitmap", into: face)
        expectFuseError(
            body.replacingOccurrences(of: "name=\"\(g3)\"", with: "name=\"nosuchglyph\""), "no glyph named 'nosuchglyph'", into: face)
        expectFuseError(
            body.replacingOccurrences(of: "eblc_index_sub_table_4", with: "eblc_index_sub_table_7"), "index subtable formats are 1–5",
            into: face)
        expectFuseError(
            "<EBDT><strikedata index=\"0\"><ebdt_bitmap_format_1 name=\"\(g3)\"><SmallGlyphMetrics><height value=\"1\"/></SmallGlyphMetrics><rawimagedata>00</rawimagedata></ebdt_bitmap_format_1></strikedata></EBDT>",
            "<SmallGlyphMetrics> needs <width>", into: face)
        expectFuseError(
            "<EBDT><strikedata index=\"0\"><ebdt_bitmap_format_5 name=\"\(g3)\"><rowimagedata bitDepth=\"1\" width=\"1\" height=\"1\"/></ebdt_bitmap_format_5></strikedata></EBDT>",
            "<rowimagedata> is not read yet", into: face)
        expectFuseError(
            "<EBDT><strikedata index=\"0\"><cbdt_bitmap_format_17 name=\"\(g3)\"/></strikedata></EBDT>", "expected a bitmap glyph",
            into: face)
        expectFuseError("<EBDT><strikedata index=\"1\"></strikedata></EBDT>", "without gaps", into: face)
        expectFuseError(
            "<EBDT><strikedata index=\"0\"><ebdt_bitmap_format_5 name=\"\(g3)\"><rawimagedata>00</rawimagedata></ebdt_bitmap_format_5></strikedata></EBDT>",
            "image format 5, its index subtable 1", into: face)
    }

    /// Damaged location tables are errors naming the table; a dump writes them as hexdata.
    @Test func damagedTablesAreErrors() throws {
        let (font, face) = try Self.face()
        try Self.mono.write(to: face)
        let good = try #require(try face.rawTable("EBLC"))
        func expectReadError(_ bytes: [UInt8], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            face.setRawTable("EBLC", bytes)
            #expect(throws: FontError.self, sourceLocation: sourceLocation) { try Bitmaps.read(from: face, .monochrome) }
            do { _ = try Bitmaps.read(from: face, .monochrome) } catch let e as FontError {
                #expect(e.table == "EBLC" && e.description.contains(expected), "\(e)", sourceLocation: sourceLocation)
            } catch {}
            #expect(
                (try? TTX.dump(face, tags: ["EBLC"]).contains("<!-- not decoded, so written as bytes")) == true,
                sourceLocation: sourceLocation)
            let findings = Validator.validate(font, checks: ["table-decodable"])
            #expect(
                findings.contains { $0.severity == .error && $0.message.contains("table 'EBLC'") && $0.message.contains(expected) },
                "\(findings)", sourceLocation: sourceLocation)
        }
        var huge = good; huge[4...7] = [0xFF, 0xFF, 0xFF, 0xFF]
        expectReadError(huge, "4294967295 strike records (48 bytes each) do not fit")
        // The first index subtable (format 1) at 8 + 48 + 8 × 4: its format made 9.
        var format = good; format[8 + 48 + 32 + 1] = 9
        expectReadError(format, "index subtable format 9 is not defined")
        var backwards = good; backwards[8 + 48 + 0..<8 + 48 + 4] = [0, 9, 0, 3]
        expectReadError(backwards, "run backwards")
        expectReadError(Array(good.prefix(30)), "1 strike records (48 bytes each) do not fit the table (30 bytes)")
        expectReadError(Array(good.prefix(60)), "unexpected end of data")
        face.removeTable("EBLC")
        #expect(throws: FontError.self) { try Bitmaps.read(from: face, .monochrome) }
    }
}

extension EmbeddedBitmapsTests {
    /// Strikes that all point at one index subtable array of 65,535-glyph subtables: a 3 KB
    /// table asking for billions of entries stops at the limit instead of running for hours.
    @Test func sharedSubtablesAreBounded() throws {
        let (_, face) = try Self.face()
        var w = BinaryWriter()
        let strikes = 60, subtables = 40
        let arrayOffset = 8 + 48 * strikes
        w.u32(0x20000); w.u32(UInt32(strikes))
        for _ in 0..<strikes {
            w.u32(UInt32(arrayOffset)); w.u32(0); w.u32(UInt32(subtables)); w.u32(0)
            w.append(Array(repeating: 0, count: 24)); w.u16(0); w.u16(0xFFFE); w.append([12, 12, 1, 1])
        }
        // Every array entry points at the same format 2 subtable (glyphs 0…65534, size 0).
        for _ in 0..<subtables { w.u16(0); w.u16(0xFFFE); w.u32(UInt32(8 * subtables)) }
        w.u16(2); w.u16(5); w.u32(4); w.u32(0); w.append(Array(repeating: 0, count: 8))
        face.setRawTable("EBLC", w.bytes)
        face.setRawTable("EBDT", [0, 2, 0, 0])
        #expect(w.bytes.count < 4000)
        do {
            _ = try Bitmaps.read(from: face, .monochrome)
            Issue.record("read a table asking for \(strikes * subtables * 65535) entries")
        } catch let e as FontError {
            #expect(e.description.contains("more than 4194304 index subtables and glyph entries"), "\(e)")
        }
    }
}

extension EmbeddedBitmapsTests {
    /// diff names the strike and glyph whose bitmap changed, was added or removed.
    @Test func diffNamesStrikesAndGlyphs() throws {
        let (_, before) = try Self.face(), (_, after) = try Self.face()
        try Self.mono.write(to: before)
        var edited = Self.mono
        edited.strikes[0].glyphs[3]?.imageData = [1, 2, 3]
        edited.strikes[0].glyphs[5] = nil
        edited.strikes[0].indexSubtables[0].glyphIDs = [3]
        edited.strikes[0].hori.values[0] = 10
        edited.strikes.append(
            Bitmaps.Strike(
                hori: Self.line, vert: Self.line, ppemX: 20, ppemY: 20, bitDepth: 1, flags: 1,
                indexSubtables: [.init(indexFormat: 1, imageFormat: 5, glyphIDs: [3])], glyphOrder: [3],
                glyphs: [3: .init(imageFormat: 5, imageData: [9])]))
        try edited.write(to: after)
        let lines = try FontDiff.compare(before, after).map(\.description)
        let g3 = try before.glyphName(3), g5 = try before.glyphName(5)
        #expect(lines.contains("~ EBDT.strike 12 ppem glyph \(g3): format 1, 6×8, 2 bytes → format 1, 6×8, 3 bytes"), "\(lines)")
        #expect(lines.contains("- EBDT.strike 12 ppem glyph \(g5): format 1, 6×8, 1 bytes"), "\(lines)")
        #expect(
            lines.contains(
                "~ EBDT.strike 12 ppem hori line metrics: [9, -3, 12, 1, 1, 0, 0, 0, 0, 0, 0, 0] → [10, -3, 12, 1, 1, 0, 0, 0, 0, 0, 0, 0]"),
            "\(lines)")
        #expect(lines.contains("+ EBDT.strike 20 ppem: 1 bitmaps"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("~ EBLC") }, "the pair is reported once: \(lines)")
    }
}
