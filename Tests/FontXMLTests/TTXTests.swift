import Foundation
import Testing
@testable import FontModel
@testable import FontXML
@_exported import TestSupport

/// Corpus font paths by id.
let corpus = Dictionary(Corpus.fonts.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
let singleFonts = ["dejavu-sans", "roboto", "liberation-sans"]

func temporaryPath(_ name: String) -> String { NSTemporaryDirectory() + "ttx-\(UUID().uuidString)-\(name)" }

/// Runs a program; its status and its output and error together.
@discardableResult
func shell(_ args: [String]) throws -> (Int32, String) {
    let r = try run(args[0], Array(args.dropFirst()))
    return (r.status, r.out + r.err)
}

/// A font from `Tests/Oracles/make_test_fonts.py` ("colr", "cff2-variable" …) in a temporary file.
func madeTestFont(_ kind: String, _ fileName: String) throws -> (Font, String) {
    let path = temporaryPath(fileName)
    let builder = repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path
    let (status, output) = try shell(["python3", builder, kind, path])
    try #require(status == 0, "\(output)")
    return (try Font(path: path), path)
}

/// Fusing `edited` (a dump `original` with one edit) into `face` is an XMLError saying `expected`.
func expectFuseError(
    _ edited: String, original: String, _ expected: String, into face: Face, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(edited != original, "the edit applies", sourceLocation: sourceLocation)
    do {
        try TTX.fuse(edited, into: face)
        Issue.record("fused", sourceLocation: sourceLocation)
    } catch let e as XMLError {
        #expect(e.message.contains(expected), "\(e.message)", sourceLocation: sourceLocation)
    } catch { Issue.record("\(error)", sourceLocation: sourceLocation) }
}

/// The typed tables of a face (glyf apart: merging it makes fontTools recompute head), plus one
/// raw table to cover hexdata.
func tablesToCheck(_ face: Face, glyf: Bool = false) -> [FontModel.Tag] {
    if glyf { return ["glyf"] }
    return face.tags.filter { TTX.typedTags.contains($0) && $0 != "loca" && $0 != "glyf" }
        + face.tags.filter { ["gasp", "GPOS", "cvt "].contains($0) }.prefix(1)
}

@Suite struct TTXTests {
    @Test(arguments: singleFonts.map { ($0, false) } + [("liberation-sans", true)])
    func fontToolsMergeOfOurDumpEqualsOurFuse(id: String, glyf: Bool) throws {
        let path = try #require(corpus[id])
        let face = try Font(path: path).faces[0]
        let tags = tablesToCheck(face, glyf: glyf)
        let xml = try TTX.dump(face, tags: tags)
        let ours = temporaryPath("ours.ttx"), merged = temporaryPath("merged.ttf")
        defer { try? FileManager.default.removeItem(atPath: ours); try? FileManager.default.removeItem(atPath: merged) }
        try xml.write(toFile: ours, atomically: true, encoding: .utf8)
        let (status, output) = try shell(["python3", "-m", "fontTools.ttx", "-q", "-m", path, "-o", merged, ours])
        #expect(status == 0, "\(output)")
        let theirs = try Font(path: merged).faces[0]
        let fusedFont = try Font(path: path)
        try TTX.fuse(xml, into: fusedFont.faces[0])
        let fused = try Font(data: try fusedFont.serialized().bytes).faces[0]
        for tag in tags {
            // Structured tables: fontTools lays subtables out its own way; the values must agree.
            if let ours = try fused.structuredTable(tag) {
                #expect(
                    try theirs.structuredTable(tag)?.root == (try ours.root),
                    "\(id) \(tag): fontTools' compile of our XML reads differently from our fuse")
                continue
            }
            var a = try #require(try theirs.rawTable(tag)), b = try #require(try fused.rawTable(tag))
            // checkSumAdjustment depends on the file; ttx -m stamps `modified` with the time of the merge.
            if tag == "head" { for i in Array(8..<12) + Array(28..<36) { a[i] = 0; b[i] = 0 } }
            if tag == "glyf" && a != b {
                // fontTools encodes every glyph its own way (flag runs, padding): compare the glyphs.
                let ours = try #require(try fused.glyf), theirs = try #require(try theirs.glyf)
                #expect(ours.glyphCount == theirs.glyphCount)
                let kept = TTX.keptComponentFlags | GlyphComponent.argsAreXYValues
                for id in 0..<ours.glyphCount {
                    var x = try ours.glyph(id), y = try theirs.glyph(id)
                    x.bounds = nil; y.bounds = nil
                    for i in x.components.indices { x.components[i].flags &= kept }
                    for i in y.components.indices { y.components[i].flags &= kept }
                    #expect(x == y, "\(id) glyph \(id) differs")
                    if x != y { break }
                }
                continue
            }
            if tag == "cmap" && a != b {
                // fontTools lays out format 4 segments its own way: the same mappings, other bytes.
                let ours = try #require(try fused.cmap), theirs = try #require(try theirs.cmap)
                #expect(ours.records.count == theirs.records.count)
                for (x, y) in zip(ours.records, theirs.records) {
                    #expect(x.platformID == y.platformID && x.encodingID == y.encodingID && x.subtable.format == y.subtable.format)
                    #expect(try x.subtable.mapping() == y.subtable.mapping(), "\(id) cmap \(x.platformID)/\(x.encodingID) maps differently")
                }
                continue
            }
            if tag == "name" && a != b {
                // fontTools trims whitespace at the ends of name strings (DejaVu's copyright ends in a
                // newline), so it cannot round-trip them; that must be the only difference.
                let ours = try fused.name.records, theirs = try theirs.name.records
                #expect(ours.count == theirs.count)
                for (x, y) in zip(ours, theirs) where x != y {
                    #expect(
                        x.text?.trimmingCharacters(in: .whitespacesAndNewlines) == y.text,
                        "\(id) name \(x.nameID) differs beyond edge whitespace")
                }
                continue
            }
            #expect(a == b, "\(id) \(tag): fontTools' merge and our fuse differ (\(a.count) and \(b.count) bytes)")
        }
    }

    @Test(arguments: singleFonts)
    func fontToolsDumpFusedByUsReadsBackEqual(id: String) throws {
        let path = try #require(corpus[id])
        let face = try Font(path: path).faces[0]
        for tag in tablesToCheck(face) where tag != "GPOS" && tag != "gasp" && tag != "cvt " && tag != "glyf" {
            let theirs = temporaryPath("theirs.ttx"), saved = temporaryPath("saved.ttf")
            defer { for p in [theirs, saved] { try? FileManager.default.removeItem(atPath: p) } }
            // -i: instructions as bytecode (assembly is covered by the glyf test).
            #expect(try shell(["python3", "-m", "fontTools.ttx", "-q", "-i", "-t", tag.description, "-o", theirs, path]).0 == 0)
            let font = try Font(path: path)
            try TTX.fuse(try String(contentsOfFile: theirs, encoding: .utf8), into: font.faces[0])
            try font.save(to: saved)
            let before = try shell(["python3", "-m", "fontTools.ttx", "-q", "-t", tag.description, "-o", "-", path]).1
            let after = try shell(["python3", "-m", "fontTools.ttx", "-q", "-t", tag.description, "-o", "-", saved]).1
            func comparable(_ s: String) -> [Substring] {
                s.split(separator: "\n").filter { !$0.contains("checkSumAdjustment") && !$0.contains("ttLibVersion") }
            }
            #expect(comparable(before) == comparable(after), "\(id) \(tag) reads back differently")
        }
    }

    @Test(arguments: ["dejavu-sans", "roboto", "liberation-sans", "wqy-zenhei", "noto-cjk"])
    func dumpThenFuseReproducesEveryTable(id: String) throws {
        let path = try #require(corpus[id])
        let original = try Font(path: path)
        let font = try Font(path: path)
        for face in font.faces.prefix(3) {
            // wqy-zenhei's 10.6 MB glyf and noto-cjk's 15.5 MB CFF would be hundreds of MB of XML
            // per face: their round trips are covered by the single fonts and TTXParityTests.
            let tags = face.tags.filter { TTX.typedTags.contains($0) && !(font.isCollection && ($0 == "glyf" || $0 == "CFF ")) }
            try TTX.fuse(try TTX.dump(face, tags: tags), into: face)
        }
        let reread = try Font(data: try font.serialized().bytes)
        for (a, b) in zip(original.faces, reread.faces) {
            for tag in a.tags where tag != "name" && tag != "cmap" {
                // A structured table is written as fontTools would write it (formats chosen by
                // size), not as the original tool did: the same values, not the same bytes.
                if let sa = try a.structuredTable(tag) {
                    #expect(try b.structuredTable(tag)?.root == (try sa.root), "\(id) face \(a.index) \(tag) changed")
                    continue
                }
                var x = try a.rawTable(tag) ?? [], y = try b.rawTable(tag) ?? []
                if tag == "head", !original.isCollection { for i in 8..<12 { x[i] = 0; y[i] = 0 } }   // follows the re-encoded name
                #expect(x == y, "\(id) face \(a.index) \(tag) changed")
            }
            // cmap keeps each unchanged subtable's bytes but lays the table out again: same mappings.
            if let ca = try a.cmap, let cb = try b.cmap {
                for (x, y) in zip(ca.records.sorted { ($0.platformID, $0.encodingID) < ($1.platformID, $1.encodingID) }, cb.records) {
                    #expect(
                        x.subtable.bytes == y.subtable.bytes, "\(id) face \(a.index) cmap \(x.platformID)/\(x.encodingID) subtable changed")
                }
            }
            // name is written canonically (sorted, shared strings): the same records, maybe other bytes.
            #expect(
                try a.name.records.sorted {
                    ($0.platformID, $0.encodingID, $0.languageID, $0.nameID) < ($1.platformID, $1.encodingID, $1.languageID, $1.nameID)
                }
                    == b.name.records, "\(id) face \(a.index) name records changed")
        }
    }

    @Test func editsThroughXMLAreReadByFontTools() throws {
        let path = try #require(corpus["dejavu-sans"])
        let font = try Font(path: path)
        var xml = try TTX.dump(font.faces[0], tags: ["hhea", "name", "OS/2"])
        xml = xml.replacingOccurrences(of: "<ascent value=\"1901\"/>", with: "<ascent value=\"1777\"/>")
        xml = xml.replacingOccurrences(of: "<achVendID value=\"PfEd\"/>", with: "<achVendID value=\"FSHL\"/>")
        xml = xml.replacingOccurrences(of: "\n      DejaVu Sans\n", with: "\n      DejaVu XML\n")
        try TTX.fuse(xml, into: font.faces[0])
        let out = temporaryPath("edited.ttf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try font.save(to: out)
        let (_, printed) = try shell([
            "python3", "-c",
            "from fontTools.ttLib import TTFont; f = TTFont('\(out)'); print(f['hhea'].ascent, f['OS/2'].achVendID, f['name'].getDebugName(1))",
        ])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "1777 FSHL DejaVu XML")
    }

    @Test func glyfEditsThroughXMLAndFontToolsDumpsFuse() throws {
        let path = try #require(corpus["dejavu-sans"])
        // fontTools' own dumps fused by us change nothing: instructions as bytecode (-i) and as
        // assembly (the default; every hinted glyph of DejaVu reassembles to the same bytes).
        let font = try Font(path: path)
        for flags in [["-i"], []] {
            let theirs = temporaryPath("glyf.ttx")
            defer { try? FileManager.default.removeItem(atPath: theirs) }
            #expect(try shell(["python3", "-m", "fontTools.ttx", "-q"] + flags + ["-t", "glyf", "-o", theirs, path]).0 == 0)
            let text = try String(contentsOfFile: theirs, encoding: .utf8)
            #expect(text.contains(flags.isEmpty ? "<assembly>" : "<bytecode>"))
            try TTX.fuse(text, into: font.faces[0])
            #expect(!font.faces[0].isEdited, "fusing ttx \(flags) changed glyphs")
        }
        // Our dump with 'a' replaced by a triangle is read by fontTools with that outline.
        var xml = try TTX.dump(font.faces[0], tags: ["glyf"])
        let start = try #require(xml.range(of: "<TTGlyph name=\"a\""))
        let end = try #require(xml.range(of: "</TTGlyph>", range: start.upperBound..<xml.endIndex))
        xml.replaceSubrange(
            start.lowerBound..<end.upperBound,
            with:
                "<TTGlyph name=\"a\"><contour><pt x=\"0\" y=\"0\" on=\"1\"/><pt x=\"500\" y=\"0\" on=\"1\"/><pt x=\"250\" y=\"700\" on=\"1\"/></contour><instructions/></TTGlyph>"
        )
        try TTX.fuse(xml, into: font.faces[0])
        let out = temporaryPath("glyf.ttf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try font.save(to: out)
        let (_, printed) = try shell([
            "python3", "-c",
            "from fontTools.ttLib import TTFont; f = TTFont('\(out)'); g = f['glyf']['a']; print(list(g.getCoordinates(f['glyf'])[0]), g.yMax)",
        ])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "[(0, 0), (500, 0), (250, 700)] 700")
        // Assembly is assembled as fontTools does; mistakes are refused with the element's position.
        func fuseInstructions(_ assembly: String) throws -> [UInt8] {
            try TTX.fuse(
                "<ttFont><glyf><TTGlyph name=\"a\"><contour><pt x=\"0\" y=\"0\" on=\"1\"/></contour><instructions><assembly>\(assembly)</assembly></instructions></TTGlyph></glyf></ttFont>",
                into: font.faces[0])
            let id = try #require(try font.faces[0].glyphID(named: "a"))
            return try #require(try font.faces[0].glyf).glyph(id).instructions
        }
        #expect(
            try fuseInstructions("SVTCA[0] /* y */ PUSHB[ ] 1 2 MDRP[10100] PUSH[ ] 300 7 -2 1 2 NPUSHB[ ] 9 IUP[1]")
                == [0x00, 0xB1, 1, 2, 0xD4, 0xBA, 0x01, 0x2C, 0x00, 0x07, 0xFF, 0xFE, 0xB1, 1, 2, 0x40, 1, 9, 0x31])
        for (bad, message) in [
            ("FOO[ ]", "unknown instruction FOO"), ("SVTCA[01]", "SVTCA takes 1 argument bit"), ("PUSHB[ ] 300", "not a byte"),
            ("5", "outside a push"),
        ] {
            do {
                _ = try fuseInstructions(bad)
                Issue.record("accepted \(bad)")
            } catch let e as XMLError { #expect(e.message.contains(message) && e.line == 1, "\(e)") }
        }
    }

    @Test func cmapEditsThroughXML() throws {
        let path = try #require(corpus["dejavu-sans"])
        let font = try Font(path: path)
        var xml = try TTX.dump(font.faces[0], tags: ["cmap"])
        #expect(xml.contains("<cmap_format_4 platformID=\"3\" platEncID=\"1\" language=\"0\">"))
        // Map U+E000 to A and drop 'b'. The Mac format 6 subtable cannot hold U+E000: a clear error.
        xml = xml.replacingOccurrences(of: "<map code=\"0x62\" name=\"b\"/>\n", with: "")
        let everywhere = xml.replacingOccurrences(
            of: "<map code=\"0x41\" name=\"A\"/>", with: "<map code=\"0x41\" name=\"A\"/>\n      <map code=\"0xe000\" name=\"A\"/>")
        do {
            try TTX.fuse(everywhere, into: font.faces[0])
            Issue.record("format 6 accepted U+E000")
        } catch let e as XMLError {
            #expect(e.message.contains("cmap format 6 cannot hold"), "\(e)")
        }
        #expect(!font.faces[0].isEdited)
        // Only in the Unicode subtables (format 4 and 12).
        var parts = xml.components(separatedBy: "<cmap_format_6")
        parts[0] = parts[0].replacingOccurrences(
            of: "<map code=\"0x41\" name=\"A\"/>", with: "<map code=\"0x41\" name=\"A\"/>\n      <map code=\"0xe000\" name=\"A\"/>")
        let tail = parts[1].components(separatedBy: "</cmap_format_6>")
        parts[1] =
            tail[0] + "</cmap_format_6>"
            + tail[1].replacingOccurrences(
                of: "<map code=\"0x41\" name=\"A\"/>", with: "<map code=\"0x41\" name=\"A\"/>\n      <map code=\"0xe000\" name=\"A\"/>")
        try TTX.fuse(parts.joined(separator: "<cmap_format_6"), into: font.faces[0])
        let out = temporaryPath("cmap.ttf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try font.save(to: out)
        let (_, printed) = try shell([
            "python3", "-c",
            "from fontTools.ttLib import TTFont; c = TTFont('\(out)').getBestCmap(); print(c.get(0xE000), c.get(0x62), c.get(0x41))",
        ])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "A None A")
    }

    @Test func errorsNameLineAndColumn() throws {
        let font = try Font(path: try #require(corpus["dejavu-sans"]))
        let face = font.faces[0]
        let cases: [(String, String, Int, Int)] = [
            ("<ttFont>\n  <hhea>\n    <ascent value=\"1\">\n  </hhea>\n</ttFont>", "</hhea> closes <ascent>", 4, 3),
            ("<ttFont>\n  <hhea>\n    <ascnt value=\"1\"/>\n  </hhea>\n</ttFont>", "did you mean <ascent>?", 3, 5),
            ("<ttFont>\n  <hhea>\n    <ascent value=\"40000\"/>\n  </hhea>\n</ttFont>", "Int16", 3, 5),
            (
                "<ttFont>\n  <hmtx>\n    <mtx name=\"nosuchglyph\" width=\"1\" lsb=\"0\"/>\n  </hmtx>\n</ttFont>",
                "glyph 'nosuchglyph' does not exist", 3, 5
            ),
            ("<ttFont>\n  <head>\n    <created value=\"yesterday\"/>\n  </head>\n</ttFont>", "is not a date", 3, 5),
            ("", "empty", 1, 1),
            ("<notTTX/>", "expected <ttFont>", 1, 1),
            // A kern subtable format or tuple index past its field used to trap when saved.
            (
                "<ttFont>\n  <kern>\n    <version value=\"0\"/>\n    <kernsubtable format=\"300\">00 00 00 00 00 00</kernsubtable>\n  </kern>\n</ttFont>",
                "format is a byte", 4, 5
            ),
            (
                "<ttFont>\n  <kern>\n    <version value=\"1.0\"/>\n    <kernsubtable coverage=\"0\" format=\"0\" tupleIndex=\"70000\"/>\n  </kern>\n</ttFont>",
                "tupleIndex is a UInt16", 4, 5
            ),
        ]
        for (xml, message, line, column) in cases {
            do {
                try TTX.fuse(xml, into: face)
                Issue.record("no error for \(xml)")
            } catch let e as XMLError {
                #expect(e.message.contains(message), "\(e)")
                #expect(e.line == line && e.column == column, "\(e) expected \(line):\(column)")
            }
        }
        #expect(try face.hhea.int("ascender") == 1901)
        // An error in a later table leaves earlier tables of the document untouched too.
        do {
            try TTX.fuse(
                "<ttFont>\n  <hhea>\n    <ascent value=\"1000\"/>\n  </hhea>\n  <maxp>\n    <numGlyphs value=\"-1\"/>\n  </maxp>\n</ttFont>",
                into: face)
            Issue.record("no error")
        } catch let e as XMLError {
            #expect(e.line == 6 && e.message.contains("UInt16"), "\(e)")
        }
        #expect(try face.hhea.int("ascender") == 1901)
        #expect(!face.isEdited)
    }
}

