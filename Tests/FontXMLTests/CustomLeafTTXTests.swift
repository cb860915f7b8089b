import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// A custom leaf of the description language through TTX: HVAR's map by glyph
/// (`GlyphIndexMapLeaf`) on Inter. An edit fuses back, bad XML names the element, and damaged
/// bytes are named in the dump. (COLR's and avar 2's map by index: COLRTests, the parity run.)
@Suite struct CustomLeafTTXTests {
    static func inter() throws -> Face { try Font(path: try #require(corpus["inter-vf"])).faces[0] }

    @Test func glyphMapFusesBackAndTakesAnEdit() throws {
        let face = try Self.inter()
        let xml = try TTX.dump(face, tags: ["HVAR"])
        let line = "<Map glyph=\".notdef\" outer=\"11\" inner=\"162\"/>"
        try #require(xml.contains(line))
        let copy = try Self.inter()
        try TTX.fuse(xml, into: copy)
        #expect(try TTX.dump(copy, tags: ["HVAR"]) == xml, "and it reads back the same")
        try TTX.fuse(xml.replacingOccurrences(of: line, with: "<Map glyph=\".notdef\" outer=\"5\" inner=\"0\"/>"), into: copy)
        let again = try TTX.dump(copy, tags: ["HVAR"])
        #expect(again.contains("<Map glyph=\".notdef\" outer=\"5\" inner=\"0\"/>") && !again.contains(line))
    }

    @Test func badXMLNamesTheElement() throws {
        let face = try Self.inter()
        let xml = try TTX.dump(face, tags: ["HVAR"])
        let line = "<Map glyph=\".notdef\" outer=\"11\" inner=\"162\"/>"
        expectFuseError(
            xml.replacingOccurrences(of: line, with: "<Map glyph=\"nothere\" outer=\"11\" inner=\"162\"/>"), original: xml,
            "no glyph named 'nothere'", into: face)
        expectFuseError(
            xml.replacingOccurrences(of: line, with: "<Map glyph=\".notdef\" outer=\"70000\" inner=\"162\"/>"), original: xml,
            "outer and inner must be 0…65535", into: face)
        expectFuseError(
            xml.replacingOccurrences(of: line, with: "<Mop/>"), original: xml, "<Mop> in <AdvWidthMap>: expected <Map", into: face)
        do {
            try TTX.fuse(xml.replacingOccurrences(of: line, with: ""), into: face)
            Issue.record("a glyph without a map fused")
        } catch let error as XMLError {
            #expect(error.message.contains("has no <Map> for glyph 0; every glyph needs one") && error.line > 1, "\(error)")
        }
    }

    @Test func damagedMapIsNamed() throws {
        let face = try Self.inter()
        var bytes = try #require(try face.rawTable("HVAR"))
        let map = Int(bytes[8]) << 24 | Int(bytes[9]) << 16 | Int(bytes[10]) << 8 | Int(bytes[11])
        try #require(map > 0 && map + 1 < bytes.count)
        bytes[map + 1] |= 0xC0
        face.setRawTable("HVAR", bytes)
        let xml = try TTX.dump(face, tags: ["HVAR"])
        #expect(xml.contains("DeltaSetIndexMap entry format 0x") && xml.contains("sets reserved bits"), "\(xml.prefix(800))")
    }
}
