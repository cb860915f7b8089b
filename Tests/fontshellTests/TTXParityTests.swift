import Foundation
import Testing
import FontModel

/// TTX parity with ttx, table by table, on every corpus font, every AOTS font and every font
/// fontTools' own table tests compile to (`Tests/Oracles/ttx_parity.py`): our dump equals
/// fontTools' as XML data, and our fuse of fontTools' dump reads back in fontTools as the
/// original. Every difference must be one of the exceptions below, each with its reason
/// (docs/xml.md lists them and the counts).
@Suite struct TTXParityTests {
    /// Tables ttx types and we still dump as hexdata (and cannot fuse from ttx's XML): none now.
    static let notTypedYet: Set<String> = []

    /// Faces past the first of corpus collections, for tables their first faces lack.
    static let extraFaces = [
        "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc#2"   // EBLC/EBDT bitmap strikes
    ]

    /// Fonts with the tables the corpus lacks (Scripts/bootstrap installs them): Graphite's
    /// Silf 2, 2.1, 3, 4, 4.1, 5 and LZ4-compressed 5.1, Glat 1 and 3, Feat 1 and 2; hdmx, LTSH;
    /// Lateef's JSTF (extender glyphs); AAT morx (contextual and ligature subtables in Conakry,
    /// non-contextual ones too in Mondulkiri) and feat.
    static let scriptFonts = [
        "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf", "/usr/share/fonts/truetype/scheherazade/Scheherazade-Regular.ttf",
        "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf", "/usr/share/fonts/truetype/harmattan/Harmattan-Regular.ttf",
        "/usr/share/fonts/truetype/abyssinica/AbyssinicaSIL-Regular.ttf", "/usr/share/fonts/truetype/gentium-basic/GenBasR.ttf",
        "/usr/share/fonts/truetype/dai-banna/DBSILBR.ttf", "/usr/share/fonts/opentype/lateef/Lateef-Regular.ttf",
        "/usr/share/fonts/truetype/evertype-conakry/Conakry.ttf", "/usr/share/fonts/opentype/mondulkiri/Mondulkiri-R.ttf",
    ]

    /// Single differences, by font file and table, and why they are right or accepted.
    static let accepted: [String: String] = [
        // Both ways: fontTools cannot read these tables right, so its dump differs from ours and
        // its reading of our fuse of its dump differs from its reading of the original.
        "Scheherazade-Regular.ttf Silf": "fontTools reads Silf 2's pseudo-glyph map with 16-bit code points (graphite2 reads 32 bits)",
        "GenBasR.ttf Feat": "fontTools reads Feat 1's settings 4 bytes per feature too far (it skips Feat 2's 16-byte records)",
        // fontTools skips a format 4 cmap's last segment, assuming it is the 0xFFFF end marker;
        // these fonts end with a real segment, which HarfBuzz and we read.
        "cmap4_font1.otf cmap": "fontTools ignores the last format 4 segment",
        "cmap4_font4.otf cmap": "fontTools ignores the last format 4 segment",
    ]

    /// Fonts fontTools itself cannot dump: its hhea/vhea recalculation tests have no maxp
    /// (fontTools raises KeyError 'maxp'; we take the glyph count from the CFF, as for its CFF
    /// test font).
    static let undumpable: Set<String> = [
        "_h_h_e_a_recalc_OTF.otf", "_h_h_e_a_recalc_empty.otf", "_v_h_e_a_recalc_OTF.otf", "_v_h_e_a_recalc_empty.otf",
    ]

    static func fileName(_ path: Substring) -> String { String(path.split(separator: "/").last ?? path) }

    /// Whether a line "PATH TABLE: verdict" is an accepted difference.
    static func isAccepted(_ line: String) -> Bool {
        guard let colon = line.range(of: ": ") else { return false }
        let head = line[..<colon.lowerBound], verdict = line[colon.upperBound...]
        guard let space = head.lastIndex(of: " ") else { return false }
        let font = fileName(head[..<space]), table = String(head[head.index(after: space)...])
        if accepted["\(font) \(table)"] != nil { return true }
        return notTypedYet.contains(table) && (verdict.hasPrefix("hexdata where ttx types it") || verdict.contains("has no typed XML yet"))
    }