/// GDEF in TTX against fontTools' own expectations: the AOTS suite's expected dumps.
@Suite struct StructuredTTXTests {
    static let conformance =
        ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? NSHomeDirectory() + "/.cache/fontshell/conformance"

    static func aots(_ tag: String) throws -> [(font: String, expected: String)] {
        let aots = conformance + "/aots"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: aots)) ?? []).filter { $0.hasSuffix(".ttx." + tag) }.sorted()
        guard !names.isEmpty else {
            throw XMLError("no AOTS conformance data in \(aots): run ../shared/corpus/conformance.sh", line: 0, column: 0)
        }
        return names.map { (aots + "/" + $0.dropLast(".ttx.\(tag)".count) + ".otf", aots + "/" + $0) }
    }

    /// The table element with indentation and blank lines dropped (the suite's files were made by
    /// an older fontTools; only the XML is compared).
    static func lines(_ xml: String) -> [String] {
        xml.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty && !$0.hasPrefix("<?xml") && !$0.hasPrefix("<ttFont") && $0 != "</ttFont>"
        }
    }

    /// Every AOTS font's GDEF, GSUB and GPOS dump exactly as fontTools' expected dumps, and
    /// fusing an expected dump gives back the same values.
    @Test(arguments: [("GDEF", 148), ("GSUB", 94), ("GPOS", 93)])
    func aotsDumpsEqualFontToolsExpectedAndFuseBack(tag: String, expected: Int) throws {
        let cases = try Self.aots(tag)
        #expect(cases.count == expected)
        let t = FontModel.Tag(text: tag)
        for (path, expectedPath) in cases {
            let face = try Font(path: path).faces[0]
            let xml = try String(contentsOfFile: expectedPath, encoding: .utf8)
            #expect(Self.lines(try TTX.dump(face, tags: [t])) == Self.lines(xml), "\(path)")
            let fused = try Font(path: path)
            try TTX.fuse(xml, into: fused.faces[0])
            let reread = try Font(data: try fused.serialized().bytes)
            #expect(try reread.faces[0].structuredTable(t)?.root == (try face.structuredTable(t)?.root), "\(path)")
        }
    }

    /// Hostile or wrong GDEF XML: a clear error with a position, and the face unchanged.
    @Test func badGDEFXMLIsRefusedWithAPosition() throws {
        let path = try #require(corpus["roboto"])
        let cases: [(String, String)] = [
            ("<GDEF><Version value=\"0x00010000\"/><GlyphClasDef/></GDEF>", "did you mean <GlyphClassDef>"),
            (
                "<GDEF><Version value=\"0x00010000\"/><GlyphClassDef><ClassDef glyph=\"nope\" class=\"1\"/></GlyphClassDef></GDEF>",
                "no glyph named 'nope'"
            ),
            (
                "<GDEF><Version value=\"0x00010000\"/><LigCaretList><Coverage/><LigGlyph index=\"0\"><CaretValue index=\"0\" Format=\"7\"/></LigGlyph></LigCaretList></GDEF>",
                "known CaretValue format"
            ),
            ("<GDEF><Version value=\"banana\"/></GDEF>", "is not a Version16Dot16"),
        ]
        for (table, message) in cases {
            let font = try Font(path: path)
            let before = try font.faces[0].rawTable("GDEF")
            #expect { try TTX.fuse("<ttFont>\(table)</ttFont>", into: font.faces[0]) } throws: { error in
                guard let e = error as? XMLError else { return false }
                return e.description.contains(message) && e.line > 0
            }
            #expect(try font.faces[0].rawTable("GDEF") == before)
        }
    }
}

