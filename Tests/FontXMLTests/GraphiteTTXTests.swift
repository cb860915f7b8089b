import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// The Graphite tables in TTX on Padauk (Scripts/bootstrap installs it): unchanged, fusing our
/// dump gives back the font's own bytes; edits fuse, diff, and read back in fontTools, and
/// ots-sanitize keeps the tables; bad XML is an error naming the element. (Parity with ttx on
/// more Graphite fonts: TTXParityTests.)
@Suite struct GraphiteTTXTests {
    static let padauk = "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf"
    static let tags: [FontModel.Tag] = ["Feat", "Glat", "Gloc", "Silf", "Sill"]

    @Test func unchangedFusesToTheSameBytes() throws {
        let face = try Font(path: Self.padauk).faces[0]
        let xml = try TTX.dump(face, tags: Self.tags)
        #expect(xml.contains("<feature default=\"0\" fid=\"cv01\" flags=\"32768\" label=\"277\">") && xml.contains("<!-- Filled dots -->"))
        #expect(xml.contains("<octaboxes bitmap=") && xml.contains("PUSH_BYTE(-10)") && xml.contains("<lang name=\"aio\">"))
        let fused = try Font(path: Self.padauk).faces[0]
        try TTX.fuse(xml, into: fused)
        #expect(try TTX.dump(fused, tags: Self.tags) == xml)
        // Laid out as the Graphite compiler lays them out (Feat aside: see GraphiteTests).
        for tag in ["Glat", "Gloc", "Silf", "Sill"] as [FontModel.Tag] { #expect(try fused.rawTable(tag) == face.rawTable(tag), "\(tag)") }
    }

    @Test func editsFuseDiffAndReadBackInFontTools() throws {
        let folder = NSTemporaryDirectory() + "fontshell-graphite-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let font = try Font(path: Self.padauk), face = font.faces[0]
        let original = try Font(path: Self.padauk).faces[0]
        let xml = try TTX.dump(face, tags: Self.tags)
        let edited =
            xml
            .replacingOccurrences(of: "<feature default=\"0\" fid=\"cv01\"", with: "<feature default=\"1\" fid=\"cv01\"")
            .replacingOccurrences(
                of: "    <lang name=\"aio\">\n      <feature fid=\"cv06\" val=\"1\"/>",
                with: "    <lang name=\"aio\">\n      <feature fid=\"cv06\" val=\"0\"/>"
            )
            .replacingOccurrences(of: "<attribute index=\"1\" value=\"1008\"/>", with: "<attribute index=\"1\" value=\"1009\"/>")
            .replacingOccurrences(of: "PUSH_BYTE(-10)\n", with: "PUSH_BYTE(-12)\n")
        try TTX.fuse(edited, into: face)
        let changes = try FontDiff.compare(original, face).map(\.description)
        #expect(
            changes.contains(
                "~ Feat.feature cv01: label 277, flags 32768, default 0, settings 0:278 1:279 → label 277, flags 32768, default 1, settings 1:279 0:278"
            ), "\(changes)")
        #expect(changes.contains { $0.hasPrefix("~ Sill.language aio: cv06=1") }, "\(changes)")
        #expect(changes.contains("~ Glat.glyph 0 attribute 1: 1008 → 1009"), "\(changes)")
        #expect(
            changes.contains { $0.hasPrefix("~ Silf.subtable 0 pass ") && $0.contains("PUSH_BYTE(-10)") && $0.contains("PUSH_BYTE(-12)") },
            "\(changes)")
        #expect(!changes.contains { $0.contains("bytes") }, "compared item by item: \(changes)")
        let saved = folder + "/edited.ttf"
        try font.save(to: saved)
        let check = """
            from fontTools.ttLib import TTFont
            f = TTFont('\(saved)')
            actions = [l for s in f['Silf'].silfs for p in s.passes for a in p.actions for l in [a]]
            from fontTools.ttLib.tables.S__i_l_f import disassemble
            text = [' '.join(disassemble(a)) for a in actions]
            print(f['Feat'].features['cv01'].default, dict(f['Sill'].langs['aio'])[0x63763036],
                  f['Glat'].attributes['.notdef'][1], sum('PUSH_BYTE(-12)' in t for t in text), sum('PUSH_BYTE(-10)' in t for t in text))
            """
        let (status, output) = try shell(["python3", "-c", check])
        #expect(status == 0, "\(output)")
        let before = try shell(["python3", "-c", check.replacingOccurrences(of: saved, with: Self.padauk)]).1.split(separator: " ")
        let after = output.split(separator: " ")
        #expect(after.count == 5 && before.count == 5, "\(output)")
        if after.count == 5 && before.count == 5 {
            #expect(after[0] == "1" && after[1] == "0" && after[2] == "1009")
            // Every PUSH_BYTE(-10) became PUSH_BYTE(-12).
            let count = { (s: Substring) in Int(s.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
            #expect(
                count(before[4]) > 0 && count(after[4]) == 0 && count(after[3]) == count(before[3]) + count(before[4]),
                "\(before) → \(after)")
        }
        // ots-sanitize checks the Graphite tables and keeps them.
        let sanitized = folder + "/sanitized.ttf"
        let (otsStatus, otsOutput) = try shell(["ots-sanitize", saved, sanitized])
        #expect(otsStatus == 0, "\(otsOutput)")
        let kept = try Font(path: sanitized).faces[0]
        for tag in Self.tags { #expect(kept.has(tag), "ots-sanitize dropped \(tag): \(otsOutput)") }
    }

    @Test func badXMLIsAnError() throws {
        let face = try Font(path: Self.padauk).faces[0]
        let xml = try TTX.dump(face, tags: ["Feat", "Silf", "Glat", "Sill"])
        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(
            xml.replacingOccurrences(of: "PUSH_BYTE(-10)\n", with: "PUSH_BYTES(-10)\n"), "'PUSH_BYTES' is not a Graphite instruction")
        expectError(xml.replacingOccurrences(of: "PUSH_BYTE(-10)\n", with: "PUSH_BYTE(-1000)\n"), "-1000 is not in -128...127")
        expectError(xml.replacingOccurrences(of: "PUSH_BYTE(-10)\n", with: "PUSH_BYTE(1, 2)\n"), "PUSH_BYTE takes 1 operand, not 2")
        expectError(xml.replacingOccurrences(of: "fid=\"cv01\"", with: "fid=\"toolong\""), "fid=\"toolong\" is neither a number nor a tag")
        expectError(
            xml.replacingOccurrences(of: "<lang name=\"aio\">", with: "<lang name=\"abcde\">"),
            "not a language code of up to four ASCII letters")
        expectError(
            xml.replacingOccurrences(of: "<attribute index=\"1\" value=\"1008\"/>", with: "<attribute index=\"1\" value=\"40000\"/>"),
            "value=\"40000\" is not a number in -32768...32767")
        expectError(
            xml.replacingOccurrences(of: "<octaboxes bitmap=\"0\"", with: "<octaboxes bitmap=\"3\""), "names 2 subboxes but 0 are given")
        expectError(xml.replacingOccurrences(of: "<colmap>\n", with: "<colmap>\n  nothere=1\n"), "no glyph named 'nothere'")
        // The state machine must agree with its sizes.
        let row = try #require(xml.range(of: "<row _i=\"0\">"))
        expectError(xml.replacingCharacters(in: row, with: "<row _i=\"0\">7 "), "columns, not numColumns")
    }
}

/// hdmx and LTSH in TTX on Dai Banna (Scripts/bootstrap installs it): unchanged they fuse back
/// to the font's bytes; an edited width and threshold read back in fontTools; bad rows are errors.
@Suite struct DeviceMetricsTTXTests {
    static let font = "/usr/share/fonts/truetype/dai-banna/DBSILBR.ttf"

