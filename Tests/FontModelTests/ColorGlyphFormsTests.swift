import Foundation
import Testing
@testable import FontModel

/// Issue 33, item 4: a glyph says how it is coloured, and a glyph copy in a COLR version 0
/// font takes the source's layers.
@Suite struct ColorGlyphFormsTests {
    @Test func glyphsSayHowTheyAreColoured() throws {
        let emoji = try Font(path: Corpus.path("noto-emoji")).faces[0]
        #expect(try emoji.colorForms(try #require(try emoji.glyphID(for: "😀"))) == ["CBDT bitmap"])
        #expect(try emoji.colorForms(0) == [])
        let folder = try TemporaryFolder()
        let colr = try Font(path: try builtFont("colr", in: folder)).faces[0]
        let forms = try (0..<colr.glyphCount).flatMap { try colr.colorForms($0) }
        #expect(forms.contains("COLR v1 paint") && forms.contains("COLR v0, 2 layers"), "\(forms)")
        let sbix = try Font(path: try builtFont("svg-sbix", in: folder)).faces[0]
        #expect(try sbix.colorForms(try #require(try sbix.glyphID(named: "A"))) == ["sbix bitmap", "SVG"])
    }

    @Test func aCopyTakesTheSourcesLayers() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: try builtFont("colr0", in: folder))
        let face = font.faces[0]
        let A = try #require(try face.glyphID(named: "A")), b = try #require(try face.glyphID(named: "b"))
        #expect(try face.colorForms(b) == [])
        try face.copyOutline(from: A, to: b)
        let out = folder.file("copied.ttf")
        try font.save(to: out)
        let saved = try Font(path: out).faces[0]
        #expect(try saved.colorForms(b) == ["COLR v0, 2 layers"])
        // fontTools reads the same layers for both.
        let r = try run("python3", ["-c", "import sys; from fontTools.ttLib import TTFont; c = TTFont(sys.argv[1])['COLR'].ColorLayers; print([(l.name, l.colorID) for l in c['A']] == [(l.name, l.colorID) for l in c['b']])", out])
        #expect(r.stdout == "True\n", "\(r.stderr)")
    }
}
