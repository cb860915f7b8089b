import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// AAT morx in TTX on Conakry (Scripts/bootstrap installs it; HarfBuzz shapes its N'Ko with
/// morx, having no GSUB): our dump fused back shapes identically; an edited ligature reads back
/// in fontTools and shows in the diff by glyph name; bad XML and damaged binary are errors
/// naming the place. (Parity with ttx on more morx fonts: TTXParityTests.)
@Suite struct MorxTTXTests {
    static let conakry = "/usr/share/fonts/truetype/evertype-conakry/Conakry.ttf"
    /// N'Ko letters joining, and the ligatures of ߊ with its tone marks.
    static let text = String(
        String.UnicodeScalarView(
            [0x7CA, 0x7F2, 0x7EB, 0x20, 0x7CA, 0x7EB, 0x7D3, 0x7CA, 0x7EC, 0x7DE, 0x7CF, 0x7D0, 0x20, 0x7CB, 0x7CC, 0x7CD].compactMap(
                Unicode.Scalar.init)))

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "fontshell-morx-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func fusedDumpShapesIdentically() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try Font(path: Self.conakry).faces[0]
        let xml = try TTX.dump(original, tags: ["morx"])
        #expect(xml.contains("<Ligature glyph=\"uni07CA07F207EB\" index=\"0\"/>") && xml.contains("<Flags value=\"SetMark\"/>"))
        let font = try Font(path: Self.conakry)
        try TTX.fuse(xml, into: font.faces[0])
        // Re-encoded (the fuse always writes anew), it decodes to the same table …
        let fused = try #require(try font.faces[0].table(MorxTable.self)), before = try #require(try original.table(MorxTable.self))
        #expect(fused == before)
        #expect(try font.faces[0].rawTable("morx") != original.rawTable("morx"), "the fuse wrote the table anew")
        // … and HarfBuzz shapes with it as with the original.
        try font.save(to: folder + "/fused.ttf")
        let (s1, theirs) = try shell(["hb-shape", Self.conakry, Self.text])
        let (s2, ours) = try shell(["hb-shape", folder + "/fused.ttf", Self.text])
        #expect(s1 == 0 && s2 == 0 && theirs == ours && theirs.contains("uni07CA07F207EB"), "\(theirs)\n\(ours)")
    }

    @Test func editsReadBackInFontToolsAndDiffByName() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try Font(path: Self.conakry).faces[0]
        let xml = try TTX.dump(original, tags: ["morx"])
        let edited = xml.replacingOccurrences(
            of: "<Ligature glyph=\"uni07CA07EB\" index=\"1\"/>", with: "<Ligature glyph=\"uni07CA07EC\" index=\"1\"/>")
        let font = try Font(path: Self.conakry)
        try TTX.fuse(edited, into: font.faces[0])
        let changes = try FontDiff.compare(original, font.faces[0]).map(\.description)
        #expect(changes.contains("~ morx.chain 0 subtable 1 ligature 1: uni07CA07EB → uni07CA07EC"), "\(changes)")
        #expect(changes.filter { $0.hasPrefix("~ morx") }.count == 1, "\(changes)")
        try font.save(to: folder + "/edited.ttf")
        let (status, output) = try shell([
            "python3", "-c",
            """
            from fontTools.ttLib import TTFont
            t = TTFont('\(folder)/edited.ttf')['morx'].table.MorphChain[0].MorphSubtable[1].SubStruct.StateTable
            print(t.Ligatures[0], t.Ligatures[1], len(t.States))
            """,
        ])
        #expect(status == 0 && output.hasPrefix("uni07CA07F207EB uni07CA07EC 340"), "\(output)")
        let (otsStatus, otsOutput) = try shell(["ots-sanitize", folder + "/edited.ttf"])
        #expect(otsStatus == 0, "\(otsOutput)")
    }

    @Test func badXMLIsAnError() throws {
        let face = try Font(path: Self.conakry).faces[0]
        let xml = try TTX.dump(face, tags: ["morx"])
        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(
            xml.replacingOccurrences(of: "<Flags value=\"SetMark\"/>", with: "<Flags value=\"SetMark,Bogus\"/>"),
            "flag \"Bogus\" is not one of ContextualMorph's (SetMark, DontAdvance)")
        expectError(
            xml.replacingOccurrences(of: "<ProcessingOrder value=\"ReversedLayoutOrder\"/>", with: "<ProcessingOrder value=\"Sideways\"/>"),
            "ProcessingOrder \"Sideways\" is not one of")
        expectError(
            xml.replacingOccurrences(
                of: "<GlyphClass glyph=\"uni07CA\" value=\"4\"/>", with: "<GlyphClass glyph=\"nothere\" value=\"4\"/>"),
            "no glyph named 'nothere'")
        expectError(
            xml.replacingOccurrences(of: "<NewState value=\"0\"/>", with: "<NewState value=\"9999\"/>"),
            "a transition goes to state 9999; there are")
        // A class past the others needs a transition in every state.
        expectError(
            xml.replacingOccurrences(
                of: "<GlyphClass glyph=\"uni07CA\" value=\"4\"/>", with: "<GlyphClass glyph=\"uni07CA\" value=\"8\"/>"),
            "this state has no transition for glyph class 8 (there are 9)")
        expectError(
            xml.replacingOccurrences(of: "<MarkIndex value=\"65535\"/>", with: "<MarkIndex value=\"7\"/>"),
            "the transitions use 8 per-glyph lookups; 3 are given")
        expectError(
            xml.replacingOccurrences(of: "<Action GlyphIndexDelta=\"-317\"/>", with: "<Action GlyphIndexDelta=\"999999999\"/>"),
            "GlyphIndexDelta=\"999999999\" is not a number in")
    }

    /// Damage is an error naming the subtable and what is wrong; nothing runs unbounded.
    @Test func damagedBinaryIsAnError() throws {
        let face = try Font(path: Self.conakry).faces[0]
        let bytes = try #require(try face.rawTable("morx"))
        func expectDecodeError(_ damaged: [UInt8], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let font = try? Font(path: Self.conakry)
            guard let copy = font?.faces[0] else { Issue.record("cannot open the font", sourceLocation: sourceLocation); return }
            copy.setRawTable("morx", damaged)
            do {
                _ = try copy.table(MorxTable.self)
                Issue.record("damaged morx decoded", sourceLocation: sourceLocation)
            } catch let error as FontError {
                #expect(error.message.contains(expected), "\(error.message)", sourceLocation: sourceLocation)
            } catch { Issue.record("\(error)", sourceLocation: sourceLocation) }
        }
        func set32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) { for k in 0..<4 { b[at + k] = UInt8(v >> (24 - 8 * k) & 0xFF) } }
        // Chain at 8 (16-byte header, 3 features of 12), first subtable at 60; its body at 72.
        var long = bytes
        set32(&long, 12, UInt32(bytes.count))
        expectDecodeError(long, "morx chain 0: length \(bytes.count) runs past the table's end")
        var type3 = bytes
        type3[60 + 7] = 3
        expectDecodeError(type3, "morx chain 0 subtable 0: type 3 is not a morx subtable type")
        var classes = bytes
        set32(&classes, 72, 0)
        expectDecodeError(classes, "morx chain 0 subtable 0: 0 glyph classes")
        // A non-contextual subtable whose lookup (format 2) claims every glyph, many times over.
        var lookup = Array(bytes[0..<72])
        lookup[60 + 7] = 4
        var body: [UInt8] = [0, 2, 0, 6, UInt8(20000 >> 8), UInt8(20000 & 0xFF), 0, 0, 0, 0, 0, 0]
        for _ in 0..<20000 { body += [0xFF, 0xFE, 0, 0, 0, 1] }
        lookup += body
        set32(&lookup, 60, UInt32(12 + body.count))
        set32(&lookup, 12, UInt32(lookup.count - 8))
        set32(&lookup, 20, 1)
        expectDecodeError(lookup, "lookups map more glyphs than the table could describe")
    }
}