    @Test func dumpsEqualTTXAndFusedTTXDumpsReadBackEqual() throws {
        let conformance =
            ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance"
        let corpusList = try String(
            contentsOfFile: repositoryRoot.appendingPathComponent("../shared/corpus/fonts.tsv").standardized.path, encoding: .utf8)
        let corpusFonts = corpusList.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
            let columns = line.split(separator: "\t")
            return columns.count >= 3 ? String(columns[2]) : nil
        }
        let work = try TemporaryFolder()
        // Made by Tests/Oracles/make_test_fonts.py: a CFF2 font with blends in stems, hint masks,
        // curves and BlueValues, and a second variation data; COLR version 1 with every Paint
        // format, version 0 layers, both clip box formats, a VarIndexMap and a store; COLR 0 alone;
        // SVG (plain and gzipped documents) with sbix (PNGs, a 'dupe', empty glyphs), meta, VDMX, EBSC,
        // an AAT feat, JSTF with every member, a morx with every subtable type and a trak; VTT's
        // sources (TSI0–3 with a program over 32 KB, TSI5, TSIV/B/D/J/P/S); AAT mort, of every subtable
        // type as fontTools compiles it, and packed as older compilers did (trimmed windows,
        // rebased components).
        var made: [String] = []
        for (kind, file) in [
            ("cff2-variable", "cff2-variable.otf"), ("colr", "colr.ttf"), ("colr0", "colr0.ttf"), ("svg-sbix", "svg-sbix.ttf"),
            ("vtt", "vtt.ttf"), ("mort", "mort.ttf"), ("mort-packed", "mort-packed.ttf"),
        ] {
            let built = try run(
                "/usr/bin/env",
                ["python3", repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path, kind, work.path + "/" + file])
            try #require(built.status == 0, "\(built.err)")
            made.append(work.path + "/" + file)
        }
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/ttx_parity.py").path
        let run = try run(
            "/usr/bin/env",
            [
                "python3", script, "--fontshell", fontshellBinary, "--work", work.path, "--skip-big-outlines",
                "--tables", conformance + "/tables", "--tables", conformance + "/instancer",
                conformance + "/aots", conformance + "/variable", conformance + "/tables/graphite/graphite_tests.ttf",
            ]
                + made + corpusFonts + Self.extraFaces + Self.scriptFonts)
        try #require(run.status == 0, "\(run.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let fonts = summary["fonts"] as? Int ?? 0, tables = summary["tables"] as? Int ?? 0
        let dumpEqual = summary["dumpEqual"] as? Int ?? 0, fuseEqual = summary["fuseEqual"] as? Int ?? 0
        print("TTX parity: \(fonts) fonts, \(tables) tables; dumps equal to ttx's: \(dumpEqual); ttx dumps fused back equal: \(fuseEqual)")
        // Every AOTS font and corpus font, fontTools' whole-font table and instancer tests, were tried.
        #expect(fonts >= 206 + corpusFonts.count + Self.extraFaces.count + made.count + 2 + 11 + 4 + 1 + Self.scriptFonts.count)
        for line in summary["dumpDiffers"] as? [String] ?? [] { #expect(Self.isAccepted(line), "dump: \(line)") }
        for line in summary["fuseDiffers"] as? [String] ?? [] { #expect(Self.isAccepted(line), "fuse: \(line)") }
        for line in summary["errors"] as? [String] ?? [] {
            // A whole-document fuse stops at a table we cannot fuse; each table then has its own verdict above.
            if line.contains("fontshell fuse of the whole dump") { continue }
            let font = Self.fileName(line[..<(line.range(of: ": ")?.lowerBound ?? line.endIndex)])
            #expect(Self.undumpable.contains(font), "\(line)")
        }
    }
}

/// Every index format (1–5) and image format (EBDT 1, 2, 5–7; CBDT 17–19) of embedded bitmaps,
/// made with the model on DejaVu Sans: our dump equals ttx's and our fuse of ttx's dump reads
/// back equal (the corpus has only index formats 1 and 3, with images 1, 7 and 17). Composite
/// bitmaps (8, 9) are left out: fontTools 4.68 fails to dump them (its EbdtComponent.toXML
/// slices a dict); FontXMLTests round-trips them.
@Suite struct EmbeddedBitmapParityTests {
    typealias Bitmaps = EmbeddedBitmaps

    static func glyph(_ format: UInt16, _ seed: Int, components: [UInt16] = []) -> Bitmaps.BitmapGlyph {
        let metrics = Bitmaps.BitmapGlyph.metricsLayout(format).map { layout in
            Bitmaps.ByteRecord(layout, values: layout.unsigned.enumerated().map { i, unsigned in unsigned ? 4 + i + seed : i - 2 - seed })
        }
        let image = components.isEmpty ? (0..<(6 + seed % 3)).map { UInt8(truncatingIfNeeded: $0 * 29 + seed * 7) } : []
        return Bitmaps.BitmapGlyph(
            imageFormat: format, metrics: metrics, imageData: image,
            components: components.enumerated().map { .init(glyph: $1, xOffset: Int8($0), yOffset: -Int8($0) - 1) })
    }