    @Test func fuseEditsAndErrors() throws {
        let face = try Font(path: Self.font).faces[0]
        let xml = try TTX.dump(face, tags: ["hdmx", "LTSH"])
        let row = "                        A:   6   7   8   9   9  10  11  12  12  13  14  14  15  16  17  17 ;"
        #expect(xml.contains(row) && xml.contains("<yPel name=\"A\" value=\"24\"/>"))
        let same = try Font(path: Self.font).faces[0]
        try TTX.fuse(xml, into: same)
        for tag in ["hdmx", "LTSH"] as [FontModel.Tag] { #expect(try same.rawTable(tag) == face.rawTable(tag), "\(tag)") }

        let font = try Font(path: Self.font)
        try TTX.fuse(
            xml.replacingOccurrences(of: row, with: row.replacingOccurrences(of: "  17 ;", with: "  99 ;"))
                .replacingOccurrences(of: "<yPel name=\"A\" value=\"24\"/>", with: "<yPel name=\"A\" value=\"9\"/>"), into: font.faces[0])
        let changes = try FontDiff.compare(face, font.faces[0]).map(\.description)
        let a = try #require(try face.glyphID(named: "A"))
        #expect(
            changes.contains { $0.contains("hdmx.ppem ") && $0.hasSuffix(" glyph \(a): 17 → 99") }
                && changes.contains { $0.hasSuffix(" maximum: 23 → 99") }, "\(changes)")
        #expect(changes.contains { $0.hasPrefix("~ LTSH.yPels") && $0.contains("24 → 9") }, "\(changes)")
        let folder = NSTemporaryDirectory() + "fontshell-hdmx-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try font.save(to: folder + "/edited.ttf")
        let (status, output) = try shell([
            "python3", "-c",
            """
            from fontTools.ttLib import TTFont
            f = TTFont('\(folder)/edited.ttf')
            h = f['hdmx'].hdmx
            top = max(h)
            print(h[top]['A'], max(h[top].values()), f['LTSH'].yPels['A'])
            """,
        ])
        #expect(status == 0 && output.hasPrefix("99 99 9"), "\(output)")

        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(
            xml.replacingOccurrences(of: row, with: row.replacingOccurrences(of: "  17 ;", with: " 300 ;")),
            "'300' for 'A' is not a width in 0...255")
        expectError(
            xml.replacingOccurrences(of: row, with: row.replacingOccurrences(of: "  17  17 ;", with: "  17 ;")),
            "'A' has 15 widths for 16 sizes")
        expectError(xml.replacingOccurrences(of: row, with: ""), "no widths for glyph 'A'")
        expectError(xml.replacingOccurrences(of: "<yPel name=\"A\" value=\"24\"/>", with: ""), "<LTSH> has no <yPel> for glyph 'A'")
        expectError(
            xml.replacingOccurrences(of: "<yPel name=\"A\" value=\"24\"/>", with: "<yPel name=\"A\" value=\"256\"/>"),
            "value=\"256\" is not a number in 0...255")
    }
}
