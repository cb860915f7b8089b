import Foundation
import Testing

/// `fontshell instance` end to end: one location, every named instance, and wrong input.
@Suite struct InstanceCommandTests {
    static let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"

    func python(_ code: String, _ args: [String]) throws -> String {
        let r = try run("/usr/bin/env", ["python3", "-c", code] + args)
        guard r.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: r.err]) }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Inter Bold shapes exactly as fontTools' own instance does (HarfBuzz over a long text
    /// with kerning, marks and ligatures), is accepted by ots-sanitize, and is named for its style.
    @Test func boldShapesLikeFontToolsInstanceAndIsRenamed() throws {
        let dir = try TemporaryFolder()
        let ours = dir.file("bold.ttf"), theirs = dir.file("theirs.ttf")
        let r = try runFontshell(["instance", Self.inter, "wght=700", "-o", ours])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Inter-Bold at wght=700"))
        #expect(try run("/usr/bin/env", ["fonttools", "varLib.instancer", Self.inter, "wght=700", "-q", "-o", theirs]).status == 0)
        let text = "AVATAR Typography WAVE office fjord «quoted» Äpfel Łódź Ǆ Ωmega ж → 1/2 (H) [Tj] ‘Yo’"
        // hb-shape reads its text argument in the locale's encoding: name UTF-8, whatever CI sets.
        let utf8 = ["LC_ALL": "C.UTF-8"]
        let a = try run("/usr/bin/env", ["hb-shape", ours, text], environment: utf8)
        let b = try run("/usr/bin/env", ["hb-shape", theirs, text], environment: utf8)
        #expect(a.status == 0 && !a.out.isEmpty && a.out == b.out, "\(a.out)\n\(b.out)")
        #expect(try run("/usr/bin/env", ["ots-sanitize", ours, dir.file("ots.ttf")]).status == 0)
        let facts = try python(
            """
            import sys; from fontTools.ttLib import TTFont
            f = TTFont(sys.argv[1]); n = f['name']
            print(n.getDebugName(1), n.getDebugName(2), n.getDebugName(4), n.getDebugName(6), f['OS/2'].usWeightClass,
                  f['OS/2'].fsSelection & 0x61, f['head'].macStyle & 3, 'fvar' in f, 'gvar' in f, 'HVAR' in f)
            """, [ours])
        #expect(facts == "Inter Bold Inter Bold Inter-Bold 700 32 1 False False False")
    }

    @Test func everyNamedInstance() throws {
        let dir = try TemporaryFolder()
        let r = try runFontshell(["instance", Self.inter, "--all", "-o", dir.file("out")])
        #expect(r.status == 0, "\(r.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).sorted()
        #expect(
            files.count == 9 && files.contains("Inter-Bold.ttf") && files.contains("Inter-Thin.ttf")
                && files.contains("Inter-SemiBold.ttf"), "\(files)")
        let weights = try python(
            """
            import sys; from fontTools.ttLib import TTFont
            print(' '.join(str(TTFont(p)['OS/2'].usWeightClass) for p in sorted(sys.argv[1:], key=lambda p: TTFont(p)['OS/2'].usWeightClass)))
            """, files.map { dir.file("out/" + $0) })
        #expect(weights == "100 200 300 400 500 600 700 800 900")
        let semibold = try python(
            """
            import sys; from fontTools.ttLib import TTFont
            n = TTFont(sys.argv[1])['name']; print(n.getDebugName(1), '|', n.getDebugName(2), '|', n.getDebugName(16), '|', n.getDebugName(17))
            """, [dir.file("out/Inter-SemiBold.ttf")])
        #expect(semibold == "Inter Semi Bold | Regular | Inter | Semi Bold")
    }

    /// A CFF2 font's named instances: written as .otf, static (no store left in CFF2, no
    /// variation tables), weight classes from the instances, accepted by ots-sanitize.
    /// An avar 2 font (Amstelvar's subset from fontTools' tests): the command instances it, and
    /// a preview at the location draws what the instance draws (FreeType 2.12 and HarfBuzz 6
    /// apply only avar 1, so previews hand them the model's normalized coordinates). With
    /// design coordinates the two differed in 3,700 pixels, some by the full 255.
    @Test func avar2FontsInstanceAndPreviewAtTheirLocation() throws {
        let dir = try TemporaryFolder()
        let conformance =
            ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance"
        let source = conformance + "/variable/Amstelvar-avar2.subset.ttf"
        let out = dir.file("bold.ttf")
        let r = try runFontshell(["instance", source, "wght=700", "wdth=75", "opsz=36", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(try run("/usr/bin/env", ["ots-sanitize", out, dir.file("ots.ttf")]).status == 0)
        let chunk = """
            local loc = {wght = 700, wdth = 75, opsz = 36}
            local instance = fonts[2].faces[1]
            local atLocation = preview.text(face, "Test", {size = 96, variations = loc})
            local atDefault = preview.text(face, "Test", {size = 96})
            local static = preview.text(instance, "Test", {size = 96})
            local _, varied = preview.compare(atLocation, static)
            local _, default = preview.compare(atDefault, static)
            print(varied.changedPixels, varied.maxDifference, default.changedPixels)
            """
        let p = try runFontshell(["-e", chunk, source, out])
        let figures = p.out.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        #expect(figures.count == 3, "\(p.out) \(p.err)")
        if figures.count == 3 {
            #expect(figures[1] < 64, "antialiasing differences only (unrounded deltas against rounded outlines): \(figures)")
            #expect(figures[0] * 4 < figures[2], "\(figures)")
        }
    }

    @Test func everyNamedInstanceOfACFF2Font() throws {
        let dir = try TemporaryFolder()
        let conformance =
            ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance"
        let source = dir.file("vf.otf")
        #expect(try run("/usr/bin/env", ["ttx", "-q", "-o", source, conformance + "/instancer/CFF2Instancer-VF-3.ttx"]).status == 0)
        let r = try runFontshell(["instance", source, "--all", "-o", dir.file("out")])
        #expect(r.status == 0, "\(r.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).sorted()
        #expect(files.count >= 2 && files.allSatisfy { $0.hasSuffix(".otf") }, "\(files)")
        let facts = try python(
            """
            import sys; from fontTools.ttLib import TTFont
            out = []
            for p in sorted(sys.argv[1:], key=lambda p: TTFont(p)['OS/2'].usWeightClass):
                f = TTFont(p); top = f['CFF2'].cff.topDictIndex[0]
                out.append('%d %s %s' % (f['OS/2'].usWeightClass, hasattr(top, 'VarStore'), any(t in f for t in ('fvar', 'HVAR', 'MVAR'))))
            print(' | '.join(out))
            """, files.map { dir.file("out/" + $0) })
        #expect(facts.hasPrefix("100 False False") && facts.hasSuffix("900 False False") && !facts.contains("True"), "\(facts)")
        for f in files { #expect(try run("/usr/bin/env", ["ots-sanitize", dir.file("out/" + f)]).status == 0, "\(f)") }
        // --downgrade-cff2: the same instances as CFF 1 (CID-keyed: this font has two Font DICTs).
        let d = try runFontshell(["instance", source, "--all", "--downgrade-cff2", "-o", dir.file("cff")])
        #expect(d.status == 0, "\(d.err)")
        let downgraded = try FileManager.default.contentsOfDirectory(atPath: dir.file("cff")).sorted()
        #expect(downgraded == files)
        let kinds = try python(
            """
            import sys; from fontTools.ttLib import TTFont
            print(' '.join('%s/%s/%s' % ('CFF ' in f, 'CFF2' in f, hasattr(f['CFF '].cff.topDictIndex[0], 'ROS')) for f in map(TTFont, sys.argv[1:])))
            """, downgraded.map { dir.file("cff/" + $0) })
        #expect(kinds.split(separator: " ").allSatisfy { $0 == "True/False/True" }, "\(kinds)")
        for f in downgraded { #expect(try run("/usr/bin/env", ["ots-sanitize", dir.file("cff/" + f)]).status == 0, "\(f)") }
        // Narrowed: still CFF2 with a store and fvar's new range; downgrading it is refused.
        let narrowed = dir.file("narrowed.otf")
        let p = try runFontshell(["instance", source, "wght=300:800", "-o", narrowed])
        #expect(p.status == 0, "\(p.err)")
        let kept = try python(
            """
            import sys; from fontTools.ttLib import TTFont
            f = TTFont(sys.argv[1]); a = f['fvar'].axes[0]
            print(hasattr(f['CFF2'].cff.topDictIndex[0], 'VarStore'), a.minValue, a.defaultValue, a.maxValue)
            """, [narrowed])
        #expect(kept == "True 300.0 300.0 800.0", "\(kept)")
        #expect(try run("/usr/bin/env", ["ots-sanitize", narrowed]).status == 0)
        let refused = try runFontshell(["instance", source, "wght=300:800", "--downgrade-cff2", "-o", dir.file("refused.otf")])
        #expect(refused.status != 0 && refused.err.contains("CFF (version 1) cannot vary"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("refused.otf")))
    }

    @Test func wrongInputIsRefusedAndWritesNothing() throws {
        let dir = try TemporaryFolder()
        let out = dir.file("x.ttf")
        let cases: [([String], String)] = [
            (["instance", Self.inter, "wgth=700", "-o", out], "did you mean 'wght'"),
            (["instance", Self.inter, "wght", "-o", out], "expected AXIS=VALUE"),
            (["instance", Self.inter, "wght=bold", "-o", out], "expected AXIS=VALUE"),
            (["instance", Self.inter, "wght=1000", "--strict", "-o", out], "outside its range 100…900"),
            (["instance", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "wght=700", "-o", out], "not a variable font"),
            (["instance", Self.inter, "--all", "wght=700", "-o", out], "no coordinates"),
            (["instance", Self.inter, "wght=700", "-o", Self.inter], "refusing to overwrite"),
            (["instance", Self.inter, "--partial", "-o", out], "needs at least one axis to pin"),
            (["instance", Self.inter, "wght=600:500", "-o", out], "runs backwards"),
            (["instance", Self.inter, "wght=1000:1200", "-o", out], "lies outside 100…900"),
        ]
        for (args, message) in cases {
            let r = try runFontshell(args)
            #expect(r.status != 0 && r.err.contains(message), "\(args): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(args) wrote a file")
        }
        let clamped = try runFontshell(["instance", Self.inter, "wght=1000", "-o", out])
        #expect(clamped.status == 0 && clamped.err.contains("warning: axis 'wght': 1000 is outside 100…900; using 900"), "\(clamped.err)")
        // A narrowed axis: still variable, over the new range, and accepted by ots-sanitize.
        let narrowed = try runFontshell(["instance", Self.inter, "wght=300:700", "-o", out])
        #expect(narrowed.status == 0 && narrowed.out.contains("at wght=300:700"), "\(narrowed.out)\(narrowed.err)")
        let axis = try python(
            "import sys; from fontTools.ttLib import TTFont; a = TTFont(sys.argv[1])['fvar'].axes[0]; print(a.axisTag, a.minValue, a.maxValue, len(TTFont(sys.argv[1])['fvar'].instances))",
            [out])
        #expect(axis == "wght 300.0 700.0 5", "\(axis)")
        #expect(try run("/usr/bin/env", ["ots-sanitize", out, dir.file("ots.ttf")]).status == 0)
        // --no-optimize lists every point of the kept gvar tuples: a larger gvar.
        let dense = dir.file("dense.ttf")
        #expect(try runFontshell(["instance", Self.inter, "wght=300:700", "--no-optimize", "-o", dense]).status == 0)
        let sizes = try python(
            "import sys; from fontTools.ttLib import TTFont; print(*(len(TTFont(p).reader['gvar']) for p in sys.argv[1:]))", [out, dense])
        let gvar = sizes.split(separator: " ").compactMap { Int($0) }
        #expect(gvar.count == 2 && gvar[0] < gvar[1], "\(sizes)")
        try FileManager.default.removeItem(atPath: out)
        // With a range, the axes not named stay variable, as in fontTools, and the report says
        // so (issue 35, item 13); --downgrade-cff2 on TrueType outlines is an error, and a
        // TrueType instance named .otf a warning.
        let both = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
        let kept = try runFontshell(["instance", both, "wght=300:700", "-o", out])
        #expect(kept.status == 0 && kept.out.contains("at wght=300:700 (keeps slnt variable)"), "\(kept.out)\(kept.err)")
        let axes = try python(
            "import sys; from fontTools.ttLib import TTFont; print(*((a.axisTag, a.minValue, a.maxValue) for a in TTFont(sys.argv[1])['fvar'].axes))",
            [out])
        #expect(axes == "('wght', 300.0, 700.0) ('slnt', -10.0, 0.0)", "\(axes)")
        try FileManager.default.removeItem(atPath: out)
        let otf = dir.file("light.otf")
        let downgrade = try runFontshell(["instance", both, "wght=300", "--downgrade-cff2", "-o", otf])
        #expect(
            downgrade.status != 0 && downgrade.err.contains("the font's outlines are TrueType; there is no CFF2 to write as CFF"),
            "\(downgrade.err)")
        #expect(!FileManager.default.fileExists(atPath: otf))
        let named = try runFontshell(["instance", both, "wght=300", "-o", otf])
        #expect(
            named.status == 0 && named.err.contains("the instance has TrueType outlines; '.ttf' is their usual extension"), "\(named.err)")
        let list = try runFontshell(["instance", Self.inter])
        #expect(list.status == 0 && list.out.contains("wght  100…900, default 400  Weight") && list.out.contains("Bold  wght=700"))
    }
}
