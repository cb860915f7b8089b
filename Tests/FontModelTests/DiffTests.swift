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

    @Test func cffOutlinesCompareByCharstring() throws {
        let a = try Font(path: Corpus.noto)
        let edited = try Font(path: Corpus.noto)
        try makeAllCaps(edited.faces[0])
        let b = try Font(data: try edited.serialized().bytes)
        let diff = try FontDiff.compare(a.faces[0], b.faces[0]).map(\.description)
        let aName = try a.faces[0].glyphName(try #require(try a.faces[0].glyphID(for: "a")))
        #expect(diff.contains("~ glyph \(aName) outline"))
    }
}
