import Foundation
import Testing
@testable import FontModel

/// Fonts built by fontTools for formats the corpus lacks: non-CID CFF and variable TrueType.
@Suite struct BuiltFontTests {
    @Test func nonCIDCFFNamesBoundsRenameAndCaps() throws {
        let tmp = try TemporaryFolder()
        let path = try builtFont("cff", in: tmp)
        let font = try Font(path: path)
        let face = font.faces[0]
        #expect(try face.glyphNames() == [".notdef", "A", "a", "B", "b"])
        let cff = try #require(try face.cff)
        #expect(!cff.isCIDKeyed)
        #expect(try cff.bounds(1) == GlyphBounds(xMin: 0, yMin: 0, xMax: 600, yMax: 700))
        #expect(try cff.bounds(2) == GlyphBounds(xMin: 50, yMin: 0, xMax: 450, yMax: 500))   // through a local subroutine
        try makeAllCaps(face)
        try face.rename(family: "Caps CFF")
        let out = tmp.file("caps.otf")
        try font.save(to: out)
        let caps = try #require(try fontTools("caps", out) as? [[String: Any]])
        #expect((caps.first?["problems"] as? [String]) == [])
        let names = try #require(try fontTools("cffnames", out) as? [[String?]])
        #expect(names.first == ["CapsCFF-Regular", "Caps CFF", "Caps CFF"])
        #expect(try otsAccepts(out).0)
        // Bounds were recomputed from the new charstrings: a is now as wide as A.
        #expect(try Font(path: out).faces[0].head.int("xMax") == 600)
    }

    @Test func variableFontGlyphVariationsMoveWithTheOutline() throws {
        let tmp = try TemporaryFolder()
        let path = try builtFont("variable", in: tmp)
        let font = try Font(path: path)
        let face = font.faces[0]
        try makeAllCaps(face)
        let out = tmp.file("caps.ttf")
        try font.save(to: out)
        let variations = try #require(try fontTools("gvar", out) as? [[String: Any]])
        let gvar = try #require(variations.first)
        #expect(String(describing: gvar["a"] ?? "none") == String(describing: gvar["A"] ?? "none"))
        #expect(String(describing: gvar["b"] ?? "none") == String(describing: gvar["B"] ?? "none"))
        let caps = try #require(try fontTools("caps", out) as? [[String: Any]])
        #expect((caps.first?["problems"] as? [String]) == [])
        #expect(try otsAccepts(out).0)
    }

    @Test func synthesizedGlyphNamesMatchFontTools() throws {
        let tmp = try TemporaryFolder()
        let path = try builtFont("variable", in: tmp)   // post format 3: no names stored
        let ours = try Font(path: path).faces[0].glyphNames()
        let theirs = try #require(try fontTools("order", path) as? [[String]])
        #expect(ours == theirs.first)
    }

    @Test(arguments: ["dejavu-sans", "roboto", "liberation-sans", "wqy-zenhei"])
    func glyphNamesMatchFontTools(id: String) throws {
        let font = try Font(path: Corpus.path(id))
        let theirs = try #require(try fontTools("order", Corpus.path(id)) as? [[String]])
        for (face, names) in zip(font.faces, theirs) { #expect(try face.glyphNames() == names, "face \(face.index)") }
    }

    @Test func cffCopyAcrossFontDictsWithOtherSubroutinesIsRefused() throws {
        let font = try Font(path: Corpus.noto)
        let face = font.faces[0]
        let cff = try #require(try face.cff)
        let a = try #require(try face.glyphID(for: "a"))
        // Find a glyph in another font DICT that calls local subroutines of its own.
        var source: Int?
        for id in stride(from: 1, to: cff.glyphCount, by: 97) where cff.fdIndex(id) != cff.fdIndex(a) {
            if try CharStringInterpreter.run(cff: cff, glyph: id).usesLocalSubrs,
                cff.privates[cff.fdIndex(id)].localSubrs?.range != cff.privates[cff.fdIndex(a)].localSubrs?.range
            {
                source = id; break
            }
        }
        let s = try #require(source)
        do {
            try face.copyOutline(from: s, to: a)
            Issue.record("copy across font DICTs was accepted")
        } catch let e as FontError {
            #expect(e.message.contains("different font DICTs") && e.message.contains("local subroutines"))
            #expect(e.description.contains("NotoSansCJK-Regular.ttc"))
        }
        #expect(try face.hmtx.isEdited == false)   // nothing half-done
    }
}
