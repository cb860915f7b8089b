import Foundation
import Testing
@testable import FontModel

/// Hand edits to layout (kerning, substitutions, GDEF classes), checked with HarfBuzz shaping
/// the saved font, fontTools reading it and OTS accepting it.
@Suite struct LayoutEditTests {
    static let roboto = Corpus.path("roboto")

    /// HarfBuzz's total advance of `text` (kerning included; HarfBuzz may split a kern table
    /// value between the two glyphs).
    static func advance(_ path: String, _ text: String) throws -> Int {
        let r = try run("hb-shape", ["--no-glyph-names", "--no-clusters", path, text])
        return r.out.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|").map {
            Int($0.split(separator: "+")[1]) ?? .min
        }.reduce(0, +)
    }

    /// How much HarfBuzz kerns a two-letter text.
    static func kerned(_ path: String, _ pair: String) throws -> Int {
        try advance(path, pair) - advance(path, String(pair.prefix(1))) - advance(path, String(pair.suffix(1)))
    }

    @Test func kerningEditsShapeAsSet() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Self.roboto)
        let face = font.faces[0]
        func id(_ c: String) throws -> Int { try #require(try face.cmap?.glyph(for: c.unicodeScalars.first!.value)) }
        let oBefore = try face.kerning(id("T"), id("o"))
        #expect(oBefore != 0)
        // A glyph pair (A V), a class-kerned pair given an exception (T o), an unkerned pair
        // (a b), a class cell (L T: every pair of the two classes), and a removal (Y a).
        let lClassmate = try id("Ĺ"), tClassmate = try id("Ť")
        let classBefore = try face.kerning(lClassmate, tClassmate)
        #expect(try face.kerning(id("L"), id("T")) == classBefore)
        try face.setKerning(id("A"), id("V"), -120)
        #expect(try face.setKerning(id("T"), id("o"), -50).contains("in front of the class subtable"))
        try face.setKerning(id("a"), id("b"), 33)
        #expect(try face.setKerning(id("L"), id("T"), -7, classLevel: true).contains("class"))
        try face.setKerning(id("Y"), id("a"), nil)
        #expect(try face.kerning(id("A"), id("V")) == -120)
        #expect(try face.kerning(id("T"), id("o")) == -50)
        #expect(try face.kerning(id("T"), id("e")) == oBefore, "an exception for T o leaves T e's class value")
        #expect(try face.kerning(id("a"), id("b")) == 33)
        #expect(try face.kerning(lClassmate, tClassmate) == -7, "a class edit changes every pair of the classes")
        #expect(try face.kerning(id("Y"), id("a")) == 0)
        let out = folder.file("kerned.ttf")
        try font.save(to: out)
        for (text, value) in [("AV", -120), ("To", -50), ("ab", 33), ("LT", -7), ("Ya", 0), ("Te", oBefore)] {
            #expect(try Self.kerned(out, text) == value, "\(text)")
        }
        #expect(try otsAccepts(out).0)
        // fontTools reads the edited GPOS and finds the same pairs.
        let script = repositoryRoot.appendingPathComponent("Scripts/bench-py/kerning_pairs.py").path
        let theirs = try run("python3", [script, out])
        #expect(
            theirs.out.trimmingCharacters(in: .whitespacesAndNewlines) == KerningTests.summary(try Font(path: out).faces[0].kerningPairs()))
    }

    @Test func kernTableEdits() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        face.removeTable("GPOS")
        func id(_ c: String) throws -> Int { try #require(try face.cmap?.glyph(for: c.unicodeScalars.first!.value)) }
        #expect(try face.setKerning(id("A"), id("V"), -200) == "kern table")
        try face.setKerning(id("A"), id("B"), -5)
        try face.setKerning(id("T"), id("o"), nil)
        let out = folder.file("kerned.ttf")
        try font.save(to: out)
        let r = try run(
            "python3",
            [
                "-c",
                "import sys; from fontTools.ttLib import TTFont; k = TTFont(sys.argv[1])['kern'].kernTables[0].kernTable; print(k[('A','V')], k[('A','B')], ('T','o') in k)",
                out,
            ])
        #expect(r.out == "-200 -5 False\n", "\(r.err)")
        #expect(try Self.kerned(out, "AV") == -200)
        #expect(try Self.kerned(out, "AB") == -5)
        let differences = try FontDiff.compare(try Font(path: Corpus.dejavu).faces[0], try Font(path: out).faces[0]).map(\.description)
        #expect(differences.contains("~ kern.A V: -131 → -200") && differences.contains("+ kern.A B: -5"), "\(differences)")
    }

    @Test func substitutionAndGlyphClassEdits() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Self.roboto)
        let face = font.faces[0]
        func id(_ name: String) throws -> Int { try #require(try face.glyphID(named: name)) }
        #expect(try face.addSubstitution(feature: "liga", input: [id("f"), id("f"), id("l")], output: id("A")).contains("ligature"))
        #expect(try face.removeSubstitution(feature: "liga", input: [id("f"), id("f"), id("i")]) == 1)
        #expect(try face.addSubstitution(feature: "smcp", input: [id("a")], output: id("B")).contains("single"))
        try face.setGlyphClass(id("A"), 3)
        #expect(throws: FontError.self) { try face.addSubstitution(feature: "nope", input: [0], output: 1) }
        #expect(throws: FontError.self) { try face.setGlyphClass(id("A"), 7) }
        let out = folder.file("subst.ttf")
        try font.save(to: out)
        let shape = ["--no-positions", "--no-clusters", "--no-glyph-names"]
        let ffl = try run("hb-shape", shape + [out, "ffl"]).out
        let ffi = try run("hb-shape", shape + [out, "ffi"]).out
        let a = try run("hb-shape", shape + ["--features=smcp", out, "a"]).out
        #expect(ffl == "[\(try id("A"))]\n")
        #expect(ffi.contains("|"), "ffi no longer makes one ligature glyph: \(ffi)")
        #expect(a == "[\(try id("B"))]\n")
        let r = try run(
            "python3",
            [
                "-c",
                "import sys; from fontTools.ttLib import TTFont; print(TTFont(sys.argv[1])['GDEF'].table.GlyphClassDef.classDefs['A'])",
                out,
            ])
        #expect(r.out == "3\n", "\(r.err)")
        #expect(try otsAccepts(out).0)
    }

    /// Issue 33, item 3: an edit goes to the lookups the glyphs' script reaches. DejaVu Sans has
    /// a 'liga' lookup only Arabic reaches (17) before the Latin one (18); the ligature must form
    /// for Latin text with HarfBuzz's own script detection.
    @Test func substitutionsGoWhereTheScriptReaches() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        func glyph(_ c: Unicode.Scalar) throws -> Int { try #require(try face.glyphID(for: c)) }
        let (T, h, Z) = (try glyph("T"), try glyph("h"), try glyph("Z"))
        let latin = try face.addSubstitution(feature: "liga", input: [T, h], output: Z)
        #expect(latin == "GSUB lookup 18 (ligature substitution, reached by latn)")
        #expect(try face.addSubstitution(feature: "liga", input: [T, h], output: Z, script: "arab").hasPrefix("GSUB lookup 17 "))
        // A language system the feature lacks, and a feature the font lacks, say what exists.
        #expect { try face.addSubstitution(feature: "liga", input: [T, h], output: Z, script: "cyrl") } throws: {
            "\($0)".contains("no language system cyrl") && "\($0)".contains("latn (9 language systems)")
        }
        #expect { try face.addSubstitution(feature: "lgia", input: [T, h], output: Z) } throws: { "\($0)".contains("did you mean 'liga'?") }
        let out = folder.file("th.ttf")
        try font.save(to: out)
        #expect(try run("hb-shape", ["--no-positions", "--no-clusters", "--no-glyph-names", out, "The"]).out.hasPrefix("[\(Z)|"))
        #expect(try run("hb-shape", ["--no-positions", "--no-clusters", "--no-glyph-names", out, "Thé"]).out.hasPrefix("[\(Z)|"))
        // Adding it again replaces it where it is (lookup 18), not a second time elsewhere.
        let twice = try Font(path: out).faces[0]
        #expect(try twice.addSubstitution(feature: "liga", input: [T, h], output: try glyph("Y")).hasPrefix("GSUB lookup 18 "))
        // Removing reaches the same lookups: the Latin one only, unless Arabic is named.
        let again = try Font(path: out).faces[0]
        #expect(try again.removeSubstitution(feature: "liga", input: [T, h]) == 1)
        #expect(try again.removeSubstitution(feature: "liga", input: [T, h], script: "arab") == 1)
    }

    /// A GSUB edit in a font other tables shape says so: Mondulkiri has GSUB and AAT morx
    /// (which HarfBuzz applies to horizontal text instead of GSUB); Harmattan has Graphite's Silf.
    @Test func anEditSaysWhenOtherTablesShapeTheFont() throws {
        let face = try Font(path: "/usr/share/fonts/opentype/mondulkiri/Mondulkiri-R.ttf").faces[0]
        let T = try #require(try face.glyphID(for: "T")), h = try #require(try face.glyphID(for: "h")),
            Z = try #require(try face.glyphID(for: "Z"))
        let said = try face.addSubstitution(feature: "liga", input: [T, h], output: Z)
        #expect(
            said.contains("; note: HarfBuzz and CoreText shape this font's horizontal text with its AAT morx table, not GSUB"), "\(said)")
        #expect(!said.contains("Silf"))
        let harmattan = try Font(path: "/usr/share/fonts/truetype/harmattan/Harmattan-Regular.ttf").faces[0]
        let (aT, ah, aZ) = (
            try #require(try harmattan.glyphID(for: "T")), try #require(try harmattan.glyphID(for: "h")),
            try #require(try harmattan.glyphID(for: "Z"))
        )
        let graphite = try harmattan.addSubstitution(feature: "liga", input: [aT, ah], output: aZ)
        #expect(
            graphite.hasSuffix(
                "; note: Graphite shapers (HarfBuzz built with graphite2, LibreOffice, Firefox) shape this font with its Silf table, not GSUB"
            ), "\(graphite)")
    }

    /// The acceptance sweep: on every corpus font whose 'liga' Latin text reaches, an added
    /// ligature forms with HarfBuzz's default script detection (the OpenType shaper: SIL fonts
    /// with Graphite tables shape through graphite2 by default).
    @Test func anAddedLigatureFormsOnEveryCorpusFont() throws {
        let folder = try TemporaryFolder()
        var formed = 0
        for (id, path) in Corpus.fonts where FileManager.default.fileExists(atPath: path) {
            let font = try Font(path: path)
            let face = font.faces[0]
            guard let T = try face.glyphID(for: "T"), let h = try face.glyphID(for: "h"), let Z = try face.glyphID(for: "Z"),
                try face.layoutFeatures().contains(where: {
                    $0.table == "GSUB" && $0.feature == "liga" && ["latn", "DFLT"].contains($0.script)
                })
            else { continue }
            let where_ = try face.addSubstitution(feature: "liga", input: [T, h], output: Z)
            let out = folder.file("\(id).\(path.hasSuffix(".otf") ? "otf" : "ttf")")
            try font.save(face: face, to: out)
            let shaped = try run("hb-shape", ["--shaper=ot", "--no-positions", "--no-clusters", "--no-glyph-names", out, "Th"]).out
            #expect(shaped == "[\(Z)]\n", "\(id): \(where_): \(shaped)")
            formed += 1
        }
        #expect(formed >= 4, "only \(formed) corpus fonts have a Latin 'liga'")
    }

    /// Kerning too: DejaVu Sans's 'kern' reaches lookups 14 and 15 for Latin, 15 alone for
    /// Greek. A Greek pair goes to 15 (it went to 14, which Greek text never reaches).
    @Test func kerningGoesWhereTheScriptReaches() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        func glyph(_ c: Unicode.Scalar) throws -> Int { try #require(try face.glyphID(for: c)) }
        #expect(try face.setKerning(glyph("Λ"), glyph("Ψ"), -150).hasPrefix("GPOS lookup 15 "))
        #expect { try face.setKerning(glyph("L"), glyph("V"), -10, script: "hebr", language: "IWR") } throws: {
            "\($0)".contains("no language system hebr/IWR")
        }
        let out = folder.file("greek.ttf")
        try font.save(to: out)
        #expect(try Self.kerned(out, "ΛΨ") == -150)
    }
}
