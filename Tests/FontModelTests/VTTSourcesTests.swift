import Testing
@testable import FontModel

/// VTT's source tables (issue 32): read as fontTools reads them, compiled back to fontTools'
/// bytes, and compared by glyph in diff.
@Suite struct VTTSourcesTests {
    @Test func programsReadAndCompileAsFontToolsDoes() throws {
        let folder = try TemporaryFolder()
        let face = try Font(path: try builtFont("vtt", in: folder)).faces[0]
        let names = try face.glyphNames()
        let tsi1 = try #require(try face.table(TSI1Table.self))
        let byName = Dictionary(uniqueKeysWithValues: tsi1.programs.map { (names[$0.key], $0.value) })
        #expect(byName["A"] == "/* A */\rSVTCA[Y]\rMIAP[R], 1, 3")
        // Over 32,767 bytes: stored with the length 0x8000, read up to the next program.
        #expect(byName["a"]?.utf8.count == 10 + 16 * 2200)
        #expect(byName["b"] == nil, "empty programs are left out")
        #expect(tsi1.extraPrograms == ["fpgm": "/* fpgm */\rFDEF[], 0\rENDF[]", "ppgm": "SVTCA[Y]", "cvt": "0: 700 /* cap */\r1: 0"])
        let tsi3 = try #require(try face.table(TSI3Table.self))
        #expect(tsi3.programs.count == 2 && tsi3.extraPrograms.isEmpty)
        // Compiling what was read gives fontTools' bytes, text and index alike.
        let compiled = TSI1Table.compile(
            programs: tsi1.programs, extraPrograms: tsi1.extraPrograms, extraNames: TSI1Table.extraNames, glyphCount: try face.glyphCount)
        #expect(compiled.text == (try face.rawTable("TSI1")))
        #expect(compiled.index == (try face.rawTable("TSI0")))
        #expect(try face.table(TSI5Table.self)?.groups == [0, 1, 2, 3, 0])
        #expect(try face.table(TSIPTable.self)?.text == "GPOS source\nline 2")
    }

    @Test func aBrokenIndexIsNamedAndTheTableKept() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: try builtFont("vtt", in: folder))
        let face = font.faces[0]
        var index = try #require(try face.rawTable("TSI0"))
        index[index.count - 40 + 7] ^= 0xFF   // the magic record's offset
        face.setRawTable("TSI0", index)
        #expect(throws: FontError.self) { try face.table(TSI1Table.self) }
        let out = folder.file("kept.ttf")
        try font.save(to: out)
        #expect(try Font(path: out).faces[0].rawTable("TSI1") == (try face.rawTable("TSI1")))
    }

    @Test func diffNamesTheGlyphWhoseProgramChanged() throws {
        let folder = try TemporaryFolder()
        let a = try Font(path: try builtFont("vtt", in: folder))
        let b = try Font(path: try builtFont("vtt", in: folder))
        let face = b.faces[0]
        var programs = try #require(try face.table(TSI1Table.self)).programs
        let A = try #require(try face.glyphID(named: "A"))
        programs[A] = "SVTCA[X]"
        let compiled = TSI1Table.compile(
            programs: programs, extraPrograms: [:], extraNames: TSI1Table.extraNames, glyphCount: try face.glyphCount)
        face.setRawTable("TSI1", compiled.text)
        face.setRawTable("TSI0", compiled.index)
        let edited = try Font(data: try b.serialized().bytes)
        let diff = try FontDiff.compare(a.faces[0], edited.faces[0]).map(\.description)
        #expect(diff.contains { $0.hasPrefix("~ TSI1.A: 3 lines") })
        #expect(diff.contains { $0.hasPrefix("- TSI1.fpgm: ") })
        #expect(!diff.contains { $0.contains("TSI1.a:") })
    }
}