/// trak from binary: what fontTools compiles reads back; tracks that all share one run of values
/// cannot make the decoder build more values than the table could hold.
@Suite struct TrakTests {
    static func table(trackCount: Int, sizeCount: Int) -> [UInt8] {
        var w = BinaryWriter()
        w.u32(0x0001_0000); w.u16(0); w.u16(12); w.u16(0); w.u16(0)
        w.u16(UInt16(trackCount)); w.u16(UInt16(sizeCount)); w.u32(UInt32(20 + 8 * trackCount))
        let values = 20 + 8 * trackCount + 4 * sizeCount
        for k in 0..<trackCount { w.i32(Int32(k) << 16); w.u16(256); w.u16(UInt16(truncatingIfNeeded: values)) }
        for k in 0..<sizeCount { w.i32(Int32(k + 1) << 16) }
        for k in 0..<sizeCount { w.i16(Int16(truncatingIfNeeded: -k)) }
        return w.bytes
    }

    @Test func sharedValuesReadAndAreBounded() throws {
        let face = try Font(path: try #require(corpus["dejavu-sans"])).faces[0]
        face.setRawTable("trak", Self.table(trackCount: 3, sizeCount: 4))
        let trak = try #require(try face.table(TrakTable.self))
        #expect(trak.horizontal.tracks.count == 3 && trak.horizontal.sizes == [65536, 131072, 196608, 262144])
        #expect(trak.horizontal.tracks[2].adjustments == [0, -1, -2, -3] && trak.vertical.isEmpty)
        // 4,000 tracks × 16,000 sizes from a 96 KB table: refused before anything is built.
        let hostile = try Font(path: try #require(corpus["dejavu-sans"])).faces[0]
        hostile.setRawTable("trak", Self.table(trackCount: 4000, sizeCount: 16000))
        #expect(throws: FontError.self) { _ = try hostile.table(TrakTable.self) }
    }
}

/// AAT tables whose per-glyph data are AAT lookups (prop, opbd, lcar, bsln), described with the
/// `.aatLookup` leaf, on the made test font (fontTools compiled them from its own XML): the
/// dumps equal ttx's (TTXParityTests); here edits through TTX read back in fontTools and diff
/// names the glyph (Lua: ColorImageScriptTests).
@Suite struct AATLookupTablesTests {
    @Test func editsReadBackInFontToolsLuaAndDiff() throws {
        let (font, path) = try madeTestFont("svg-sbix", "aat-lookups.ttf")
        let original = try Font(path: path).faces[0]
        let face = font.faces[0]
        var xml = try TTX.dump(face, tags: ["prop", "opbd", "lcar", "bsln"])
        #expect(xml.contains("<Lookup glyph=\"B\" value=\"24587\"/>") && xml.contains("<!-- DivsionPointCount=2 -->"))
        xml = xml.replacingOccurrences(of: "<DivisionPoint index=\"0\" value=\"220\"/>", with: "<DivisionPoint index=\"0\" value=\"230\"/>")
            .replacingOccurrences(of: "<Left value=\"-50\"/>", with: "<Left value=\"-60\"/>")
            .replacingOccurrences(of: "<Lookup glyph=\"a\" value=\"10\"/>", with: "<Lookup glyph=\"a\" value=\"12\"/>")
            .replacingOccurrences(of: "<Lookup glyph=\"B\" value=\"2\"/>", with: "")
        try TTX.fuse(xml, into: face)
        let changes = try FontDiff.compare(original, face).map(\.description)
        for expected in [
            "~ lcar.LigatureCarets.Carets[B].DivisionPoint[0]: 220 → 230", "~ opbd.OpticalBounds.OpticalBoundsDeltas[b].Left: -50 → -60",
            "~ prop.GlyphProperties.Properties[a]: 10 → 12", "- bsln.Baseline.BaselineValues[B]: 2",
        ] {
            #expect(changes.contains(expected), "\(changes)")
        }
        let out = path + ".edited.ttf"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try font.save(to: out)
        let (status, output) = try shell([
            "python3", "-c",
            """
            from fontTools.ttLib import TTFont
            f = TTFont('\(out)')
            print(f['lcar'].table.LigatureCarets.Carets['B'].DivisionPoint, f['opbd'].table.OpticalBounds.OpticalBoundsDeltas['b'].Left,
                  f['prop'].table.GlyphProperties.Properties['a'], sorted(f['bsln'].table.Baseline.BaselineValues.items()))
            """,
        ])
        #expect(status == 0 && output.hasPrefix("[230] -60 12 [('a', 1), ('b', 1)]"), "\(output)")
        let (otsStatus, otsOutput) = try shell(["ots-sanitize", out])
        #expect(otsStatus == 0, "\(otsOutput)")
    }
}

extension AATLookupTablesTests {
    /// prop bytes: version 3.0, format 1, default 0, then a format 2 lookup of these segments.
    static func prop(segments: [(last: Int, first: Int, value: Int)]) -> [UInt8] {
        var w = BinaryWriter()
        w.u32(0x0003_0000); w.u16(1); w.u16(0)
        w.u16(2); w.u16(6); w.u16(UInt16(segments.count)); w.u16(6); w.u16(0); w.u16(0)
        for s in segments { w.u16(UInt16(s.last)); w.u16(UInt16(s.first)); w.u16(UInt16(s.value)) }
        w.u16(0xFFFF); w.u16(0xFFFF); w.u16(0)
        return w.bytes
    }

    /// A damaged lookup is an error naming it, the table is dumped as bytes, and a lookup whose
    /// segments name every glyph again and again is refused instead of read for ever.
    @Test func damagedLookupsAreErrors() throws {
        let (font, _) = try madeTestFont("svg-sbix", "aat-lookups-bad.ttf")
        let face = font.faces[0]
        func decodeError() -> String {
            do { _ = try face.table(GlyphPropertiesTable.self); return "" } catch { return "\(error)" }
        }
        face.setRawTable("prop", Self.prop(segments: [(last: 2, first: 3, value: 1)]))
        #expect(
            decodeError().contains("prop.GlyphProperties.Properties: lookup: lookup segment 0 runs from glyph 3 back to 2"),
            "\(decodeError())")
        #expect(try TTX.dump(face, tags: ["prop"]).contains("<hexdata>"))
        face.setRawTable("prop", Self.prop(segments: Array(repeating: (last: 65534, first: 0, value: 1), count: 2000)))
        #expect(decodeError().contains("lookups map more glyphs than the table could describe"), "\(decodeError())")
        // An opbd whose lookup value points past the table's end.
        var w = BinaryWriter()
        w.u32(0x0001_0000); w.u16(0)
        w.u16(6); w.u16(4); w.u16(1); w.u16(4); w.u16(0); w.u16(0)
        w.u16(1); w.u16(400); w.u16(0xFFFF); w.u16(0)
        face.setRawTable("opbd", w.bytes)
        do { _ = try face.table(OpticalBoundsTable.self); Issue.record("decoded") } catch {
            #expect("\(error)".contains("the value of glyph 1 points past the end of the table"), "\(error)")
        }
        // One segment giving 60,000 glyphs one record (legal, if unusual) reads the record once.
        var shared = BinaryWriter()
        shared.u32(0x0001_0000); shared.u16(0)
        shared.u16(2); shared.u16(6); shared.u16(1); shared.u16(6); shared.u16(0); shared.u16(0)
        shared.u16(60000); shared.u16(1); shared.u16(30); shared.u16(0xFFFF); shared.u16(0xFFFF); shared.u16(0)
        for v: Int16 in [-10, 15, 0, 0] { shared.i16(v) }
        face.setRawTable("opbd", shared.bytes)
        let opbd = try #require(try face.structuredTable("opbd"))
        guard case .formatted(0, let bounds)? = opbd.lazyRoot["OpticalBounds"], case .list(let glyphs)? = bounds["OpticalBoundsDeltas"]
        else {
            Issue.record("not read as format 0 with a lookup"); return
        }
        #expect(glyphs.count == 60000 && glyphs.last?.fields?["Value"]?.fields?["Top"]?.int == 15)
    }
}
