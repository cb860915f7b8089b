import Foundation
import Testing
@testable import FontModel

@Suite struct EditTests {
    @Test(arguments: ["dejavu-sans", "wqy-zenhei", "noto-cjk"])
    func allCapsEditIsReadBackByFontToolsAndAcceptedByOTS(id: String) throws {
        let tmp = try TemporaryFolder()
        let input = Corpus.path(id)
        let font = try Font(path: input)
        for face in font.faces { try makeAllCaps(face) }
        let out = tmp.file("caps-" + (input as NSString).lastPathComponent)
        let report = try font.save(to: out)
        #expect(!report.reencodedTables.isEmpty)

        let perFace = try #require(try fontTools("caps", out) as? [[String: Any]])
        #expect(perFace.count == font.faces.count)
        for (i, face) in perFace.enumerated() {
            #expect((face["problems"] as? [String]) == [], "face \(i): \(face)")
        }
        for i in font.faces.indices {
            let (ok, message) = try otsAccepts(out, face: font.isCollection ? i : nil)
            #expect(ok, "ots-sanitize rejected face \(i): \(message)")
        }
        if font.isCollection {
            // Shared glyph data stays shared. noto-cjk's proportional and monospace faces share a
            // GSUB but map a–z to different glyphs, so the layout edit parts those GSUBs (5 → 10,
            // +0.8 MB); the rest stays within a percent.
            let before = Double(fileSize(input)), after = Double(fileSize(out))
            #expect(abs(after - before) / before < (id == "noto-cjk" ? 0.05 : 0.01), "size \(before) → \(after)")
        }
    }

    /// The flagship edit done right: after the caps edit with layout, HarfBuzz shapes lowercase
    /// text exactly as the same text in capitals (same advances, offsets and glyph count: no
    /// lowercase ligature, capital kerning and marks), glyph ids aside. Without layout it does
    /// not (the test can fail).
    /// EB Garamond (CFF, with `size` FeatureParams) and Inter (variable GDEF) are issue 32's
    /// fonts whose layout was once opaque.
    @Test(arguments: ["dejavu-sans", "roboto", "liberation-sans", "noto-cjk", "eb-garamond", "inter-vf"])
    func capsWithLayoutShapesLowercaseAsUppercase(id: String) throws {
        let tmp = try TemporaryFolder()
        let texts = ["office waving", "avatar type fjord", "typography ffl", "wavy tea vault"]
        func positions(_ path: String, _ text: String) throws -> [String] {
            let r = try run("hb-shape", ["--no-glyph-names", "--no-clusters", path, text])
            #expect(r.status == 0, "\(r.err)")
            // "[84+1409|75+1132@10,0|…]": drop the glyph ids, keep advances and offsets.
            return r.out.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                .split(separator: "|").map { String($0.drop { $0 != "+" && $0 != "@" }) }
        }
        var differedWithoutLayout = false
        for layout in [false, true] {
            let font = try Font(path: Corpus.path(id))
            try font.faces[0].copyCapitalsOntoLowercase(layout: layout)
            let out = tmp.file("caps-\(layout)." + (font.isCollection ? "ttc" : "ttf"))
            try font.save(to: out)
            for text in texts {
                let lower = try positions(out, text), upper = try positions(out, text.uppercased())
                if layout {
                    #expect(lower == upper, "\(id): '\(text)' shapes differently from its capitals")
                } else if lower != upper {
                    differedWithoutLayout = true
                }
            }
        }
        if id != "noto-cjk" {
            #expect(differedWithoutLayout, "\(id): the outline-only edit already shaped like capitals; the test shows nothing")
        }
    }