/// 16.16 and 2.14 values are written in exact integer arithmetic; the text must be what the
/// printf-based general path (fontTools' rule) gives, for every value near zero and near the
/// ends of the ranges, and for a spread of others.
@Suite struct FixedPointTextTests {
    @Test func exactArithmeticMatchesPrintf() {
        var raws = Array(Int64(-70000)...70000)
        raws += (0..<20000).map { Int64($0) * 107_377 - 1_073_741_824 }
        raws += [Int64(Int32.min), Int64(Int32.max), -32768, 32767, 16384, -16384, 1 << 45, -(1 << 45)]   // the last two: no overflow
        for (scale, bits) in [(65536.0, 16), (16384.0, 14)] {
            var mismatches: [String] = []
            for raw in raws {
                let fast = TTX.binaryFractionText(raw, bits: bits), general = TTX.multipleText(Double(raw) / scale, factor: 1 / scale)
                if fast != general && mismatches.count < 5 { mismatches.append("\(raw): \(fast) vs \(general)") }
            }
            #expect(mismatches.isEmpty, "scale \(scale): \(mismatches)")
        }
    }
}

/// `fontshell dump -o` shares a face's tables over the cores, each thread with its own opening
/// of the file: the document must be the serial one byte for byte (also run under
/// ThreadSanitizer by Scripts/test), and what the serial dump refuses it refuses.
@Suite struct ParallelDumpTests {
    static func parallel(_ path: String, face: Int = 0, tags: [FontModel.Tag]? = nil) throws -> String {
        var pieces: [String] = []
        try TTX.dump(path: path, face: face, tags: tags) { pieces.append($0) }
        return pieces.joined()
    }

