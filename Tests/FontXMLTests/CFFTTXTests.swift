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

    /// EB Garamond with a CFF builder named `name` whose charset has the font's glyph names, for
    /// tests that give its face a hostile CFF of their own.
    func garamondWithABuiltCFF(named name: String) throws -> (Font, Face, [String], CFFBuilder) {
        let font = try Font(path: try #require(corpus["eb-garamond"]))
        let face = font.faces[0]
        var builder = CFFBuilder()
        builder.fontName = Array(name.utf8)
        let names = try face.glyphNames()
        builder.charset = names.dropFirst().map { builder.sid(Array($0.utf8)) }
        return (font, face, names, builder)
    }

    /// Subroutines that each call the next twice, 30 deep: 2^30 calls for one glyph. The dump
    /// stops at the operation budget and writes the table as bytes, saying why.
    @Test func fanningOutSubroutinesStopAtTheBudget() throws {
        let (_, face, names, built) = try garamondWithABuiltCFF(named: "Fan")
        var builder = built
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

    /// String ids in the Top DICT are numbers like any other operand: a negative one (found by
    /// fuzz-font) names no string, so it is written as an empty value, not a trap.
    @Test func negativeStringIDsNameNoString() throws {
        let (font, face, names, built) = try garamondWithABuiltCFF(named: "Negative")
        var builder = built
        builder.charStrings = names.indices.map { _ in [14] }
        builder.privates = [(dict: [], subrs: [])]
        builder.top = [
            CFFDictEntry(op: 1, operands: [.int(-1)]), CFFDictEntry(op: 2, operands: [.int(-5)]),
            CFFDictEntry(op: 1200, operands: [.int(-100_000)]), CFFDictEntry(op: 3, operands: [.int(1 << 20)]),
        ]
        face.setRawTable("CFF ", try builder.build())
        let cff = try #require(try face.cff)
        #expect(cff.string(sid: -1) == nil && cff.stringBytes(sid: -1) == nil && cff.fullName == nil && cff.familyName == nil)
        let xml = try TTX.dump(face, tags: ["CFF "])
        for element in ["<Notice value=\"\"/>", "<FullName value=\"\"/>", "<Copyright value=\"\"/>", "<FamilyName value=\"\"/>"] {
            #expect(xml.contains(element), "\(element)")
        }
        _ = Validator.validate(font)
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

/// CFF2 in TTX: an edited blend fused back changes the outline where it varies and nowhere
/// else; bad XML is an error naming the element. (Parity with ttx: fontshellTests' TTXParityTests.)
@Suite struct CFF2TTXTests {
    static func font() throws -> (Font, String) { try madeTestFont("cff2-variable", "cff2-variable.otf") }

    @Test func editedBlendFusesBack() throws {
        let (font, path) = try Self.font()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["CFF2"])
        // .notdef's hlineto of 400 moves by -30 over the third region: make it -60.
        let corners: [[Double]] = [[1, 0], [0, 1], [1, 1], [-1, 0], [0, -1], [-1, -1], [1, -1], [-1, 1]]
        let before = try corners.map { try #require(try face.cff2).outline(0, at: $0).path }
        #expect(xml.contains("400 0 0 -30 1 blend"))
        try TTX.fuse(xml.replacingOccurrences(of: "400 0 0 -30 1 blend", with: "400 0 0 -60 1 blend"), into: face)
        let cff2 = try #require(try face.cff2)
        #expect(try cff2.outline(0).path == (try Font(path: path).faces[0].cff2?.outline(0).path), "the default is as it was")
        #expect(try corners.map { try cff2.outline(0, at: $0).path } != before, "somewhere the edit shows")
        // Dumped again, the edit is there and the rest is as it was.
        let again = try TTX.dump(face, tags: ["CFF2"])
        #expect(again == xml.replacingOccurrences(of: "400 0 0 -30 1 blend", with: "400 0 0 -60 1 blend"))
    }

    @Test func badXMLIsAnError() throws {
        let (font, path) = try Self.font()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["CFF2"])
        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(
            xml.replacingOccurrences(of: "<blend value=\"-12 0 0 0\"/>", with: "<blend value=\"-12 0 0\"/>"),
            "<blend> elements of one length")
        expectError(xml.replacingOccurrences(of: "<BlueScale value", with: "<BlueScal value"), "did you mean <BlueScale>?")
        expectError(
            xml.replacingOccurrences(of: "<CharString name=\".notdef\">", with: "<CharString name=\"nothere\">"), "no glyph named 'nothere'"
        )
        expectError(xml.replacingOccurrences(of: "<major value=\"2\"/>", with: "<major value=\"1\"/>"), "major version is 2")
        // Nothing was applied.
        #expect(try TTX.dump(face, tags: ["CFF2"]) == xml)
    }
}

/// avar version 2 in TTX: Amstelvar's subset from fontTools' tests (12 axes, an axis store)
/// dumped and fused back moves every location exactly as before; an edited delta moves it.
@Suite struct Avar2TTXTests {
    static let path =
        (ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance") + "/variable/Amstelvar-avar2.subset.ttf"

    @Test func dumpFuseKeepsTheAxisStore() throws {
        let face = try Font(path: Self.path).faces[0]
        let avar = try #require(try face.table(AvarTable.self))
        let xml = try TTX.dump(face, tags: ["avar"])
        #expect(
            xml.contains("<version major=\"2\" minor=\"0\"/>") && xml.contains("<VarIdxMap Format=")
                && xml.contains("<VarStore Format=\"1\">"))
        var points: [[Double]] = []
        for k in 0..<6 {
            var point: [Double] = []
            for axis in 0..<12 { point.append(Double((k * 7 + axis * 3) % 9 - 4) / 4) }
            points.append(point)
        }
        let fresh = try Font(path: Self.path).faces[0]
        try TTX.fuse(xml, into: fresh)
        let fused = try #require(try fresh.table(AvarTable.self))
        #expect(fused.majorVersion == 2)
        #expect(points.map(fused.applyVersion2) == points.map(avar.applyVersion2))
        // One delta changed: some location moves.
        let item = try #require(xml.range(of: "<Item index=\"0\" value=\"["))
        let firstEnd = try #require(xml[item.upperBound...].firstIndex { $0 == "," || $0 == "]" })
        let edited = xml.replacingCharacters(in: item.lowerBound..<firstEnd, with: "<Item index=\"0\" value=\"[1000")
        let other = try Font(path: Self.path).faces[0]
        try TTX.fuse(edited, into: other)
        #expect(points.map(try #require(try other.table(AvarTable.self)).applyVersion2) != points.map(avar.applyVersion2))
        // Version 2 parts under a version 1 header are an error.
        #expect(throws: XMLError.self) { try TTX.fuse(xml.replacingOccurrences(of: "major=\"2\"", with: "major=\"1\""), into: other) }
    }
}
