import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// cvt, fpgm, prep, gasp, DSIG and FFTM: typed in the model, in TTX both ways, in diff; bad
/// input is a clear error or, in a dump, hexdata with the reason.
@Suite struct HintingTablesTests {
    /// Every program of every TrueType corpus font (fpgm, prep, each glyph's instructions)
    /// disassembles and assembles back to the same bytes.
    @Test(arguments: ["dejavu-sans", "liberation-sans", "roboto"])
    func assemblyRoundTripsEveryProgram(id: String) throws {
        let face = try Font(path: try #require(corpus[id])).faces[0]
        var programs: [[UInt8]] = []
        for tag in ["fpgm", "prep"] as [FontModel.Tag] {
            if let p = try face.decodedTable(tag) as? InstructionTable { programs.append(p.bytecode) }
        }
        if let glyf = try face.glyf { for g in 0..<glyf.glyphCount { programs.append(try glyf.glyph(g).instructions) } }
        var checked = 0
        for code in programs where !code.isEmpty {
            let text = try #require(TTX.assembly(code))
            #expect(try TTX.assemble(text) == code)
            checked += 1
        }
        if id != "roboto" { #expect(checked > 100) }   // Roboto is unhinted
    }

    @Test func disassemblyFollowsFontToolsLayout() throws {
        // 30 pushed words wrap after 25; IF/ELSE/EIF and FDEF/ENDF indent; an unknown opcode
        // is INSTRn; a truncated push cannot be disassembled.
        var code: [UInt8] = [0x41, 30]
        for k in 0..<30 { code += [0xFF, UInt8(256 - 1 - k)] }
        code += [0x2C, 0x58, 0x20, 0x1B, 0x21, 0x59, 0x2D, 0x92]
        let text = try #require(TTX.assembly(code))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "NPUSHW[ ]\t/* 30 values pushed */")
        #expect(lines[1].split(separator: " ").count == 25 && lines[1].hasPrefix("-1 -2 "))
        #expect(lines[2] == "-26 -27 -28 -29 -30")
        #expect(lines[3].hasPrefix("FDEF[ ]") && lines[4].hasPrefix("  IF[ ]") && lines[5].hasPrefix("    DUP[ ]"))
        #expect(
            lines[6].hasPrefix("  ELSE[ ]") && lines[7].hasPrefix("    POP[ ]") && lines[8].hasPrefix("  EIF[ ]")
                && lines[9].hasPrefix("ENDF[ ]"))
        #expect(lines[10] == "INSTR146[ ]")
        #expect(try TTX.assemble(text) == code)
        #expect(TTX.assembly([0xB1, 7]) == nil)
        #expect(TTX.assembly([0x40, 0]) == nil)
    }

    /// A face with a real (made-up) signature and an FFTM: our dumps equal ttx's, and fontTools
    /// compiles our XML to the same bytes we fuse.
    @Test func dsigAndFFTMMatchFontTools() throws {
        let path = try #require(corpus["dejavu-sans"])
        let font = try Font(path: path)
        let face = font.faces[0]
        let packet = (0..<301).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        face.setRawTable(
            "DSIG", try DSIGTable(version: 1, flags: 1, signatures: [.init(pkcs7: packet), .init(pkcs7: [1, 2, 3])]).encode())
        var fftm = BinaryWriter()
        fftm.u32(1);
        for stamp: Int64 in [3_600_000_000, 3_500_000_000, 3_550_000_000] {
            fftm.u32(UInt32(stamp >> 32)); fftm.u32(UInt32(truncatingIfNeeded: stamp))
        }
        face.setRawTable("FFTM", fftm.bytes)
        let saved = temporaryPath("signed.ttf"), ours = temporaryPath("ours.ttx"), theirs = temporaryPath("theirs.ttx"),
            merged = temporaryPath("merged.ttf")
        defer { for p in [saved, ours, theirs, merged] { try? FileManager.default.removeItem(atPath: p) } }
        try font.save(to: saved)
        let reread = try Font(path: saved).faces[0]
        let dsig = try #require(try reread.table(DSIGTable.self))
        #expect(dsig.signatures.map(\.pkcs7) == [packet, [1, 2, 3]] && dsig.flags == 1)
        for tag in ["DSIG", "FFTM"] {
            let xml = try TTX.dump(reread, tags: [FontModel.Tag(text: tag)])
            try xml.write(toFile: ours, atomically: true, encoding: .utf8)
            #expect(try shell(["python3", "-m", "fontTools.ttx", "-q", "-t", tag, "-o", theirs, saved]).0 == 0)
            let theirText = try String(contentsOfFile: theirs, encoding: .utf8)
            #expect(
                StructuredTTXTests.lines(xml).filter { !$0.hasPrefix("<!--") }
                    == StructuredTTXTests.lines(theirText).filter { !$0.hasPrefix("<!--") }, "\(tag)")
            // fontTools compiles our XML to the bytes the table has.
            #expect(try shell(["python3", "-m", "fontTools.ttx", "-q", "-m", saved, "-o", merged, ours]).0 == 0)
            #expect(
                try Font(path: merged).faces[0].rawTable(FontModel.Tag(text: tag)) == (try reread.rawTable(FontModel.Tag(text: tag))),
                "\(tag)")
            // And we fuse theirs to the same bytes.
            let fused = try Font(path: saved)
            try TTX.fuse(theirText, into: fused.faces[0])
            #expect(
                try Font(data: try fused.serialized().bytes).faces[0].rawTable(FontModel.Tag(text: tag))
                    == (try reread.rawTable(FontModel.Tag(text: tag))), "\(tag)")
        }
    }

    @Test func diffNamesChangedControlValuesAndPrograms() throws {
        let path = try #require(corpus["dejavu-sans"])
        let a = try Font(path: path).faces[0]
        let edited = try Font(path: path)
        let b = edited.faces[0]
        var values = try #require(try b.table(CvtTable.self)).values
        values[2] += 5
        values.append(-7)
        b.setRawTable("cvt ", try CvtTable(values: values).encode())
        let prep = try #require(try b.decodedTable("prep") as? InstructionTable).bytecode
        b.setRawTable("prep", prep + [0x21])
        let found = try FontDiff.compare(a, b).map(\.description)
        #expect(found.contains("~ cvt.2: \(values[2] - 5) → \(values[2])"))
        #expect(found.contains("+ cvt.\(values.count - 1): -7"))
        #expect(found.contains("~ prep.program from byte \(prep.count): \(prep.count) bytes → \(prep.count + 1) bytes"))
    }

    @Test func badTablesAreErrorsOrHexdataWithTheReason() throws {
        let path = try #require(corpus["dejavu-sans"])
        let font = try Font(path: path)
        let face = font.faces[0]
        // A cvt of odd length does not decode: dumped as bytes, with why; validate says so.
        face.setRawTable("cvt ", [0, 1, 2])
        let xml = try TTX.dump(face, tags: ["cvt "])
        #expect(xml.contains("<cvt raw=\"True\">") && xml.contains("not a whole number of 16-bit values"))
        #expect(Validator.validate(font).contains { $0.check == "table-decodable" && $0.message.contains("cvt") })
        // A DSIG whose signature block lies past the table's end.
        face.setRawTable("DSIG", [0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0x10, 0])
        #expect(throws: FontError.self) { try face.table(DSIGTable.self) }
        // Hostile or wrong XML: a clear error at its position, the face unchanged.
        let cases: [(String, String)] = [
            ("<cvt><cv index=\"2000000000\" value=\"1\"/></cvt>", "not a control value index"),
            ("<cvt><cv index=\"1\" value=\"40000\"/></cvt>", "not an FWORD"),
            ("<cvt><cv index=\"1\" value=\"4\"/><cv index=\"1\" value=\"5\"/></cvt>", "a second value for index 1"),
            (
                "<gasp><gaspRange rangeMaxPPEM=\"8\" rangeGaspBehavior=\"2\"/><gaspRange rangeMaxPPEM=\"8\" rangeGaspBehavior=\"3\"/></gasp>",
                "a second range"
            ),
            ("<gasp><gaspRange rangeMaxPPEM=\"-1\" rangeGaspBehavior=\"2\"/></gasp>", "not a UInt16"),
            ("<fpgm><assembly>PUSHB[ ] 300</assembly></fpgm>", "not a byte"),
            ("<prep><assembly>MDRP[101] </assembly></prep>", "takes 5 argument bits"),
            ("<DSIG><tableHeader version=\"1\" numSigs=\"2\" flag=\"0x0\"/></DSIG>", "numSigs=\"2\" but 0 SignatureRecords follow"),
            (
                "<DSIG><tableHeader version=\"1\" numSigs=\"1\" flag=\"0x0\"/><SignatureRecord format=\"1\">@@@</SignatureRecord></DSIG>",
                "not base64"
            ),
        ]
        let before = try face.rawTable("gasp")
        for (table, message) in cases {
            do {
                try TTX.fuse("<ttFont>\(table)</ttFont>", into: face)
                Issue.record("fused: \(table)")
            } catch let e as XMLError {
                #expect(e.message.contains(message), "\(e.message)")
                #expect(e.line == 1)
            }
        }
        #expect(try face.rawTable("gasp") == before)
    }

    @Test func gaspVersionFollowsTheFlagsAsInFontTools() throws {
        let face = try Font(path: try #require(corpus["dejavu-sans"])).faces[0]
        try TTX.fuse(
            "<ttFont><gasp><gaspRange rangeMaxPPEM=\"65535\" rangeGaspBehavior=\"15\"/><gaspRange rangeMaxPPEM=\"9\" rangeGaspBehavior=\"2\"/></gasp></ttFont>",
            into: face)
        #expect(try face.rawTable("gasp") == [0, 1, 0, 2, 0, 9, 0, 2, 0xFF, 0xFF, 0, 15])
        try TTX.fuse("<ttFont><gasp><gaspRange rangeMaxPPEM=\"65535\" rangeGaspBehavior=\"3\"/></gasp></ttFont>", into: face)
        #expect(try face.rawTable("gasp") == [0, 0, 0, 1, 0xFF, 0xFF, 0, 3])
    }

    /// cvar (fontTools' instancer test font): dumped as ttx dumps it, and fused back to the same bytes.
    @Test func cvarMatchesFontTools() throws {
        let source = StructuredTTXTests.conformance + "/instancer/PartialInstancerTest-VF.ttx"
        let font = temporaryPath("cvar.ttf"), theirs = temporaryPath("cvar.ttx")
        defer { for p in [font, theirs] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(try shell(["python3", "-m", "fontTools.ttx", "-q", "-o", font, source]).0 == 0)
        #expect(try shell(["python3", "-m", "fontTools.ttx", "-q", "-t", "cvar", "-o", theirs, font]).0 == 0)
        let face = try Font(path: font).faces[0]
        let theirText = try String(contentsOfFile: theirs, encoding: .utf8)
        #expect(StructuredTTXTests.lines(try TTX.dump(face, tags: ["cvar"])) == StructuredTTXTests.lines(theirText))
        let fused = try Font(path: font)
        try TTX.fuse(theirText, into: fused.faces[0])
        #expect(try Font(data: try fused.serialized().bytes).faces[0].rawTable("cvar") == (try face.rawTable("cvar")))
        // A delta for a control value the font does not have is refused at its line.
        let bad = theirText.replacingOccurrences(of: "cvt=\"2\"", with: "cvt=\"99\"")
        #expect(throws: XMLError.self) { try TTX.fuse(bad, into: fused.faces[0]) }
    }
}
