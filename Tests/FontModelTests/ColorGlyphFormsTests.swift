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
        let r = try run(
            "python3",
            [
                "-c",
                "import sys; from fontTools.ttLib import TTFont; c = TTFont(sys.argv[1])['COLR'].ColorLayers; print([(l.name, l.colorID) for l in c['A']] == [(l.name, l.colorID) for l in c['b']])",
                out,
            ])
        #expect(r.out == "True\n", "\(r.err)")
    }

    /// Version 1: the copy takes the source's paint graph and clip box, or its version 0
    /// layers (losing its own paint); fontTools reads the same paint for both, OTS accepts it.
    @Test func aCopyTakesTheSourcesPaintAndClipBox() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: try builtFont("colr", in: folder))
        let face = font.faces[0]
        func id(_ name: String) throws -> Int { try #require(try face.glyphID(named: name)) }
        try face.copyOutline(from: try id("c1"), to: try id("b"))   // a paint with a clip box
        try face.copyOutline(from: try id("A"), to: try id("c6"))   // version 0 layers over a paint
        let out = folder.file("copied.ttf")
        try font.save(to: out)
        let saved = try Font(path: out).faces[0]
        #expect(try saved.colorForms(try id("b")) == ["COLR v1 paint"])
        #expect(try saved.colorForms(try id("c6")) == ["COLR v0, 2 layers"])
        let script = """
            import sys
            from fontTools.ttLib import TTFont
            t = TTFont(sys.argv[1])['COLR'].table
            paint = {r.BaseGlyph: r.Paint for r in t.BaseGlyphList.BaseGlyphPaintRecord}
            layers = {r.BaseGlyph: (r.FirstLayerIndex, r.NumLayers) for r in t.BaseGlyphRecordArray.BaseGlyphRecord}
            clips = t.ClipList.clips
            print(paint['b'] == paint['c1'], clips['b'] == clips['c1'], 'c6' in paint, 'c6' in clips, layers['c6'] == layers['A'])
            """
        let r = try run("python3", ["-c", script, out])
        #expect(r.out == "True True False False True\n", "\(r.err)")
        let ots = try run("ots-sanitize", [out])
        #expect(ots.status == 0, "\(ots.out)\(ots.err)")
    }
}
