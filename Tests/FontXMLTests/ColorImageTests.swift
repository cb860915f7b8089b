import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// SVG, sbix, meta, VDMX and EBSC on a font Tests/Oracles/make_test_fonts.py builds (a plain and a
/// gzipped SVG document, two sbix strikes with PNGs, a 'dupe' and empty glyphs): dumps as ttx writes them
/// (TTXParityTests holds them to ttx), edits fuse, diff and read back in fontTools, bad XML and
/// damaged tables are errors naming what is wrong.
@Suite struct ColorImageTests {
    @Test func editsFuseDiffAndReadBackInFontTools() throws {
        let (font, path) = try madeTestFont("svg-sbix", "svg-sbix.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["SVG ", "sbix", "meta", "VDMX", "EBSC"])
        #expect(xml.contains("<header version=\"2.0\" numSizes=\"2\"/>") && xml.contains("<substitutePpemY value=\"13\"/>"))
        #expect(
            xml.contains("<ratRange bCharSet=\"0\" groupIndex=\"0\" xRatio=\"2\" yEndRatio=\"3\" yStartRatio=\"1\"/>")
                && xml.contains("<record yPelHeight=\"14\" yMax=\"12\" yMin=\"-4\"/>"))
        #expect(xml.contains("<text tag=\"dlng\">\n      Latn, Grek\n    </text>") && xml.contains("<hexdata tag=\"Xtst\">"))
        #expect(xml.contains("<svgDoc compressed=\"1\" endGlyphID=\"4\" startGlyphID=\"2\">") && xml.contains("<![CDATA[<svg xmlns="))
        #expect(
            xml.contains("<flags value=\"00000000 00000001\"/>") && xml.contains("<ref glyphname=\"A\"/>")
                && xml.contains("<glyph name=\"b\"/>"))
        let svg = try #require(try face.table(SVGTable.self)), sbix = try #require(try face.table(SbixTable.self))
        #expect(svg.documents.map(\.compressed) == [false, true] && svg.documents[1].text.hasSuffix("<!-- gzipped -->"))
        #expect(sbix.strikes.map(\.ppem) == [20, 40] && sbix.strikes[0].glyphs[3]?.referencedGlyph == 1)

        // Unchanged, fusing gives the same tables back.
        let same = try Font(path: path)
        try TTX.fuse(xml, into: same.faces[0])
        #expect(try same.faces[0].table(SVGTable.self) == svg && same.faces[0].table(SbixTable.self) == sbix)

        let edited = xml.replacingOccurrences(
            of: "id=\"glyph1\"><rect width=\"500\" height=\"700\" fill=\"#c00\"",
            with: "id=\"glyph1\"><rect width=\"500\" height=\"700\" fill=\"#0c0\""
        )
        .replacingOccurrences(of: "name=\"A\" originOffsetX=\"2\"", with: "name=\"A\" originOffsetX=\"7\"")
        .replacingOccurrences(of: "<ref glyphname=\"A\"/>", with: "<ref glyphname=\"a\"/>")
        .replacingOccurrences(of: "      Latn, Grek\n", with: "      Latn, Grek, Copt\n")
        .replacingOccurrences(
            of: "<record yPelHeight=\"14\" yMax=\"12\" yMin=\"-4\"/>", with: "<record yPelHeight=\"14\" yMax=\"13\" yMin=\"-4\"/>"
        )
        .replacingOccurrences(of: "<substitutePpemY value=\"13\"/>", with: "<substitutePpemY value=\"12\"/>")
        let changed = try Font(path: path)
        try TTX.fuse(edited, into: changed.faces[0])
        let changes = try FontDiff.compare(face, changed.faces[0]).map(\.description)
        #expect(changes.contains { $0.hasPrefix("~ SVG.glyphs 1–1: 102 bytes, checksum ") }, "\(changes)")
        #expect(changes.contains("~ sbix.strike 20 glyph 3: dupe at (0, 0): → glyph 1 → dupe at (0, 0): → glyph 2"), "\(changes)")
        #expect(
            changes.contains { $0.hasPrefix("~ sbix.strike 40 glyph 1: png  at (2, -3)") && $0.contains("png  at (7, -3)") }, "\(changes)")
        #expect(
            changes.contains("~ meta.dlng: Latn, Grek → Latn, Grek, Copt")
                && changes.contains("~ VDMX.group 1 height 14: yMax 12, yMin -4 → yMax 13, yMin -4"), "\(changes)")
        let saved = path + ".edited.ttf"
        defer { try? FileManager.default.removeItem(atPath: saved) }
        try changed.save(to: saved)
        let (status, output) = try shell([
            "python3", "-c",
            """
            from fontTools.ttLib import TTFont
            f = TTFont('\(saved)')
            docs = f['SVG '].docList
            s = f['sbix'].strikes[20]
            print('#0c0' in docs[0].data, docs[1].compressed, s.glyphs['A'].originOffsetX, s.glyphs['B'].referenceGlyphName, f['meta'].data['dlng'].replace(' ', ''), f['VDMX'].groups[1][14][0], f['EBSC'].bitmapScaleTables[1].substitutePpemY)
            """,
        ])
        #expect(status == 0 && output.hasPrefix("True True 7 a Latn,Grek,Copt 13 12"), "\(output)")
    }

    @Test func badXMLAndDamageAreErrors() throws {
        let (font, path) = try madeTestFont("svg-sbix", "svg-sbix-bad.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["SVG ", "sbix"])
        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(
            xml.replacingOccurrences(of: "endGlyphID=\"4\" startGlyphID=\"2\"", with: "endGlyphID=\"1\" startGlyphID=\"2\""),
            "startGlyphID 2 is after endGlyphID 1")
        expectError(
            xml.replacingOccurrences(of: "graphicType=\"png \" name=\"a\"", with: "graphicType=\"pngxx\" name=\"a\""),
            "is not up to four ASCII characters")
        expectError(
            xml.replacingOccurrences(of: "<ref glyphname=\"A\"/>", with: "<ref glyphname=\"nothere\"/>"), "no glyph named 'nothere'")
        expectError(
            xml.replacingOccurrences(of: "<flags value=\"00000000 00000001\"/>", with: "<flags value=\"2\"/>"), "is not 16 binary digits")

        // A damaged gzip document and a strike whose offsets run backwards: errors naming them.
        var svg = try #require(try face.rawTable("SVG "))
        if let at = (0..<(svg.count - 1)).first(where: { svg[$0] == 0x1F && svg[$0 + 1] == 0x8B }) { svg[at + 12] ^= 0xFF }
        face.setRawTable("SVG ", svg)
        #expect { _ = try face.table(SVGTable.self) } throws: { "\($0)".contains("SVG document 1") }
        var sbix = try #require(try face.rawTable("sbix"))
        let strike = Int(sbix[8]) << 24 | Int(sbix[9]) << 16 | Int(sbix[10]) << 8 | Int(sbix[11])
        sbix[strike + 8 + 3] = 0xFF   // glyph 1's offset past glyph 2's
        face.setRawTable("sbix", sbix)
        #expect { _ = try face.table(SbixTable.self) } throws: { "\($0)".contains("sbix strike 0 glyph") }
        #expect(try TTX.dump(face, tags: ["sbix"]).contains("<sbix raw=\"True\">"))
    }
}
