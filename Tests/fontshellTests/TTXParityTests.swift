import Foundation
import Testing

/// TTX parity with ttx, table by table, on every corpus font, every AOTS font and every font
/// fontTools' own table tests compile to (`Tests/Oracles/ttx_parity.py`): our dump equals
/// fontTools' as XML data, and our fuse of fontTools' dump reads back in fontTools as the
/// original. Every difference must be one of the exceptions below, each with its reason
/// (docs/xml.md lists them and the counts).
@Suite struct TTXParityTests {
    /// Tables ttx types and we still dump as hexdata (and cannot fuse from ttx's XML).
    static let notTypedYet: Set<String> = ["CFF2", "CBDT", "CBLC", "COLR"]

    /// Single differences, by font file and table, and why they are right or accepted.
    static let accepted: [String: String] = [
        // fontTools skips a format 4 cmap's last segment, assuming it is the 0xFFFF end marker;
        // these fonts end with a real segment, which HarfBuzz and we read.
        "cmap4_font1.otf cmap": "fontTools ignores the last format 4 segment",
        "cmap4_font4.otf cmap": "fontTools ignores the last format 4 segment",
        // fontTools' CFF test font has no maxp, so we have no glyph count to dump or fuse it with.
        "C_F_F_.otf CFF": "no maxp",
        // avar version 2 (an ItemVariationStore over the axes) is not typed yet.
        "Amstelvar-avar2.subset.ttf avar": "avar version 2 is not typed yet",
    ]

    /// Fonts we cannot dump at all: fontTools' hhea/vhea recalculation tests have no maxp, so
    /// they have no glyph count (fontTools takes it from the CFF).
    static let undumpable: Set<String> = ["_h_h_e_a_recalc_OTF.otf", "_h_h_e_a_recalc_empty.otf", "_v_h_e_a_recalc_OTF.otf", "_v_h_e_a_recalc_empty.otf"]

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
        let conformance = ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance"
        let corpusList = try String(contentsOfFile: repositoryRoot.appendingPathComponent("../shared/corpus/fonts.tsv").standardized.path, encoding: .utf8)
        let corpusFonts = corpusList.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
            let columns = line.split(separator: "\t")
            return columns.count >= 3 ? String(columns[2]) : nil
        }
        let work = try TemporaryFolder()
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/ttx_parity.py").path
        let run = try runProcess("/usr/bin/env", ["python3", script, "--fontshell", fontshellBinary, "--work", work.path, "--skip-big-outlines",
                                                  "--tables", conformance + "/tables", conformance + "/aots", conformance + "/variable"] + corpusFonts)
        try #require(run.status == 0, "\(run.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let fonts = summary["fonts"] as? Int ?? 0, tables = summary["tables"] as? Int ?? 0
        let dumpEqual = summary["dumpEqual"] as? Int ?? 0, fuseEqual = summary["fuseEqual"] as? Int ?? 0
        print("TTX parity: \(fonts) fonts, \(tables) tables; dumps equal to ttx's: \(dumpEqual); ttx dumps fused back equal: \(fuseEqual)")
        // Every AOTS font and corpus font, and fontTools' whole-font table tests, were tried.
        #expect(fonts >= 206 + corpusFonts.count + 5 + 2)
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
