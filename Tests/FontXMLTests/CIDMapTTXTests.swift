import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// Apple's CID maps (cidg, gcid), described with three custom leaves (`Char64`, `CIDGlyphMap`,
/// `GlyphCIDMap`) and a StructLength worked out on write, on the font make_test_fonts.py's
/// "mort" builds (parity with ttx both ways: TTXParityTests).
@Suite struct CIDMapTTXTests {
    @Test func editsReadBackInFontToolsWithTheirLengthRecomputed() throws {
        let (font, path) = try madeTestFont("mort", "cid-maps.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let xml = try TTX.dump(font.faces[0], tags: ["cidg", "gcid"])
        #expect(xml.contains("<!-- StructLength=160 -->") && xml.contains("<RegistryName value=\"Adobe\"/>"))
        #expect(xml.contains("<CID cid=\"3\" glyph=\"A\"/>") && xml.contains("<CID glyph=\"B\" value=\"12000\"/>"))
        let edited =
            xml
            .replacingOccurrences(of: "<CID cid=\"3\" glyph=\"A\"/>", with: "<CID cid=\"3\" glyph=\"B\"/><CID cid=\"20\" glyph=\"a\"/>")
            .replacingOccurrences(of: "<OrderName value=\"Japan1\"/>", with: "<OrderName value=\"GB1\"/>")
        try TTX.fuse(edited, into: font.faces[0])
        let out = path + ".edited.ttf"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try font.save(to: out)
        let (status, output) = try shell([
            "python3", "-c",
            """
            from fontTools.ttLib import TTFont
            f = TTFont('\(out)')
            m = f['cidg'].table.CIDGlyphMapping
            print(sorted(m.Mapping.items()), m.OrderName, len(f.reader['cidg']), m.StructLength)
            """,
        ])
        #expect(status == 0 && output.hasPrefix("[(0, '.notdef'), (3, 'B'), (7, 'b'), (20, 'a')] GB1 186 186"), "\(output)")
    }

    @Test func badXMLAndDamageAreNamed() throws {
        let (font, path) = try madeTestFont("mort", "cid-bad.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["cidg", "gcid"])
        expectFuseError(
            xml.replacingOccurrences(of: "<CID cid=\"7\" glyph=\"b\"/>", with: "<CID cid=\"7\" glyph=\"nothere\"/>"), original: xml,
            "no glyph named 'nothere'", into: face)
        expectFuseError(
            xml.replacingOccurrences(of: "<CID glyph=\"A\" value=\"3\"/>", with: "<CID glyph=\"A\" value=\"70000\"/>"), original: xml,
            "value=\"70000\" is not a number in 0…65535", into: face)
        expectFuseError(
            xml.replacingOccurrences(
                of: "<RegistryName value=\"Adobe\"/>", with: "<RegistryName value=\"\(String(repeating: "x", count: 65))\"/>"),
            original: xml, "RegistryName must be at most 64 ASCII characters", into: face)
        // A map that claims more entries than the table holds: named where it is, in the dump too.
        var bytes = try #require(try face.rawTable("cidg"))
        bytes[142] = 0x7F
        face.setRawTable("cidg", bytes)
        #expect(throws: FontError.self) { _ = try face.structuredTable("cidg")?.root }
        let dump = try TTX.dump(face, tags: ["cidg"])
        #expect(dump.contains("the map claims 32520 entries, more than the table holds"), "\(dump)")
    }
}