    @Test(arguments: ["roboto", "eb-garamond"])
    func sameDocumentAsTheSerialDump(id: String) throws {
        let path = try #require(corpus[id])
        let serial = try TTX.dump(try Font(path: path).faces[0])
        #expect(try Self.parallel(path) == serial)
    }

    @Test func aCollectionFaceAndChosenTables() throws {
        let path = try #require(corpus["noto-cjk"])
        let tags: [FontModel.Tag] = ["name", "hmtx", "OS/2", "post", "hhea"]
        #expect(try Self.parallel(path, face: 2, tags: tags) == TTX.dump(try Font(path: path).faces[2], tags: tags))
        #expect(throws: FontError.self) { try Self.parallel(path, face: 2, tags: ["name", "nope"]) }
        #expect(throws: FontError.self) { try Self.parallel(path, face: 99) }
    }

    /// Writing stops at the first failure (a full disk): the error comes back once the workers
    /// still making later tables have finished, and nothing is written after it.
    @Test func aFailingWriteStopsTheDump() throws {
        struct DiskFull: Error {}
        let path = try #require(corpus["roboto"])
        var written = 0
        #expect(throws: DiskFull.self) {
            try TTX.dump(path: path, face: 0, tags: nil) { _ in
                written += 1
                if written == 4 { throw DiskFull() }
            }
        }
        #expect(written == 4)
    }
}

