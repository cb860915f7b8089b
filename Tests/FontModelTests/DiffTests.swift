import Foundation
import Testing
@testable import FontModel

@Suite struct DiffTests {
    @Test func sameFontHasNoDifferences() throws {
        let a = try Font(path: Corpus.dejavu), b = try Font(path: Corpus.dejavu)
        #expect(try FontDiff.compare(a.faces[0], b.faces[0]).isEmpty)
    }

    @Test func fieldsNamesGlyphsAndTablesAreReported() throws {
        let a = try Font(path: Corpus.dejavu)
        let edited = try Font(path: Corpus.dejavu)
        let face = edited.faces[0]
        try face.hhea.set("ascender", .int(1800))
        try face.name.set(4, "DejaVu Changed")
        try makeAllCaps(face)
        face.removeTable("kern")
        face.setRawTable("TEST", [1, 2, 3, 4])
        let b = try Font(data: try edited.serialized().bytes)
        let diff = try FontDiff.compare(a.faces[0], b.faces[0]).map(\.description)
        #expect(diff.contains("~ hhea.ascender: 1901 → 1800"))
        #expect(diff.contains("~ name.4 (3/1/0x409): DejaVu Sans → DejaVu Changed"))
        #expect(diff.contains("~ glyph a outline"))
        #expect(diff.contains("~ glyph a advance: 1255 → 1401"))
        #expect(diff.contains("- kern") && diff.contains("+ TEST"))
        #expect(!diff.contains { $0.contains("glyph A ") })   // A itself did not change
    }

    /// Tables FontDiff has no case for are found through the registry: TTFA by option, ltag by
    /// tag index; a GSUB that one side cannot decode is said by size instead of failing the diff.
    @Test func registeredTablesSayWhatChanged() throws {
        let edited = try Font(path: Corpus.dejavu)
        let face = edited.faces[0]
        face.setRawTable("TTFA", Array("\nttfautohint version = 1.8.3\nhinting-range-min = 6\nsymbol = 0\n".utf8))
        let a = try Font(data: try edited.serialized().bytes)
        #expect(try a.faces[0].table(TTFATable.self)?.text?.contains("symbol = 0") == true)
        face.setRawTable("TTFA", Array("\nttfautohint version = 1.8.3\nhinting-range-min = 8\nsymbol = 0\n".utf8))
        face.setRawTable("ltag", try LtagTable(tags: ["en", "sr-Latn"]).encode())
        let b = try Font(data: try edited.serialized().bytes)
        face.setRawTable("ltag", try LtagTable(tags: ["en", "sr-Cyrl"]).encode())
        face.setRawTable("GSUB", [0, 1, 0, 0, 0xFF, 0xFF])   // offsets past the end
        let c = try Font(data: try edited.serialized().bytes)
        #expect(try FontDiff.compare(a.faces[0], b.faces[0]).map(\.description).contains("~ TTFA.hinting-range-min: 6 → 8"))
        let bc = try FontDiff.compare(b.faces[0], c.faces[0]).map(\.description)
        #expect(bc.contains("~ ltag.tag 1: sr-Latn → sr-Cyrl"))
        #expect(bc.contains { $0.hasPrefix("~ GSUB: ") && $0.hasSuffix("→ 6 bytes") })
    }

    /// Texts that would print alike are quoted with their invisible characters escaped (issue
    /// 35, item 15): a trailing newline, a doubled space, a tab.
    @Test func whitespaceOnlyChangesShow() throws {
        let a = try Font(path: Corpus.dejavu), edited = try Font(path: Corpus.dejavu)
        try edited.faces[0].name.set(4, "DejaVu Sans\n")
        try edited.faces[0].name.set(1, "DejaVu  Sans")
        try edited.faces[0].name.set(5, "Version\t2.37")
        let diff = try FontDiff.compare(a.faces[0], try Font(data: try edited.serialized().bytes).faces[0]).map(\.description)
        #expect(diff.contains("~ name.4 (3/1/0x409): \"DejaVu Sans\" → \"DejaVu Sans\\n\""), "\(diff)")
        #expect(diff.contains("~ name.1 (3/1/0x409): \"DejaVu Sans\" → \"DejaVu  Sans\""), "\(diff)")
        #expect(diff.contains { $0.hasPrefix("~ name.5 (3/1/0x409): \"Version 2.37\" → \"Version\\t2.37\"") }, "\(diff)")
        // Ordinary changes print as before, unquoted.
        try edited.faces[0].name.set(4, "DejaVu Changed")
        let plain = try FontDiff.compare(a.faces[0], try Font(data: try edited.serialized().bytes).faces[0]).map(\.description)
        #expect(plain.contains("~ name.4 (3/1/0x409): DejaVu Sans → DejaVu Changed"), "\(plain)")
    }

    @Test func cffOutlinesCompareByCharstring() throws {
        let a = try Font(path: Corpus.noto)
        let edited = try Font(path: Corpus.noto)
        try makeAllCaps(edited.faces[0])
        let b = try Font(data: try edited.serialized().bytes)
        let diff = try FontDiff.compare(a.faces[0], b.faces[0]).map(\.description)
        let aName = try a.faces[0].glyphName(try #require(try a.faces[0].glyphID(for: "a")))
        #expect(diff.contains("~ glyph \(aName) outline"))
    }

    /// Layout changes read as features, kerned pairs and substitutions, one line each (an
    /// inserted pair record does not shift every record after it into the report), and what
    /// those do not cover (a caps edit's mark attachment) member by member.
    @Test func layoutChangesReadAsPairsAndSubstitutions() throws {
        let path = Corpus.path("roboto")
        let original = try Font(path: path).faces[0]
        let font = try Font(path: path)
        let face = font.faces[0]
        func id(_ name: String) throws -> Int { try #require(try face.glyphID(named: name)) }
        try face.setKerning(id("A"), id("V"), -120)
        try face.setKerning(id("T"), id("o"), -50)
        try face.addSubstitution(feature: "liga", input: [id("f"), id("f"), id("l")], output: id("A"))
        let edited = try Font(data: try font.serialized().bytes).faces[0]
        let lines = try FontDiff.compare(original, edited).map(\.description).filter { !$0.contains("head.") }
        // The ligature replaces f f l → uniFB04 in lookup 17, the one every Latin language
        // system reaches and which holds it.
        #expect(
            lines == [
                "~ GPOS.kern A V: -87 → -120", "~ GPOS.kern T o: -99 → -50", "- GSUB.liga: f f l → uniFB04", "+ GSUB.liga: f f l → A",
            ])
        // Everything else a lookup does is still compared: the caps edit moves marks too.
        try face.copyCapitalsOntoLowercase()
        let caps = try FontDiff.compare(original, try Font(data: try font.serialized().bytes).faces[0]).map(\.description)
        // (Booleans first: a failing #expect on the list would print all 15,000 lines.)
        let coverageLine = caps.contains { $0.hasPrefix("+ GPOS.LookupList.Lookup[0].SubTable[0].Coverage: a b c") }
        let anchorLine = caps.contains { $0.contains("BaseAnchor") }
        let pairLine = caps.contains("~ GPOS.kern A v: -50 → -120")   // a takes A's kerning, A V's edit included
        let ligatureLine = caps.contains("- GSUB.liga: f f i → uniFB03")
        #expect(coverageLine && anchorLine && pairLine && ligatureLine)
    }
}