    @Test func otsRejectsOriginalWqyButAcceptsOurCopy() throws {
        let tmp = try TemporaryFolder()
        #expect(try otsAccepts(Corpus.wqy, face: 0).0 == false)
        try Font(path: Corpus.wqy).save(to: tmp.file("wqy.ttc"))
        for i in 0..<3 { #expect(try otsAccepts(tmp.file("wqy.ttc"), face: i).0) }
    }

    @Test func ascenderOfOneFaceOfASharedHhea() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.noto)
        let old = try font.faces[3].hhea.int("ascender")
        try font.faces[3].hhea.set("ascender", .int(Int64(old + 77)))
        #expect(try font.faces[2].hhea.int("ascender") == old)   // copy-on-write per face
        let out = tmp.file("noto.ttc")
        try font.save(to: out)
        let values = try #require(try fontTools("field", out, "hhea", "ascent") as? [Int])
        #expect(values == (0..<10).map { $0 == 3 ? old + 77 : old })
        let before = Double(fileSize(Corpus.noto)), after = Double(fileSize(out))
        #expect(abs(after - before) / before < 0.01)
        let reread = try Font(path: out)
        for i in [0, 1, 2, 4, 5, 6, 7, 8, 9] {
            for tag in font.faces[i].tags {
                #expect(try reread.faces[i].rawTable(tag) == Font(path: Corpus.noto).faces[i].rawTable(tag), "face \(i) \(tag)")
            }
        }
    }

    @Test func renameIsSeenByFontToolsAndFontconfig() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        let ps = try font.faces[0].rename(family: "DejaVu Caps Test")
        #expect(ps == "DejaVuCapsTest")
        let out = tmp.file("renamed.ttf")
        try font.save(to: out)
        let faces = try #require(try fontTools("names", out) as? [[String: Any]])
        let debug = try #require(faces.first?["debug"] as? [String: String?])
        #expect(debug["1"] == "DejaVu Caps Test")
        #expect(debug["4"] == "DejaVu Caps Test")
        #expect(debug["6"] == "DejaVuCapsTest")
        #expect(debug["16"] == "DejaVu Caps Test")
        let records = try #require(faces.first?["records"] as? [[Any]])
        for nameID in [1, 4, 6] {
            let platforms = Set(records.filter { ($0[3] as? Int) == nameID }.compactMap { $0[0] as? Int })
            #expect(platforms.isSuperset(of: [1, 3]), "name \(nameID) on platforms \(platforms)")
            for r in records where (r[3] as? Int) == nameID { #expect((r[4] as? String)?.contains("DejaVu Sans") == false) }
        }
        let scan = try run("fc-scan", ["--format", "%{family}|%{postscriptname}", out])
        #expect(scan.out.contains("DejaVu Caps Test"))
        #expect(scan.out.contains("|DejaVuCapsTest"))
        // The original is untouched and still has its own names.
        #expect(try Font(path: Corpus.dejavu).faces[0].postScriptName == "DejaVuSans")
    }

    @Test func renameKeepsEachNamesStructure() throws {
        let font = try Font(path: Corpus.wqy)
        for face in font.faces { try face.rename(family: (try face.familyName ?? "") + " Caps") }
        #expect(
            try font.faces.map { try $0.familyName } == [
                "WenQuanYi Zen Hei Caps", "WenQuanYi Zen Hei Mono Caps", "WenQuanYi Zen Hei Sharp Caps",
            ])
        #expect(try Set(font.faces.map { try $0.postScriptName }).count == 3)   // still distinct in the collection
        for face in font.faces { #expect(try face.postScriptName?.contains("Caps") == true) }
    }

    @Test func decodedTablesOutliveTheirFont() throws {
        // Keep only the tables: they read glyphs and charstrings lazily from the file's bytes.
        let glyf = try #require(try Font(path: Corpus.dejavu).faces[0].glyf)
        let cff = try #require(try Font(data: Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.noto)))).faces[0].cff)
        for _ in 0..<3 { _ = [UInt8](repeating: 0xAB, count: 40_000_000) }   // reuse freed memory if any
        #expect(try glyf.glyph(36).contours.count > 0)
        #expect(try cff.bounds(34) != nil)
        #expect(try cff.glyphNames()[34] == "cid00034")
    }

    @Test func renameWithAStyle() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        #expect(try face.rename(family: "Test Family", style: "Caps") == "TestFamily-Caps")
        let name = try face.name
        // DejaVu has a typographic subfamily (17), which takes the style; the legacy ID 2 keeps its RIBBI value.
        #expect(name.string(1) == "Test Family" && name.string(17) == "Caps" && name.string(2) == "Book")
        #expect(name.string(4) == "Test Family Caps")
    }

    @Test func renameRewritesCFFNames() throws {
        let font = try Font(path: Corpus.noto)
        try font.faces[0].rename(family: "Noto Caps")
        let (bytes, _) = try font.serialized()
        let cff = try #require(try Font(data: bytes).faces[0].cff)
        #expect(cff.fontNames.first == "NotoCaps-Regular")
        #expect(cff.familyName == "Noto Caps")
        #expect(cff.glyphCount == 65535)
        #expect(try cff.glyphNames()[100] == "cid00100")
    }

    @Test func postScriptNamesAreValid() {
        #expect(Face.postScriptName(from: "My (Font) [Test] 100%/x") == "MyFontTest100x")
        #expect(Face.postScriptName(from: String(repeating: "A", count: 100)).count == 63)
        #expect(Face.postScriptName(from: "Ünïcode") == "ncode")
    }

    @Test func fieldRangeAndNameChecks() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        let hhea = try face.hhea
        #expect(throws: FontError.self) { try hhea.set("ascender", .int(40000)) }
        do { try hhea.set("ascender", .int(40000)) } catch let e as FontError {
            #expect(e.message.contains("Int16") && e.message.contains("40000"))
        }
        do { _ = try hhea.value("ascendr") } catch let e as FontError {
            #expect(e.message == "hhea has no field 'ascendr' (did you mean 'ascender'?)")
        }
        try hhea.set("ascender", .int(1800))
        #expect(hhea.int("ascender") == 1800)
        let head = try face.head
        try head.set("fontRevision", .double(2.5))
        #expect(try head.value("fontRevision") == .double(2.5))
        let os2 = try #require(try face.os2)
        try os2.set("achVendID", .string("FSHL"))
        #expect(try os2.value("achVendID") == .string("FSHL"))
        #expect(throws: FontError.self) { try os2.set("usWeightClass", .int(-1)) }
        let (bytes, report) = try font.serialized()
        #expect(report.reencodedTables.sorted() == ["OS/2", "head", "hhea"])
        let reread = try Font(data: bytes).faces[0]
        #expect(try reread.hhea.int("ascender") == 1800)
        #expect(try reread.os2?.value("achVendID") == .string("FSHL"))
    }

    @Test func glyphsByIDNameAndCharacter() throws {
        let face = try Font(path: Corpus.dejavu).faces[0]
        let a = try #require(try face.glyphID(for: "a"))
        #expect(try face.glyphName(a) == "a")
        #expect(try face.glyphID(named: "a") == a)
        let glyf = try #require(try face.glyf)
        let g = try glyf.glyph(a)
        #expect(!g.isComposite && !g.contours.isEmpty && !g.instructions.isEmpty)
        // A composite: Aacute is A plus acute.
        let aacute = try #require(try face.glyphID(for: "\u{C1}"))
        let composite = try glyf.glyph(aacute)
        #expect(composite.isComposite && composite.components.count >= 2)
        // Re-encoding a decoded glyph gives the same outline back.
        let copy = g
        try glyf.setGlyph(a, copy)
        #expect(try glyf.glyph(a).contours == g.contours)
        #expect(try glyf.glyph(a).bounds == g.bounds)
        // CFF: names from the CID charset, bounds from the charstring.
        let noto = try Font(path: Corpus.noto).faces[0]
        let A = try #require(try noto.glyphID(for: "A"))
        #expect(try noto.glyphName(A).hasPrefix("cid"))
        let b = try #require(try noto.glyphBounds(A))
        #expect(b.xMax > b.xMin && b.yMax > 600)
    }

    @Test func cmapEditsWriteFormat4And12() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        let cmap = try #require(try face.cmap)
        let A = try #require(try face.glyphID(for: "A"))
        try cmap.set(0xE000, glyph: A)
        try cmap.set(0x1F600, glyph: A)
        let (bytes, _) = try font.serialized()
        let reread = try #require(try Font(data: bytes).faces[0].cmap)
        #expect(try reread.glyph(for: 0xE000) == A)
        #expect(try reread.glyph(for: 0x1F600) == A)
        #expect(try reread.glyph(for: 0x41) == A)
    }

    @Test func nameRecordsAddChangeRemove() throws {
        let font = try Font(path: Corpus.dejavu)
        let name = try font.faces[0].name
        try name.set(256, "Custom ✓")
        #expect(name.string(256) == "Custom ✓")
        #expect(name.records.filter { $0.nameID == 256 }.map(\.platformID) == [3])   // ✓ has no Mac Roman byte
        #expect(throws: FontError.self) { try name.set(300, "✓", platformID: 1, encodingID: 0) }
        try name.set(300, "café", platformID: 1, encodingID: 0)
        #expect(name.records.first { $0.nameID == 300 }?.bytes == [0x63, 0x61, 0x66, 0x8E])
        #expect(name.remove(256) >= 1)
        let (bytes, _) = try font.serialized()
        let reread = try Font(data: bytes).faces[0].name
        #expect(reread.string(256) == nil)
        #expect(reread.string(300) == "café")
    }

    @Test func saveNeverReplacesTheInputUnlessAsked() throws {
        let tmp = try TemporaryFolder()
        let copy = tmp.file("copy.ttf")
        try FileManager.default.copyItem(atPath: Corpus.dejavu, toPath: copy)
        let font = try Font(path: copy)
        try font.faces[0].hhea.set("ascender", .int(1000))
        #expect(throws: FontError.self) { try font.save(to: copy) }
        try font.save(to: copy, options: SaveOptions(overwriteInput: true))
        #expect(try Font(path: copy).faces[0].hhea.int("ascender") == 1000)
        // A failed save leaves no partial or temporary file behind.
        #expect(throws: FontError.self) { try font.save(to: tmp.file("missing-folder/out.ttf")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["copy.ttf"])
    }
}
