import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// COLR in TTX: version 1 through its description (every Paint format in the test font made
/// by Tests/Oracles/make_test_fonts.py), version 0 in fontTools' own form; edits fused back,
/// diffed; bad XML is an error naming the element. (Parity with ttx: TTXParityTests.)
@Suite struct COLRTests {
    static func font(_ kind: String) throws -> (Font, String) { try madeTestFont(kind, "\(kind).ttf") }

    @Test func version1EditsFuseBackAndDiff() throws {
        let (font, path) = try Self.font("colr")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["COLR"])
        for format in 1...32 { #expect(xml.contains("Format=\"\(format)\""), "Paint format \(format) is in the test font") }
        #expect(
            xml.contains("<CompositeMode value=\"multiply\"/>") && xml.contains("<Extend value=\"reflect\"/>")
                && xml.contains("<VarIndexBase/>"))
        #expect(xml.contains("<angle value=\"33.75\"/>") && xml.contains("<endAngle value=\"45.5\"/>"))

        // Unchanged, the fused table reads back the same; edited, the edit is what changed.
        let same = try Font(path: path).faces[0]
        try TTX.fuse(xml, into: same)
        #expect(try TTX.dump(same, tags: ["COLR"]) == xml)
        let edited = try Font(path: path).faces[0]
        try TTX.fuse(
            xml.replacingOccurrences(of: "<angle value=\"33.75\"/>", with: "<angle value=\"-45.0\"/>")
                .replacingOccurrences(of: "<CompositeMode value=\"multiply\"/>", with: "<CompositeMode value=\"screen\"/>"), into: edited)
        let again = try TTX.dump(edited, tags: ["COLR"])
        #expect(
            again.contains("<angle value=\"-45.0\"/>") && !again.contains("33.75") && again.contains("<CompositeMode value=\"screen\"/>"))
        let changes = try FontDiff.compare(face, edited).map(\.description)
        #expect(changes.contains { $0.hasPrefix("~ COLR.LayerList.Paint[") && $0.hasSuffix("].angle: 33.75° → -45.0°") }, "\(changes)")
        #expect(changes.contains { $0.contains("CompositeMode: multiply → screen") }, "\(changes)")
        #expect(!changes.contains { $0.contains("bytes") }, "compared member by member: \(changes)")
    }

    @Test func version0RoundTrips() throws {
        let (font, path) = try Self.font("colr0")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["COLR"])
        #expect(
            xml.contains("<version value=\"0\"/>") && xml.contains("<ColorGlyph name=\"A\">")
                && xml.contains("<layer colorID=\"65535\" name=\"a\"/>"))
        let fused = try Font(path: path).faces[0]
        try TTX.fuse(
            xml.replacingOccurrences(of: "<layer colorID=\"0\" name=\"a\"/>", with: "<layer colorID=\"2\" name=\"b\"/>"), into: fused)
        let layers = try #require(try fused.rawTable("COLR")).withUnsafeBytes { try ColrTable.layers(BinaryReader($0)) }
        #expect(layers.map(\.glyph) == [try #require(try face.glyphID(named: "A")), try #require(try face.glyphID(named: "B"))])
        #expect(layers[0].layers.map(\.palette) == [2, 1])
    }

    @Test func badXMLIsAnError() throws {
        let (font, path) = try Self.font("colr")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["COLR"])
        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(xml.replacingOccurrences(of: "Format=\"32\"", with: "Format=\"33\""), "known Paint format")
        expectError(
            xml.replacingOccurrences(of: "<CompositeMode value=\"multiply\"/>", with: "<CompositeMode value=\"blend\"/>"),
            "'blend' is not one of clear, src, dest, src_over")
        expectError(
            xml.replacingOccurrences(of: "<angle value=\"33.75\"/>", with: "<angle value=\"720\"/>"),
            "'720' is not an angle in -360…360 degrees")
        expectError(xml.replacingOccurrences(of: "<Glyph value=\"c6\"/>", with: "<Glyph value=\"nothere\"/>"), "no glyph named 'nothere'")
        #expect(try TTX.dump(face, tags: ["COLR"]) == xml, "nothing was applied")
    }
}

extension COLRTests {
    /// A ClipList claiming 2³²−1 clips and a truncated table: errors naming the table, a dump
    /// with the table as hexdata and the reason, nothing that runs on.
    @Test func damagedTablesAreErrors() throws {
        let (font, path) = try Self.font("colr")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let good = try #require(try face.rawTable("COLR"))
        let clipList = Int(good[22]) << 24 | Int(good[23]) << 16 | Int(good[24]) << 8 | Int(good[25])
        try #require(clipList > 0 && clipList + 5 <= good.count)
        var claims = good
        claims[(clipList + 1)...(clipList + 4)] = [0xFF, 0xFF, 0xFF, 0xFF]
        for (bytes, expected) in [
            (claims, "COLR.ClipList: more structure than the table's bytes can hold"),
            (Array(good.prefix(40)), "not decoded, so written as bytes: "),
        ] {
            face.setRawTable("COLR", bytes)
            #expect(throws: (any Error).self) { try face.describedView("COLR") }
            let xml = try TTX.dump(face, tags: ["COLR"])
            #expect(xml.contains("<COLR raw=\"True\">") && xml.contains(expected), "\(xml.prefix(400))")
            let findings = Validator.validate(font, checks: ["table-decodable"])
            #expect(findings.contains { $0.severity == .error && $0.message.contains("table 'COLR'") }, "validate names it: \(findings)")
        }
    }
}
