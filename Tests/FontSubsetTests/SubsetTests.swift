import Foundation
import Testing
import FontModel
@testable import FontSubset
import TestSupport

let noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "fontshell-subset-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Subsetting through HarfBuzz: hb-subset is the oracle for the bytes, OTS and fontTools for
/// the result, the face's own cmap and GSUB for the glyph map and the closure.
@Suite struct SubsetTests {
    /// noto-cjk face 0 cut to 1,000 characters: the same bytes hb-subset writes for the same
    /// request, accepted by OTS and read by fontTools with every character mapped.
    @Test func sameBytesAsHBSubset() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = String(
            String.UnicodeScalarView(
                (0x4E00..<0x4E00 + 968).compactMap(Unicode.Scalar.init) + (0x20..<0x40).compactMap(Unicode.Scalar.init)))
        try text.write(toFile: dir + "/chars.txt", atomically: true, encoding: .utf8)
        let font = try Font(path: noto)
        var request = SubsetRequest()
        request.text = text
        let result = try Subsetter.subset(font.faces[0], request)
        let ours = dir + "/ours.otf"
        try result.font.save(to: ours)
        let hb = try run("hb-subset", ["--face-index=0", "--text-file=" + dir + "/chars.txt", "--output-file=" + dir + "/hb.otf", noto])
        #expect(hb.status == 0, "\(hb.err)")
        let same = FileManager.default.contentsEqual(atPath: ours, andPath: dir + "/hb.otf")
        #expect(same, "our subset differs from hb-subset's")
        #expect(result.missing.isEmpty && result.glyphMap.count > 1000 && result.glyphMap[0] == 0)
        let ots = try run("ots-sanitize", [ours, dir + "/sanitized.otf"])
        #expect(ots.status == 0, "\(ots.out) \(ots.err)")
        let check = try run(
            "python3",
            [
                "-c",
                """
                import sys
                from fontTools.ttLib import TTFont
                f = TTFont(sys.argv[1]); cmap = f.getBestCmap()
                text = open(sys.argv[2], encoding="utf-8").read()
                print(len(f.getGlyphOrder()), sum(ord(c) in cmap for c in set(text)))
                """, ours, dir + "/chars.txt",
            ])
        #expect(check.out == "\(result.glyphMap.count) 1000\n", "\(check.out) \(check.err)")
    }

    /// The glyph map is the face's cmap composed with the subset's; the GSUB closure of "office"
    /// is its ligatures; without the closure nothing is added; missing characters are named.
    @Test func glyphMapAndClosure() throws {
        let font = try Font(path: dejavu), face = font.faces[0]
        var request = SubsetRequest()
        request.text = "office\u{10FFFD}"
        let result = try Subsetter.subset(face, request)
        let names = try face.glyphNames()
        #expect(Set(result.closure.map { names[$0] }) == ["uniFB00", "fi", "uniFB03"])
        #expect(result.missing == [0x10FFFD])
        let sub = result.font.faces[0]
        for ch in "ofice".unicodeScalars {
            let old = try #require(try face.glyphID(for: ch))
            #expect(try sub.glyphID(for: ch) == result.glyphMap[old], "\(ch)")
        }
        #expect(Set(result.glyphMap.values) == Set(0..<result.glyphMap.count))
        request.layoutClosure = false
        let bare = try Subsetter.subset(face, request)
        #expect(bare.closure.isEmpty && bare.glyphMap.count == 6)   // .notdef o f i c e
        request.glyphs = [names.firstIndex(of: "fi")!]
        #expect(try Subsetter.subset(face, request).glyphMap.count == 7)
        request.retainGlyphIDs = true
        let retained = try Subsetter.subset(face, request)
        #expect(retained.glyphMap.allSatisfy { $0.key == $0.value })
    }

    /// An edited face is subset as edited: a kerning value set in the model is the subset's.
    @Test func editedFaceIsSubsetAsEdited() throws {
        let font = try Font(path: dejavu), face = font.faces[0]
        let a = try #require(try face.glyphID(for: "A")), v = try #require(try face.glyphID(for: "V"))
        _ = try face.setKerning(a, v, -321)
        var request = SubsetRequest()
        request.text = "AV"
        request.features = ["kern"]
        let result = try Subsetter.subset(face, request)
        #expect(try result.font.faces[0].kerning(result.glyphMap[a]!, result.glyphMap[v]!) == -321)
    }

    /// Requests that cannot be met are errors naming them.
    @Test func badRequestsAreErrors() throws {
        let font = try Font(path: dejavu), face = font.faces[0]
        var request = SubsetRequest()
        request.glyphs = [70_000]
        #expect { try Subsetter.subset(face, request) } throws: { "\($0)".contains("glyph 70000 is not in DejaVuSans") }
        request = SubsetRequest()
        request.text = "a"
        request.features = ["toolong"]
        #expect { try Subsetter.subset(face, request) } throws: { "\($0)".contains("feature tag \"toolong\"") }
        #expect { try SubsetRequest.parseUnicodes("U+0041-0030") } throws: { "\($0)".contains("runs backwards") }
        #expect { try SubsetRequest.parseUnicodes("U+110000") } throws: { "\($0)".contains("up to U+10FFFF") }
        #expect(try SubsetRequest.parseUnicodes("U+0041-0043, 61,0x62") == [0x41, 0x42, 0x43, 0x61, 0x62])
    }

    /// Web slices of DejaVu: every mapped character but the control characters in exactly one
    /// slice, each slice a WOFF2 that maps its characters (OTS-clean), the CSS naming each file
    /// with its unicode-range; the first slice is Google Fonts' Latin one (— “ ” ’ … € ™ with
    /// ASCII), so an English page fetches one file (issue 35, item 18).
    @Test func webSlicesCoverTheFaceOnce() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let font = try Font(path: dejavu), face = font.faces[0]
        var options = SliceOptions()
        options.charactersPerSlice = 400
        options.quality = 4
        let report = try WebSlicer.slice(face, into: dir, options: options)
        let mapped = try #require(try face.cmap?.bestUnicodeSubtable()?.mapping()).filter { !WebSlicer.isControl($0.key) }
        #expect(report.files.count >= mapped.count / 400 && report.files.reduce(0) { $0 + $1.characters } == mapped.count)
        let first = try #require(try Font(path: dir + "/" + report.files[0].name).faces[0].cmap?.bestUnicodeSubtable()?.mapping()).keys
        for c: UInt32 in [0x41, 0x7A, 0xE9, 0x2014, 0x201C, 0x201D, 0x2019, 0x2026, 0x20AC, 0x2122] {
            #expect(first.contains(c), "U+\(String(c, radix: 16))")
        }
        #expect(!first.contains { $0 < 0x20 } && !first.contains(0x100), "Latin-1 and the chosen extras only")
        let css = try String(contentsOfFile: dir + "/" + report.cssFile, encoding: .utf8)
        #expect(css.components(separatedBy: "@font-face").count - 1 == report.files.count)
        #expect(css.contains("font-family: \"DejaVu Sans\""))
        var seen = Set<UInt32>()
        for file in report.files {
            #expect(css.contains("url(\"\(file.name)\")"))
            let slice = try Font(path: dir + "/" + file.name)
            #expect(slice.webFormat == "woff2")
            let chars = try #require(try slice.faces[0].cmap?.bestUnicodeSubtable()?.mapping()).keys
            #expect(chars.count >= file.characters, "\(file.name)")
            seen.formUnion(chars)
        }
        #expect(seen.isSuperset(of: mapped.keys))
        let ots = try run("ots-sanitize", [dir + "/" + report.files[0].name, dir + "/sanitized.ttf"])
        #expect(ots.status == 0, "\(ots.out) \(ots.err)")
        #expect(WebSlicer.unicodeRange([0x41, 0x20, 0x42, 0x43, 0x4E00]) == "U+20, U+41-43, U+4E00")
        // Given slices: characters the face lacks are counted and left out; a bad line is named.
        options.slices = try SliceOptions.parseSliceFile("U+41-5A # capitals\n\nU+61-7A,U+10FFFD\n")
        let given = try WebSlicer.slice(face, into: dir + "/given", options: options)
        #expect(given.files.map(\.characters) == [26, 26] && given.skipped == 1)
        #expect { try SliceOptions.parseSliceFile("U+41\nbanana\n") } throws: { "\($0)".contains("slice file line 2") }
    }
}
