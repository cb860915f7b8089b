import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// CFF in TTX: dump and fuse round trips on real fonts, and hostile charstrings or XML.
@Suite struct CFFTTXTests {
    /// EB Garamond (name-keyed, subroutines) dumped and fused back draws every glyph the same.
    @Test func dumpThenFuseKeepsEveryOutline() throws {
        let path = try #require(corpus["eb-garamond"])
        let original = try Font(path: path).faces[0]
        let font = try Font(path: path)
        try TTX.fuse(try TTX.dump(font.faces[0], tags: ["CFF "]), into: font.faces[0])
        let fused = try Font(data: try font.serialized().bytes).faces[0]
        let a = try #require(try original.cff), b = try #require(try fused.cff)
        #expect(a.glyphCount == b.glyphCount)
        for id in 0..<a.glyphCount { #expect(try a.path(id) == b.path(id), "glyph \(id)") }
        #expect(try fused.glyphNames() == original.glyphNames())
        #expect(try TTX.dump(fused, tags: ["CFF "]) == TTX.dump(original, tags: ["CFF "]))
    }

    /// Subroutines that each call the next twice, 30 deep: 2^30 calls for one glyph. The dump
    /// stops at the operation budget and writes the table as bytes, saying why.
    @Test func fanningOutSubroutinesStopAtTheBudget() throws {
        let path = try #require(corpus["eb-garamond"])
        let font = try Font(path: path)
        let face = font.faces[0]
        var builder = CFFBuilder()
        builder.fontName = Array("Fan".utf8)
        let names = try face.glyphNames()
        builder.charset = names.dropFirst().map { builder.sid(Array($0.utf8)) }
        let endchar: [UInt8] = [14]
        let callFirst: [UInt8] = [UInt8(0 - 107 + 139), 10] + endchar
        builder.charStrings = names.indices.map { $0 == 1 ? callFirst : endchar }
        // Subroutine k calls k + 1 twice (callsubr takes the number minus the bias, 107).
        var subrs: [[UInt8]] = []
        for k in 0..<30 {
            let next = UInt8(k + 1 - 107 + 139)
            subrs.append([next, 10, next, 10, 11])
        }
        subrs.append([11])
        builder.privates = [(dict: [], subrs: subrs)]
        face.setRawTable("CFF ", try builder.build())
        let started = Date()
        let xml = try TTX.dump(face, tags: ["CFF "])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(xml.contains("<CFF raw=\"True\">") && xml.contains("more than 200000 charstring operations"))
    }

    @Test func badCFFXMLIsAClearErrorAtItsPosition() throws {
        let path = try #require(corpus["eb-garamond"])
        let face = try Font(path: path).faces[0]
        let good = try TTX.dump(face, tags: ["CFF "])
        let cases: [(from: String, to: String, message: String)] = [
            ("<CharString name=\"A\">", "<CharString name=\"A\">\n 1 2 frobnicate\n", "neither a number nor a charstring operator"),
            ("<CharString name=\"A\">", "<CharString name=\"A\">\n 1 2 hstem hintmask 101\n", "multiple of 8"),
            ("<CharString name=\"A\">", "<CharString name=\"A\">\n 40000 hmoveto\n", "does not fit a charstring number"),
            ("<BlueScale", "<BlueScal value=\"1\"/><BlueScale", "did you mean <BlueScale>"),
            ("<CharString name=\"A\">", "<CharString name=\"nope\"/><CharString name=\"A\">", "glyph 'nope' does not exist"),
            ("<major value=\"1\"/>", "<major value=\"2\"/>", "only CFF version 1"),
        ]
        let before = try face.rawTable("CFF ")
        for c in cases {
            let range = try #require(good.range(of: c.from))
            let xml = good.replacingCharacters(in: range, with: c.to)
            do {
                try TTX.fuse(xml, into: face)
                Issue.record("fused: \(c.to)")
            } catch let e as XMLError {
                #expect(e.message.contains(c.message), "\(e.message)")
                #expect(e.line > 1)
            }
        }
        // A glyph left out of <CharStrings> is named.
        let withoutA = good.replacingOccurrences(of: #"<CharString name="A">[^<]*</CharString>"#, with: "", options: .regularExpression)
        #expect(throws: XMLError.self) { try TTX.fuse(withoutA, into: face) }
        #expect(try face.rawTable("CFF ") == before)
    }
}