/// A glyph fused with other points than its gvar deltas fit stops varying, so the font stays
/// consistent (issue 33); fused with the same points moved, it keeps its deltas.
@Suite struct FusedGlyphVariationTests {
    @Test func aFusedOutlineWithOtherPointsStopsVarying() throws {
        let (font, _) = try madeTestFont("variable-metrics", "fused-variable.ttf")
        let face = font.faces[0]
        let dump = try TTX.dump(face, tags: ["glyf"])
        let lines = dump.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.contains("<TTGlyph name=\"a\"") })
        // a becomes a triangle (three points); b's points move (same count).
        var edited = lines
        if let fourth = lines[start...].firstIndex(where: { $0.contains("<pt x=\"450\" y=\"0\"") }) { edited.remove(at: fourth) }
        let triangle = edited.joined(separator: "\n").replacingOccurrences(of: "<pt x=\"460\" y=\"720\"", with: "<pt x=\"470\" y=\"720\"")
        #expect(triangle != dump)
        try TTX.fuse(triangle, into: face)
        let a = try #require(try face.glyphID(named: "a")), b = try #require(try face.glyphID(named: "b"))
        #expect(try face.gvar!.glyphData(a).isEmpty)
        #expect(try !face.gvar!.glyphData(b).isEmpty)
        let out = temporaryPath("fused-variable-out.ttf")
        _ = try font.save(to: out)
        #expect(Validator.validate(try Font(path: out)).filter { $0.check == "variation-consistency" } == [])
    }
}