    static func strike(_ ppem: UInt8, bitDepth: UInt8, _ runs: [(index: UInt16, image: UInt16, glyphs: [UInt16], components: [UInt16])])
        -> Bitmaps.Strike
    {
        let line = Bitmaps.ByteRecord(.lineMetrics, values: [Int(ppem) - 3, -3, Int(ppem), 1, 1, 0, 0, 0, 0, 0, 0, 0])
        var strike = Bitmaps.Strike(hori: line, vert: line, ppemX: ppem, ppemY: ppem, bitDepth: bitDepth, flags: 1)
        for run in runs {
            var sub = Bitmaps.IndexSubtable(indexFormat: run.index, imageFormat: run.image, glyphIDs: run.glyphs)
            if run.index == 2 || run.index == 5 {
                // Fixed-size images: every glyph's bytes exactly imageSize long.
                sub.metrics = Bitmaps.ByteRecord(.bigGlyphMetrics, values: [8, 6, 0, 7, 7, -3, 0, 9])
                sub.imageSize = UInt32(Bitmaps.encodedSize(glyph(run.image, 0)))
            }
            strike.indexSubtables.append(sub)
            for g in run.glyphs {
                strike.glyphs[g] = glyph(run.image, run.index == 2 || run.index == 5 ? 0 : Int(g), components: run.components)
                strike.glyphOrder.append(g)
            }
        }
        return strike
    }

    /// Every table of the font at `path` dumps as ttx dumps it, and ttx's dump fuses back equal.
    static func expectEqualToTTX(_ path: String, work folder: TemporaryFolder) throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/ttx_parity.py").path
        let run = try run("/usr/bin/env", ["python3", script, "--fontshell", fontshellBinary, "--work", folder.path, "--jobs", "1", path])
        try #require(run.status == 0, "\(run.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(summary["dumpDiffers"] as? [String] == [], "\(summary)")
        #expect(summary["fuseDiffers"] as? [String] == [], "\(summary)")
        #expect(summary["errors"] as? [String] == [], "\(summary)")
        #expect(summary["tables"] as? Int ?? 0 > 4)
    }

    @Test func everyFormatMatchesTTX() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let face = font.faces[0]
        let mono = Bitmaps(
            kind: .monochrome, locatorVersion: 0x20000, dataVersion: 0x20000,
            strikes: [
                Self.strike(
                    12, bitDepth: 1,
                    [
                        (1, 1, [3, 4, 6], []), (2, 5, [10, 11, 12], []), (3, 2, [20, 21], []), (4, 6, [30, 35], []),
                        (5, 7, [40, 44, 47], []),
                    ]),
                Self.strike(16, bitDepth: 8, [(4, 1, [3, 9], [])]),
            ])
        let color = Bitmaps(
            kind: .color, locatorVersion: 0x30000, dataVersion: 0x30000,
            strikes: [
                Self.strike(109, bitDepth: 32, [(1, 17, [36, 37], []), (4, 18, [38], []), (3, 19, [39, 41], [])])
            ])
        try mono.write(to: face)
        try color.write(to: face)
        let path = folder.file("bitmaps.ttf")
        try font.save(to: path, options: SaveOptions(force: true))
        // The model reads back what it wrote.
        let reread = try Font(path: path).faces[0]
        #expect(try Bitmaps.read(from: reread, .monochrome)?.strikes.map(\.glyphs) == mono.strikes.map(\.glyphs))
        #expect(try Bitmaps.read(from: reread, .color)?.strikes.map(\.glyphs) == color.strikes.map(\.glyphs))

        try Self.expectEqualToTTX(path, work: folder)
    }

    /// Apple's bitmap tables: bloc/bdat (EBLC/EBDT's formats under Apple's tags) and bhed (head's
    /// fields, the header of a bitmap-only font), equal to ttx both ways.
    @Test func appleBitmapTablesMatchTTX() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let face = font.faces[0]
        let apple = Bitmaps(
            kind: .apple, locatorVersion: 0x20000, dataVersion: 0x20000,
            strikes: [Self.strike(12, bitDepth: 1, [(1, 1, [3, 4, 6], []), (2, 5, [10, 11, 12], []), (3, 2, [20, 21], [])])])
        try apple.write(to: face)
        face.setRawTable("bhed", try #require(try face.rawTable("head")))
        let path = folder.file("apple-bitmaps.ttf")
        try font.save(to: path, options: SaveOptions(force: true))
        let reread = try Font(path: path).faces[0]
        #expect(try reread.rawTable("bloc") != nil && reread.rawTable("EBLC") == nil)
        #expect(try Bitmaps.read(from: reread, .apple)?.strikes.map(\.glyphs) == apple.strikes.map(\.glyphs))
        let lua = try run(fontshellBinary, [path, "-e", "print(face.bitmaps[1].table, face.bitmaps[1].ppem, face.bhed.unitsPerEm)"])
        #expect(lua.out == "bdat\t12\t2048\n", "\(lua.out)\(lua.err)")

        try Self.expectEqualToTTX(path, work: folder)
    }
}
