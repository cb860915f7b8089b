import Foundation
import Testing
@testable import FontModel

/// Variable fonts: locations, glyphs at a location, static instances against fontTools'
/// instancer test suite (its expected results are the oracle), and malformed variation data.
@Suite struct VariationTests {
    /// A 600 KB variable Latin font from Debian (fonts-inter-variable, installed by bootstrap).
    static let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
    static let instancer = Conformance.folder + "/instancer"
    static let compare = repositoryRoot.appendingPathComponent("Tests/Oracles/instancer_conformance.py").path

    /// fontTools' instancer test font compiled from its TTX (MutatorSans from varLib's data).
    func compiled(_ name: String, in folder: TemporaryFolder) throws -> String {
        if name == "cff2-variable" { return try builtFont(name, in: folder) }   // hints and Private blends
        let source = name == "MutatorSans" ? Conformance.folder + "/variable/MutatorSans_All_Variable.ttx" : Self.instancer + "/\(name).ttx"
        guard FileManager.default.fileExists(atPath: source) else {
            throw FontError("no instancer conformance data at \(source): run ../shared/corpus/conformance.sh")
        }
        let out = folder.file(name + ".ttf")
        let r = try run("ttx", ["-q", "-o", out, source])
        guard r.status == 0 else { throw FontError("ttx could not compile \(name): \(r.err)") }
        return out
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let font: String, location: [String: Double], expected: String, overlapFlags: Bool
        var testDescription: String { expected }
    }

    static let cases: [Case] = [
        Case(
            font: "PartialInstancerTest2-VF", location: ["wght": 100, "wdth": 100], expected: "PartialInstancerTest2-VF-instance-100,100",
            overlapFlags: true),
        Case(
            font: "PartialInstancerTest2-VF", location: ["wght": 400, "wdth": 100], expected: "PartialInstancerTest2-VF-instance-400,100",
            overlapFlags: true),
        Case(
            font: "PartialInstancerTest2-VF", location: ["wght": 900, "wdth": 100], expected: "PartialInstancerTest2-VF-instance-900,100",
            overlapFlags: true),
        Case(
            font: "PartialInstancerTest2-VF", location: ["wght": 100, "wdth": 62.5], expected: "PartialInstancerTest2-VF-instance-100,62.5",
            overlapFlags: true),
        Case(
            font: "PartialInstancerTest2-VF", location: ["wght": 400, "wdth": 62.5], expected: "PartialInstancerTest2-VF-instance-400,62.5",
            overlapFlags: true),
        Case(
            font: "PartialInstancerTest2-VF", location: ["wght": 900, "wdth": 62.5], expected: "PartialInstancerTest2-VF-instance-900,62.5",
            overlapFlags: true),
        Case(
            font: "PartialInstancerTest3-VF", location: ["wght": 400], expected: "PartialInstancerTest3-VF-instance-400-no-overlap-flags",
            overlapFlags: false),
        Case(font: "SinglePos", location: ["wght": 280, "opsz": 18], expected: "SinglePos-VF-instance-280,18", overlapFlags: true),
    ]

    /// Every table of the instance equals fontTools' expected dump (names only pruned, as
    /// fontTools' tests run it).
    @Test(arguments: cases) func fullInstancesMatchFontToolsExpectedResults(_ c: Case) throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: try compiled(c.font, in: folder))
        let result = try font.faces[0].instance(
            InstanceOptions(coordinates: c.location, updateNames: false, setOverlapFlags: c.overlapFlags, rewriteLayout: true))
        let out = folder.file("instance.ttf")
        _ = try result.font.save(to: out)
        let r = try run("python3", [Self.compare, out, Self.instancer + "/test_results/\(c.expected).ttx"])
        guard r.status == 0, let report = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
            let tables = report["tables"] as? [String: Any]
        else {
            Issue.record("comparison failed: \(r.err)"); return
        }
        #expect(tables.count >= 5, "\(tables.keys)")
        for (tag, verdict) in tables { #expect(verdict as? String == "same", "\(tag): \(verdict)") }
        #expect((report["only_ours"] as? [String]) == [] && (report["only_expected"] as? [String]) == [], "\(report)")
        // The default in-place GPOS patch positions the same as the rewrite.
        let fast = folder.file("fast.ttf")
        _ = try font.faces[0].instance(InstanceOptions(coordinates: c.location, updateNames: false, setOverlapFlags: c.overlapFlags)).font
            .save(to: fast)
        let text = "AVATAR TAVA Àgrave"
        #expect(try run("hb-shape", [fast, text]).out == run("hb-shape", [out, text]).out)
    }

    /// MutatorSans (fontTools' varLib test font) has FeatureVariations: at each location the
    /// instance equals fontTools' instancer output table by table (GSUB's substituted features
    /// and pruned lookups included) with `rewriteLayout`; the default in-place GPOS patch
    /// shapes the same text identically.
    @Test(arguments: [["wdth": 100.0, "wght": 200.0], ["wdth": 900, "wght": 900], ["wdth": 0, "wght": 0], ["wdth": 1000, "wght": 300]])
    func featureVariationsResolveAsFontToolsDoes(_ location: [String: Double]) throws {
        let folder = try TemporaryFolder()
        let source = Conformance.folder + "/variable/MutatorSans_All_Variable.ttx"
        let input = folder.file("mutator.ttf"), theirs = folder.file("theirs.ttf"), expected = folder.file("theirs.ttx")
        #expect(try run("ttx", ["-q", "-o", input, source]).status == 0)
        let coordinates = location.sorted { $0.key < $1.key }.map { "\($0.key)=\(Int($0.value))" }
        #expect(try run("fonttools", ["varLib.instancer", input] + coordinates + ["-q", "-o", theirs]).status == 0)
        #expect(try run("ttx", ["-q", "-o", expected, theirs]).status == 0)
        let font = try Font(path: input)
        var shaped: [String] = []
        for rewrite in [true, false] {
            let out = folder.file("ours-\(rewrite).ttf")
            _ = try font.faces[0].instance(InstanceOptions(coordinates: location, updateNames: false, rewriteLayout: rewrite)).font.save(
                to: out)
            if rewrite {
                let r = try run("python3", [Self.compare, out, expected])
                let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
                let tables = try #require(report["tables"] as? [String: Any])
                #expect(tables.keys.contains("GSUB") && tables.keys.contains("GPOS"))
                for (tag, verdict) in tables { #expect(verdict as? String == "same", "\(tag): \(verdict)") }
            }
            shaped.append(try run("hb-shape", [out, "AVATAR $ dollar WAVE"]).out)
        }
        #expect(shaped[0] == shaped[1] && !shaped[0].isEmpty)
    }

    /// avar 2 (Amstelvar's subset from fontTools' tests: 12 axes, an axis store that moves the
    /// parametric axes with wght, wdth and opsz): locations equal fontTools' `renormalizeLocation`
    /// to the bit, and a full instance equals fontTools' instancer output table by table.
    struct PartialCase: CustomTestStringConvertible, Sendable {
        let font: String, pins: [String: Double]
        var ranges: [String: ClosedRange<Double>] = [:]
        var arguments: [String] {
            pins.map { "\($0.key)=\(Face.short($0.value))" }
                + ranges.map { "\($0.key)=\(Face.short($0.value.lowerBound)):\(Face.short($0.value.upperBound))" }
        }
        var testDescription: String { font + " " + arguments.sorted().joined(separator: " ") }
    }

    static let partialCases: [PartialCase] = [
        PartialCase(font: "PartialInstancerTest-VF", pins: ["wght": 500]),   // gvar, cvar, HVAR, MVAR, avar, STAT
        PartialCase(font: "PartialInstancerTest-VF", pins: ["wdth": 85]),
        PartialCase(font: "PartialInstancerTest2-VF", pins: ["wdth": 80]),   // GDEF store and GPOS devices
        PartialCase(font: "PartialInstancerTest2-VF", pins: ["wght": 700]),
        PartialCase(font: "STATInstancerTest", pins: ["wght": 700]),   // three axes, two kept
        PartialCase(font: "STATInstancerTest", pins: ["wdth": 100, "ital": 1]),
        PartialCase(font: "SinglePos", pins: ["wght": 500]),   // GPOS only
        PartialCase(font: "MutatorSans", pins: ["wght": 500]),   // FeatureVariations (rvrn)
        PartialCase(font: "MutatorSans", pins: ["wdth": 900]),
        // Narrowed axes (fontTools' AXIS=MIN:MAX): tents cut by the new range's ends.
        PartialCase(font: "PartialInstancerTest-VF", pins: [:], ranges: ["wght": 100...700]),
        PartialCase(font: "PartialInstancerTest-VF", pins: ["wght": 500], ranges: ["wdth": 80...100]),
        PartialCase(font: "PartialInstancerTest2-VF", pins: [:], ranges: ["wght": 200...700]),
        PartialCase(font: "MutatorSans", pins: [:], ranges: ["wght": 0...600]),
        PartialCase(font: "STATInstancerTest", pins: [:], ranges: ["wght": 300...600]),
        // Ranges that leave the default out: it moves to their nearest end (avar maps rescaled).
        PartialCase(font: "PartialInstancerTest2-VF", pins: [:], ranges: ["wght": 500...800]),
        PartialCase(font: "PartialInstancerTest2-VF", pins: [:], ranges: ["wght": 100...300]),
        PartialCase(font: "MutatorSans", pins: [:], ranges: ["wdth": 200...1000]),
        PartialCase(font: "STATInstancerTest", pins: [:], ranges: ["wght": 500...700]),
        // CFF2: blends in charstrings (two variation data), stems and hintmasks, the Private DICT.
        PartialCase(font: "CFF2Instancer-VF-2", pins: ["wght": 500]),
        PartialCase(font: "CFF2Instancer-VF-2", pins: [:], ranges: ["wght": 200...700]),
        PartialCase(font: "CFF2Instancer-VF-3", pins: [:], ranges: ["wght": 300...800]),
        PartialCase(font: "cff2-variable", pins: ["wght": 700]),
        PartialCase(font: "cff2-variable", pins: [:], ranges: ["wght": 500...900, "wdth": 60...100]),
        PartialCase(font: "cff2-variable", pins: [:], ranges: ["wdth": 50...80]),
    ]

    /// Partial instances (some axes pinned, the others kept): at every point of a grid over
    /// the kept axes, fontTools' full instance of ours equals its full instance of fontTools'
    /// own partial instance (glyph points within the 0.5 fontTools' IUP optimization allows,
    /// advances, metrics, cvt, GSUB, GPOS), fvar, STAT and HVAR agree, and ots-sanitize accepts
    /// the font (Tests/Oracles/partial_instance_check.py).
    @Test(arguments: partialCases) func partialInstancesMatchFontToolsEverywhereOnTheKeptAxes(_ c: PartialCase) throws {
        let folder = try TemporaryFolder()
        let source = try compiled(c.font, in: folder)
        let font = try Font(path: source)
        let result = try font.faces[0].instance(InstanceOptions(coordinates: c.pins, partial: true, ranges: c.ranges))
        let out = folder.file("partial.ttf")
        _ = try result.font.save(to: out)
        let saved = try Font(path: out)
        let kept = try saved.faces[0].variationAxes.map(\.tag.trimmed)
        #expect(!kept.isEmpty && kept.allSatisfy { c.pins[$0] == nil }, "\(kept)")
        for (tag, range) in c.ranges {
            let axis = try saved.faces[0].variationAxes.first { $0.tag.trimmed == tag }
            #expect(axis?.minimum == range.lowerBound && axis?.maximum == range.upperBound, "\(String(describing: axis))")
            if let old = try font.faces[0].variationAxes.first(where: { $0.tag.trimmed == tag }) {
                #expect(axis?.defaultValue == min(max(old.defaultValue, range.lowerBound), range.upperBound))
            }
        }
        let check = repositoryRoot.appendingPathComponent("Tests/Oracles/partial_instance_check.py").path
        let r = try run("python3", [check, out, source] + c.arguments)
        guard r.status == 0, let report = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
            let points = report["points"] as? [String: Double]
        else {
            Issue.record("comparison failed: \(r.err)"); return
        }
        #expect((report["locations"] as? Int ?? 0) >= 3)
        #expect((points["vs_fonttools"] ?? 9) <= 0.5, "\(report)")
        // Two steps round twice (the new default, then each kept tuple's deltas); fontTools' own
        // partial instances stray as far from the direct instance (up to 3 units here).
        #expect((points["vs_direct"] ?? 9) <= 3, "\(report)")
        #expect((report["mismatches"] as? [String]) == [], "\(report)")
        if saved.faces[0].has("CFF2") {
            // Still variable: the charstrings keep blends, against a store of the kept axes.
            let cff2 = try #require(try saved.faces[0].cff2)
            #expect(cff2.store?.regions.allSatisfy { $0.count == kept.count } == true)
            let ends = [1.0, -1.0].map { [$0] + Array(repeating: 0, count: kept.count - 1) }   // the first kept axis's
            #expect(
                try (0..<cff2.glyphCount).contains { id in try ends.contains { try cff2.outline(id, at: $0).path != cff2.outline(id).path }
                })
        }
        if c.font != "SinglePos" {   // SinglePos has no OS/2, which ots requires
            #expect(try run("ots-sanitize", [out, folder.file("ots.ttf")]).status == 0)
        }
    }

    /// GDEF ligature carets that vary (format 3, a VariationIndex device into GDEF's store):
    /// PartialInstancerTest2-VF with one such caret added. The partial instance moves the caret
    /// by its delta at the new default and keeps the device, so fontTools' full instances of it
    /// equal those of fontTools' partial instance (GDEF compared as TTX).
    @Test(arguments: [("wdth=80", "3 295"), ("wdth=62.5:80", "3 295"), ("wght=300:900", "3 300")])
    func varyingLigatureCaretsFollowPartialInstances(_ argument: String, _ expected: String) throws {
        let folder = try TemporaryFolder()
        let source = try compiled("PartialInstancerTest2-VF", in: folder)
        let carets = folder.file("carets.ttf")
        let build = try run(
            "python3",
            [
                "-c",
                """
                import sys
                from fontTools.ttLib import TTFont
                from fontTools.ttLib.tables import otTables as ot
                f = TTFont(sys.argv[1]); g = f['GDEF'].table
                device = ot.Device(); device.StartSize, device.EndSize, device.DeltaFormat = 0, 0, 0x8000
                caret = ot.CaretValue(); caret.Format, caret.Coordinate, caret.DeviceTable = 3, 300, device
                glyph = ot.LigGlyph(); glyph.CaretValue, glyph.CaretCount = [caret], 1
                carets = ot.LigCaretList(); carets.Coverage = ot.Coverage(); carets.Coverage.glyphs = ['Agrave']
                carets.LigGlyph, carets.LigGlyphCount = [glyph], 1
                g.LigCaretList = carets
                f.save(sys.argv[2])
                """, source, carets,
            ])
        #expect(build.status == 0, "\(build.err)")
        let parts = argument.split(separator: "=").map(String.init)
        let bounds = parts[1].split(separator: ":").compactMap { Double($0) }
        var options = InstanceOptions(partial: true)
        if bounds.count == 2 { options.ranges = [parts[0]: bounds[0]...bounds[1]] } else { options.coordinates = [parts[0]: bounds[0]] }
        let font = try Font(path: carets)
        let out = folder.file("partial.ttf")
        _ = try font.faces[0].instance(options).font.save(to: out)
        let check = repositoryRoot.appendingPathComponent("Tests/Oracles/partial_instance_check.py").path
        let r = try run("python3", [check, out, carets, argument])
        guard r.status == 0, let report = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any] else {
            Issue.record("comparison failed: \(r.err)"); return
        }
        #expect((report["mismatches"] as? [String]) == [], "\(report)")
        let caret = try run(
            "python3",
            [
                "-c",
                "import sys; from fontTools.ttLib import TTFont; c = TTFont(sys.argv[1])['GDEF'].table.LigCaretList.LigGlyph[0].CaretValue[0]; print(c.Format, c.Coordinate)",
                out,
            ])
        // The caret's row varies along wdth: pinning wdth (or moving its default) moves it.
        #expect(caret.out.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(caret.out)")
    }

    /// A font without a name table (fontTools' NotoSans-VF-cubic test subset) instances, fully
    /// and partially, with no names to give (it used to fail asking for the name table).
    @Test func fontsWithoutANameTableInstance() throws {
        let font = try Font(path: Conformance.folder + "/variable/NotoSans-VF-cubic.subset.ttf")
        let face = font.faces[0]
        #expect(!face.has("name"))
        let full = try face.instance(InstanceOptions(coordinates: ["wght": 700]))
        #expect(full.postScriptName == nil && !full.font.faces[0].has("fvar") && !full.font.faces[0].has("name"))
        let partial = try face.instance(InstanceOptions(coordinates: ["wght": 700], partial: true))
        #expect(try partial.font.faces[0].variationAxes.map(\.tag.trimmed) == ["wdth", "CTGR"])
    }

    /// A real font narrowed: Inter (2,548 glyphs, GPOS with 100,000 kerning values through GDEF's
    /// store, HVAR, STAT) at wght=300:700 agrees with fontTools' own partial instance at five
    /// weights across the new range.
    @Test func interNarrowedMatchesFontTools() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Self.inter)
        let out = folder.file("narrow.ttf")
        _ = try font.faces[0].instance(InstanceOptions(ranges: ["wght": 300...700])).font.save(to: out)
        // The new stores replace the old ones: HVAR (whose store came before its advance map)
        // and GDEF once kept the old store's bytes, unreferenced (9,407 and 3,601 bytes).
        let saved = try Font(path: out)
        for tag: FontModel.Tag in ["HVAR", "GDEF"] {
            let before = try font.faces[0].rawTable(tag)?.count ?? 0, after = try saved.faces[0].rawTable(tag)?.count ?? 0
            #expect(after > 0 && after <= before, "\(tag): \(after) bytes, \(before) in the variable font")
        }
        let check = repositoryRoot.appendingPathComponent("Tests/Oracles/partial_instance_check.py").path
        let r = try run("python3", [check, out, Self.inter, "wght=300:700"])
        guard r.status == 0, let report = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
            let points = report["points"] as? [String: Double]
        else {
            Issue.record("comparison failed: \(r.err)"); return
        }
        #expect(report["locations"] as? Int == 5 && (points["vs_fonttools"] ?? 9) <= 0.5, "\(report)")
        #expect((report["mismatches"] as? [String]) == [], "\(report)")
    }

    /// Partial instances leave out of gvar the points a reader infers (IUP), as fontTools'
    /// instancer does: read back through fontTools' own inference, every tuple of Inter
    /// narrowed to wght=300:700 gives the deltas of the same instance made with every point
    /// listed (`optimizeDeltas: false`) within 0.5, and the gvar is smaller than that one's and
    /// no larger than fontTools' (Tests/Oracles/iup_check.py).
    @Test func partialInstancesLeaveOutInferredPoints() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: Self.inter)
        let face = font.faces[0]
        let sparse = folder.file("sparse.ttf"), dense = folder.file("dense.ttf"), theirs = folder.file("theirs.ttf")
        _ = try face.instance(InstanceOptions(ranges: ["wght": 300...700])).font.save(to: sparse)
        _ = try face.instance(InstanceOptions(ranges: ["wght": 300...700], optimizeDeltas: false)).font.save(to: dense)
        let made = try run("python3", ["-m", "fontTools.varLib.instancer", Self.inter, "wght=300:700", "-q", "-o", theirs])
        #expect(made.status == 0, "\(made.err)")
        let check = repositoryRoot.appendingPathComponent("Tests/Oracles/iup_check.py").path
        let r = try run("python3", [check, sparse, dense, theirs])
        guard r.status == 0, let report = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
            let bytes = report["gvar_bytes"] as? [Int], bytes.count == 3
        else {
            Issue.record("comparison failed: \(r.err)"); return
        }
        #expect((report["mismatches"] as? [String]) == [], "\(report)")
        #expect((report["worst"] as? Double ?? 9) <= 0.5 && (report["sparse_tuples"] as? Int ?? 0) > 500, "\(report)")
        #expect(bytes[0] < bytes[1] && bytes[0] <= bytes[2], "gvar bytes: ours \(bytes[0]), every point \(bytes[1]), fontTools \(bytes[2])")
        #expect(try run("ots-sanitize", [sparse, folder.file("ots.ttf")]).status == 0)
    }

    /// GSUB of a partial instance of MutatorSans (FeatureVariations: 'rvrn' swaps I for
    /// I.narrow at narrow widths) equals fontTools' own partial instance's, table for table (as
    /// TTX): records pinned away and their lookups removed (at wdth=900 the narrow lookup goes),
    /// conditions on a narrowed axis rescaled and clamped to its new range (a default moved to
    /// wdth's minimum leaves no negative side).
    @Test(arguments: ["wdth=900", "wght=500", "wdth=200:1000", "wght=0:600", "wdth=300:700"])
    func partialInstancesLayOutGSUBAsFontToolsDoes(_ argument: String) throws {
        let folder = try TemporaryFolder()
        let source = try compiled("MutatorSans", in: folder)
        let font = try Font(path: source)
        let parts = argument.split(separator: "=").map(String.init)
        let bounds = parts[1].split(separator: ":").compactMap { Double($0) }
        var options = InstanceOptions(partial: true)
        if bounds.count == 2 { options.ranges = [parts[0]: bounds[0]...bounds[1]] } else { options.coordinates = [parts[0]: bounds[0]] }
        let ours = folder.file("ours.ttf"), theirs = folder.file("theirs.ttf")
        _ = try font.faces[0].instance(options).font.save(to: ours)
        #expect(try run("python3", ["-m", "fontTools.varLib.instancer", source, argument, "-q", "-o", theirs]).status == 0)
        let dump = try run(
            "python3",
            [
                "-c",
                """
                import io, sys
                from fontTools.ttLib import TTFont
                from fontTools.misc.xmlWriter import XMLWriter
                texts = []
                for p in sys.argv[1:]:
                    f = TTFont(p); b = io.StringIO(); f["GSUB"].toXML(XMLWriter(b), f); texts.append(b.getvalue())
                print(len(TTFont(sys.argv[1])["GSUB"].table.LookupList.Lookup), texts[0] == texts[1])
                """, ours, theirs,
            ])
        let answer = dump.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(answer.hasSuffix(" True"), "\(dump.out)\(dump.err)")
        if argument == "wdth=900" { #expect(answer == "1 True") }
    }

    /// HVAR and VVAR around a new store: header, store, then the delta-set index maps copied
    /// whole, wherever they and the old store were (here the store first, then two maps and two
    /// absent). A VVAR built by hand: no test font has one.
    @Test func metricsVariationsAreLaidOutAgainAroundTheNewStore() throws {
        var store = BinaryWriter()   // one axis, one region (0, 1, 1), one item set of two rows
        store.u16(1); store.u32(12); store.u16(1); store.u32(22)
        store.u16(1); store.u16(1); store.i16(0); store.i16(0x4000); store.i16(0x4000)
        store.u16(2); store.u16(0); store.u16(1); store.u16(0); store.i8(5); store.i8(-3)
        let advanceMap: [UInt8] = [0, 0x00, 0, 3, 0, 1, 1], originMap: [UInt8] = [1, 0x10, 0, 0, 0, 2, 0, 1, 0, 0]
        var vvar = BinaryWriter()
        vvar.u32(0x0001_0000); vvar.u32(24); vvar.u32(56); vvar.u32(0); vvar.u32(0); vvar.u32(63)
        vvar.append(store.bytes); vvar.append(advanceMap); vvar.append(originMap)
        let raw = vvar.bytes
        let old = try raw.withUnsafeBytes { try ItemVariationStore(BinaryReader($0), at: 24, axisCount: 1, what: "VVAR") }
        var smaller = old
        smaller.data[0].deltas = [7, -1]
        let out = try Face.metricsVariations(raw, mapFields: [8, 12, 16, 20], with: smaller, axisCount: 1)
        func offset(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(out[at + $1]) } }
        #expect(offset(4) == 24 && offset(12) == 0 && offset(16) == 0)
        #expect(Array(out[offset(8)..<(offset(8) + advanceMap.count)]) == advanceMap)
        #expect(Array(out[offset(20)..<(offset(20) + originMap.count)]) == originMap)
        let read = try out.withUnsafeBytes { try ItemVariationStore(BinaryReader($0), at: 24, axisCount: 1, what: "VVAR") }
        #expect(read.data[0].deltas == [7, -1])
        #expect(out.count == offset(20) + originMap.count)   // nothing after the last map
        // A map running past the table is an error naming where.
        var cut = raw
        cut.removeLast(4)
        #expect(throws: FontError.self) { try Face.metricsVariations(cut, mapFields: [8, 12, 16, 20], with: old, axisCount: 1) }
    }

    /// What partial instancing does not do yet (avar 2) is refused with a message, and a
    /// partial "instance" that pins nothing is refused; pinning every axis is a full instance.
    @Test func partialInstancingRefusesWhatItCannotDo() throws {
        let folder = try TemporaryFolder()
        let statFont = try Font(path: try compiled("STATInstancerTest", in: folder))
        let stat = statFont.faces[0]
        #expect(throws: FontError.self) { try stat.instance(InstanceOptions(coordinates: [:], partial: true)) }
        let full = try stat.instance(InstanceOptions(coordinates: ["wght": 700, "wdth": 100, "ital": 0], partial: true))
        #expect(!full.font.faces[0].has("fvar"))
        // A range outside the axis, and a value and a range for one axis, are refused.
        #expect(throws: FontError.self) { try stat.instance(InstanceOptions(ranges: ["wght": 1000...1200])) }
        #expect(throws: FontError.self) { try stat.instance(InstanceOptions(coordinates: ["wght": 500], ranges: ["wght": 300...600])) }
        // CFF (version 1) cannot vary: a partial instance of CFF2 is not downgraded.
        let cff2 = try Font(path: try compiled("CFF2Instancer-VF-2", in: folder))
        var downgrade = InstanceOptions(coordinates: ["wght": 500], partial: true)
        downgrade.downgradeCFF2 = true
        #expect(throws: FontError.self) { try cff2.faces[0].instance(downgrade) }
        let amstelvar = try Font(path: Conformance.folder + "/variable/Amstelvar-avar2.subset.ttf")
        do {
            _ = try amstelvar.faces[0].instance(InstanceOptions(coordinates: ["wght": 500], partial: true))
            Issue.record("avar 2 was not refused")
        } catch let e as FontError {
            #expect(e.message.contains("avar version 2"), "\(e)")
        }
    }

    @Test func avar2LocationsAndInstancesMatchFontTools() throws {
        let source = Conformance.folder + "/variable/Amstelvar-avar2.subset.ttf"
        let font = try Font(path: source)
        let face = font.faces[0]
        defer { withExtendedLifetime(font) {} }
        let locations: [[String: Double]] = [
            ["wght": 700], ["wght": 700, "wdth": 75, "opsz": 36], ["GRAD": -100, "XTRA": 400], ["wght": 250, "opsz": 100, "YTUC": 900],
        ]
        let script = """
            import json, sys
            from fontTools.ttLib import TTFont
            from fontTools.varLib.avar.map import map as avarMap
            font = TTFont(sys.argv[1])
            print(json.dumps([avarMap(font, loc, outputNormalized=True, dropZeroes=False) for loc in json.loads(sys.argv[2])]))
            """
        let request = String(decoding: try JSONSerialization.data(withJSONObject: locations), as: UTF8.self)
        let r = try run("python3", ["-c", script, source, request])
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Double]], "\(r.err)")
        for (location, expected) in zip(locations, theirs) {
            let ours = try face.location(location)
            // The axis store moved an axis that was not given (avar 1 alone leaves those at 0).
            #expect(zip(ours.tags, ours.normalized).contains { location[$0.trimmed] == nil && $1 != 0 })
            for (tag, value) in zip(ours.tags, ours.normalized) { #expect(expected[tag.trimmed] == value, "\(location) \(tag): \(value)") }
        }
        let folder = try TemporaryFolder()
        let pinned = ["wght": 700.0, "wdth": 75, "opsz": 36]
        let ours = folder.file("ours.ttf"), theirsFont = folder.file("theirs.ttf"), expected = folder.file("theirs.ttx")
        _ = try face.instance(InstanceOptions(coordinates: pinned, updateNames: false, rewriteLayout: true)).font.save(to: ours)
        // fontTools instances an avar 2 font fully only when every axis is given.
        let all = try face.variationAxes.map { "\($0.tag.trimmed)=\(Face.short(pinned[$0.tag.trimmed] ?? $0.defaultValue))" }
        #expect(try run("fonttools", ["varLib.instancer", source] + all + ["-q", "-o", theirsFont]).status == 0)
        #expect(try run("ttx", ["-q", "-o", expected, theirsFont]).status == 0)
        let c = try run("python3", [Self.compare, ours, expected])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(c.out.utf8)) as? [String: Any])
        let tables = try #require(report["tables"] as? [String: Any])
        #expect(tables.keys.contains("glyf") && tables.keys.contains("GPOS") && tables.keys.contains("hmtx"))
        for (tag, verdict) in tables { #expect(verdict as? String == "same", "\(tag): \(verdict)") }
        #expect((report["only_ours"] as? [String]) == [] && (report["only_expected"] as? [String]) == [], "\(report)")
        #expect((try otsAccepts(ours)).0)
    }

    /// CFF2 outlines at a location (blends evaluated with the variation store's regions, vsindex
    /// and local subroutines honoured) equal the paths fontTools' glyph set draws there, and
    /// HVAR gives the advances.
    @Test(arguments: [1, 2, 3]) func cff2OutlinesMatchFontTools(_ n: Int) throws {
        let folder = try TemporaryFolder()
        let path = try compiled("CFF2Instancer-VF-\(n)", in: folder)
        let font = try Font(path: path)
        let face = font.faces[0]
        let cff2 = try #require(try face.cff2)
        let script = """
            import json, sys
            from fontTools.ttLib import TTFont
            from fontTools.pens.recordingPen import RecordingPen
            f = TTFont(sys.argv[1]); out = {}
            for i, loc in enumerate(json.loads(sys.argv[2])):
                gs = f.getGlyphSet(location=loc)
                for name in f.getGlyphOrder():
                    pen = RecordingPen(); gs[name].draw(pen)
                    out["%d %s" % (i, name)] = [gs[name].width, [[op, [c for pt in pts for c in pt]] for op, pts in pen.value]]
            print(json.dumps(out))
            """
        let locations: [[String: Double]] = [["wght": 100], ["wght": 400], ["wght": 900], ["wght": 650]]
            .map { l in n == 2 ? l.merging(["wdth": 500]) { a, _ in a } : l }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: locations), as: UTF8.self)
        let r = try run("python3", ["-c", script, path, json])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: [Any]], "\(r.err)")
        let names = try face.glyphNames()
        var compared = 0
        for (i, location) in locations.enumerated() {
            let loc = try face.location(location).normalized
            for (id, name) in names.enumerated() {
                let theirs = try #require(expected["\(i) \(name)"])
                // fontTools' glyph set leaves the width unrounded; ours is rounded as instances round it.
                #expect(Double(try face.advance(id, at: loc)) == ((theirs[0] as? Double) ?? -1).otRounded, "\(name) at \(location)")
                var ours: [[Any]] = []
                for command in try cff2.outline(id, at: loc).path {
                    switch command {
                    case .moveTo(let x, let y): ours.append(["moveTo", [x, y]])
                    case .lineTo(let x, let y): ours.append(["lineTo", [x, y]])
                    case .curveTo(let a, let b, let c, let d, let x, let y): ours.append(["curveTo", [a, b, c, d, x, y]])
                    case .closePath: ours.append(["closePath", []])
                    }
                }
                let theirPath = theirs[1] as? [[Any]] ?? []
                #expect(ours.count == theirPath.count, "\(name) at \(location)")
                for (a, b) in zip(ours, theirPath) {
                    #expect(a[0] as? String == b[0] as? String)
                    let x = a[1] as? [Double] ?? [], y = (b[1] as? [NSNumber] ?? []).map(\.doubleValue)
                    // fontTools' glyph set does not round the normalized location to F2Dot14 as
                    // renderers (and FontShell) do, which moves points by thousandths of a unit.
                    #expect(x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) < 0.01 }, "\(name) at \(location): \(x) vs \(y)")
                }
                compared += 1
            }
        }
        #expect(compared >= 8)
    }

    /// CFF2 instances: the CFF2 table (charstrings desubroutinized, blends evaluated, points
    /// rounded where they lie, hints kept; Private DICTs; no store) equals fontTools' expected
    /// result for VF-1 and VF-3 at wght=400. VF-2's expected result is a partial instance (wdth
    /// stays variable), so its full instance at wdth=0 is compared with what fontTools'
    /// instancer makes there. Every other table is the same too, but for the side bearings,
    /// where FontShell deliberately differs: lsb is the new outline's xMin and tsb its VORG
    /// origin less yMax (fontTools keeps the default master's); advances equal fontTools'.
    @Test(arguments: [1, 2, 3]) func cff2InstancesMatchFontTools(_ n: Int) throws {
        let folder = try TemporaryFolder()
        let input = try compiled("CFF2Instancer-VF-\(n)", in: folder)
        let location: [String: Double] = n == 2 ? ["wght": 400, "wdth": 0] : ["wght": 400]
        let out = folder.file("ours.otf")
        let font = try Font(path: input)
        _ = try font.faces[0].instance(InstanceOptions(coordinates: location, updateNames: false)).font.save(to: out)
        var expected = Self.instancer + "/test_results/CFF2Instancer-VF-\(n)-instance-400.ttx"
        if n == 2 {
            let theirs = folder.file("theirs.otf")
            expected = folder.file("theirs.ttx")
            #expect(try run("fonttools", ["varLib.instancer", input, "wght=400", "wdth=0", "-q", "-o", theirs]).status == 0)
            #expect(try run("ttx", ["-q", "-o", expected, theirs]).status == 0)
        }
        let r = try run("python3", [Self.compare, out, expected])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "\(r.err)")
        let tables = try #require(report["tables"] as? [String: Any])
        #expect(tables["CFF2"] as? String == "same", "\(tables["CFF2"] ?? "no CFF2")")
        let bearings: Set<String> = ["hmtx", "hhea", "vmtx", "vhea"]
        for (tag, verdict) in tables where !bearings.contains(tag) { #expect(verdict as? String == "same", "\(tag): \(verdict)") }
        #expect((report["only_ours"] as? [String]) == [] && (report["only_expected"] as? [String]) == [], "\(report)")
        let check = """
            import math, sys
            from fontTools.ttLib import TTFont
            from fontTools.pens.boundsPen import BoundsPen
            ours = TTFont(sys.argv[1]); theirs = TTFont(); theirs.importXML(sys.argv[2])
            glyphs = ours.getGlyphSet(); problems = []
            origin = ours["VORG"] if "VORG" in ours else None
            for name in ours.getGlyphOrder():
                pen = BoundsPen(glyphs); glyphs[name].draw(pen)
                width, lsb = ours["hmtx"][name]
                if width != theirs["hmtx"][name][0]: problems.append("%s width %d vs %d" % (name, width, theirs["hmtx"][name][0]))
                if pen.bounds and lsb != math.floor(pen.bounds[0]): problems.append("%s lsb %d, xMin %s" % (name, lsb, pen.bounds[0]))
                if origin is not None and pen.bounds:
                    height, tsb = ours["vmtx"][name]
                    top = origin.VOriginRecords.get(name, origin.defaultVertOriginY)
                    if height != theirs["vmtx"][name][0] or tsb != top - math.ceil(pen.bounds[3]): problems.append("%s vertical %d %d" % (name, height, tsb))
            print("\\n".join(problems) or "ok")
            """
        let bearingsCheck = try run("python3", ["-c", check, out, expected])
        #expect(bearingsCheck.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(bearingsCheck.out) \(bearingsCheck.err)")
        let ots = try run("ots-sanitize", [out])
        #expect(ots.status == 0, "\(ots.out) \(ots.err)")
    }

    /// A charstring blend short of its operands (VF-1's hyphen with one delta removed) is a
    /// FontError naming the table, the glyph and the file offset, whether the glyph is drawn at
    /// a location or the font instanced; no instance is made.
    /// `downgradeCFF2`: the instance written as CFF 1 draws exactly the CFF2 instance's paths
    /// (fontTools' glyph sets over both), every charstring's width (after defaultWidthX and
    /// nominalWidthX) equals hmtx's advance, post becomes format 3, and ots-sanitize accepts it:
    /// name-keyed for VF-2 (one Font DICT), CID-keyed for VF-1 and VF-3 (two), at the default
    /// and at the heaviest weight. For VF-2 the charstrings equal those of fontTools'
    /// `--downgrade-cff2` (whose conversion fails on VF-1 and VF-3, fonts with FDSelect).
    @Test(arguments: [1, 2, 3]) func cff2InstancesDowngradeToCFF(_ n: Int) throws {
        let folder = try TemporaryFolder()
        let input = try compiled("CFF2Instancer-VF-\(n)", in: folder)
        let font = try Font(path: input)
        let face = font.faces[0]
        let oracle = """
            import json, sys
            from fontTools.ttLib import TTFont
            from fontTools.pens.recordingPen import RecordingPen
            a, b = TTFont(sys.argv[1]), TTFont(sys.argv[2])
            top = b["CFF "].cff.topDictIndex[0]
            ga, gb = a.getGlyphSet(), b.getGlyphSet()
            paths = widths = True
            for na, nb in zip(a.getGlyphOrder(), b.getGlyphOrder()):
                pa, pb = RecordingPen(), RecordingPen()
                ga[na].draw(pa); gb[nb].draw(pb)
                paths &= pa.value == pb.value and (len(pa.value) > 0 or na == ".notdef")
                cs = top.CharStrings[nb]; cs.draw(RecordingPen())
                widths &= cs.width == b["hmtx"][nb][0]
            print(json.dumps({"paths": paths, "widths": widths, "cff2": "CFF2" in b, "post": b["post"].formatType,
                              "cid": hasattr(top, "ROS"), "glyphs": len(b.getGlyphOrder())}))
            """
        for location in [[:], ["wght": 900.0]] {
            let cff2 = folder.file("cff2.otf"), cff = folder.file("cff.otf")
            _ = try face.instance(InstanceOptions(coordinates: location, updateNames: false)).font.save(to: cff2)
            _ = try face.instance(InstanceOptions(coordinates: location, updateNames: false, downgradeCFF2: true)).font.save(to: cff)
            let r = try run("python3", ["-c", oracle, cff2, cff])
            let facts = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "\(r.err)")
            #expect(facts["paths"] as? Bool == true && facts["widths"] as? Bool == true, "VF-\(n) at \(location): \(facts)")
            #expect(facts["cff2"] as? Bool == false && facts["post"] as? Double == 3 && facts["cid"] as? Bool == (n != 2), "\(facts)")
            #expect((facts["glyphs"] as? Int ?? 0) >= 2)
            #expect((try otsAccepts(cff)).0, "VF-\(n) at \(location)")
        }
        if n == 2 {
            let theirs = folder.file("theirs.otf"), ours = folder.file("ours.otf")
            #expect(
                try run("fonttools", ["varLib.instancer", input, "wght=100", "wdth=0", "--downgrade-cff2", "-q", "-o", theirs]).status == 0)
            _ = try face.instance(InstanceOptions(coordinates: ["wght": 100, "wdth": 0], updateNames: false, downgradeCFF2: true)).font
                .save(to: ours)
            func charStrings(_ path: String) throws -> String {
                let dump = try run("ttx", ["-q", "-t", "CFF ", "-o", "-", path]).out
                guard let a = dump.range(of: "<CharStrings>"), let b = dump.range(of: "</CharStrings>") else { return "" }
                return String(dump[a.lowerBound..<b.upperBound])
            }
            let mine = try charStrings(ours), fontTools = try charStrings(theirs)
            #expect(!mine.isEmpty && mine == fontTools)
        }
    }

    /// CFF allows 48 operands where CFF2 allows 513: a charstring that needs more is refused
    /// by the downgrade, naming the glyph, rather than written into a table readers reject;
    /// hint masks are skipped by their stem count, not read as operands.
    @Test func cffOperandLimitIsCheckedWhenDowngrading() throws {
        let fortyNine = [UInt8](repeating: 139, count: 49) + [5]   // 49 zeros, rlineto
        #expect(throws: FontError.self) { _ = try CFF2Table.operandCounts(fortyNine, glyph: 7) }
        do { _ = try CFF2Table.operandCounts(fortyNine, glyph: 7) } catch let e as FontError {
            #expect(e.description.contains("glyph 7") && e.description.contains("48"), "\(e)")
        }
        // Two hstems, two implicit vstems, then a one-byte mask whose value looks like an operator.
        let masked: [UInt8] = [139, 139, 139, 139, 1, 139, 139, 139, 139, 19, 0x05, 139, 139, 21]
        #expect(try CFF2Table.operandCounts(masked, glyph: 1) == [4, 4, 2])
    }

    @Test func cff2BlendWithTheWrongOperandCountIsAClearError() throws {
        let folder = try TemporaryFolder()
        let source = try String(contentsOfFile: Self.instancer + "/CFF2Instancer-VF-1.ttx", encoding: .utf8)
        let broken = source.replacingOccurrences(of: "44 256 6 -29 2 blend", with: "44 256 6 2 blend")
        #expect(broken != source)
        let ttx = folder.file("bad.ttx"), path = folder.file("bad.otf")
        try broken.write(toFile: ttx, atomically: true, encoding: .utf8)
        // -b: fontTools would otherwise fail computing the bounds of the broken glyph.
        let r = try run("ttx", ["-q", "-b", "-o", path, ttx])
        #expect(r.status == 0, "\(r.err)")
        let font = try Font(path: path)
        let face = font.faces[0]
        let table = try #require(try face.cff2)
        let tableOffset = try #require(face.slots["CFF2"]?.source?.lowerBound)
        for attempt in [
            { _ = try table.outline(1, at: [0.5]) }, { _ = try face.instance(InstanceOptions(coordinates: ["wght": 400])) },
            { _ = try face.instance(InstanceOptions(ranges: ["wght": 100...600])) },
        ] {
            do {
                try attempt()
                Issue.record("a blend short of operands was accepted")
            } catch let e as FontError {
                #expect(e.table == "CFF2" && e.message.contains("glyph 1") && e.message.contains("needs 4 operands, has 3"), "\(e)")
                #expect((e.offset ?? 0) > tableOffset, "\(e)")
            }
        }
    }

    /// A partial CFF2 instance runs each glyph once per new region; a curve's operands with
    /// their deltas must fit the charstring stack (the Top DICT's maxstack): a font whose
    /// maxstack leaves no room is refused before any glyph is run.
    @Test func cff2PartialInstancesRespectTheStack() throws {
        let folder = try TemporaryFolder()
        let path = try builtFont("cff2-variable", in: folder), small = folder.file("small-stack.otf")
        let script =
            "import sys\nfrom fontTools.ttLib import TTFont\nf = TTFont(sys.argv[1])\nf['CFF2'].cff.topDictIndex[0].maxstack = 12\nf.save(sys.argv[2])"
        #expect(try run("python3", ["-c", script, path, small]).status == 0)
        let options = InstanceOptions(coordinates: [:], partial: true, ranges: ["wght": 500...900, "wdth": 60...100])
        let font = try Font(path: path), smallFont = try Font(path: small)
        #expect(try font.faces[0].instance(options).font.faces[0].has("CFF2"))
        do {
            _ = try smallFont.faces[0].instance(options)
            Issue.record("a stack too small for the blends was accepted")
        } catch let e as FontError {
            #expect(e.table == "CFF2" && e.message.contains("charstring stack of 12"), "\(e)")
        }
    }

    /// Private DICT blends: evaluated with the dict's regions, delta arrays made absolute
    /// before rounding, stem widths left unrounded (written as reals), vsindex and Subrs
    /// dropped; a blend short of operands is an error.
    @Test func cff2PrivateDictBlends() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: try compiled("CFF2Instancer-VF-1", in: folder))
        let cff2 = try #require(try font.faces[0].cff2)
        let half = [[0.5]]
        let ints: ([Int]) -> [CFFOperand] = { $0.map { .int($0) } }
        // BlueValues -250 -250 1100 (stored relative: -250 0 1350) with relative deltas 41 -41 21.
        let dict = CFFDict(entries: [
            (22, ints([0])), (23, ints([-250, 0, 1350, 41, -41, 21, 3])), (6, []),
            (23, ints([35, 3, 1])), (10, []), (19, ints([99])), (1209, [CFFOperand(number: 0.039625)]),
        ])
        let out = try cff2.instancedPrivate(dict, scalars: half)
        #expect(out.entries.map(\.op) == [6, 10, 1209])
        // Relative blended: -229.5, -20.5, 1360.5 → absolute -229.5, -250, 1110.5 → rounded -229, -250, 1111.
        #expect(out.operands(6) == ints([-229, -21, 1361]))
        #expect(try out.operands(10)?.first?.number() == 36.5)
        #expect(try out.operands(1209)?.first?.number() == 0.039625)
        for v in [36.5, 0.039625, -1.25e-5, 123456.79, 2.5e20] {
            #expect(try CFFOperand(number: v).number() == v)
        }
        // Eight significant digits, as fontTools writes reals.
        #expect(try CFFOperand(number: 33.2987060546875).number() == 33.298706)
        let short = CFFDict(entries: [(23, ints([1, 2, 5])), (6, [])])
        #expect(throws: FontError.self) { try cff2.instancedPrivate(short, scalars: half) }
    }

    @Test func locationsNormalizeClampAndRefuseUnknownAxes() throws {
        let face = try Font(path: Self.inter).faces[0]
        #expect(try face.variationAxes.map(\.tag.trimmed) == ["wght"])
        #expect(try face.location(["wght": 900]).normalized == [1])
        #expect(try face.location(["wght": 100]).normalized == [-1])
        #expect(try face.location(["wght": 650]).normalized == [0.5])
        #expect(try face.defaultLocation().isDefault)
        let clamped = try face.location(["wght": 1000])
        #expect(clamped.user == [900] && clamped.warnings.first?.contains("outside 100…900") == true)
        #expect(throws: FontError.self) { try face.location(["wght": 1000], clamp: false) }
        do {
            _ = try face.location(["wgth": 700])
            Issue.record("an unknown axis was accepted")
        } catch let e as FontError {
            #expect(e.message.contains("no axis 'wgth'") && e.message.contains("did you mean 'wght'"), "\(e)")
        }
        let staticFace = try Font(path: Corpus.dejavu).faces[0]
        #expect(throws: FontError.self) { try staticFace.location(["wght": 700]) }
    }

    /// At the default location a glyph is its stored outline; at wght=900 'H' is wider.
    @Test func glyphsAtALocation() throws {
        let face = try Font(path: Self.inter).faces[0]
        let id = try #require(try face.glyphID(for: "H"))
        let variator = try GlyphVariator(face: face)
        let atDefault = try variator.glyph(id, at: [0])
        #expect(atDefault.glyph.contours == (try face.glyf!.glyph(id).contours))
        #expect(atDefault.advance == (try face.hmtx.advance(id)))
        let black = try variator.glyph(id, at: [1])
        #expect(black.advance > atDefault.advance)
        #expect(black.glyph.contours != atDefault.glyph.contours)
    }

    /// Inter at wght=700: every table fontTools' instancer also writes equals its output,
    /// except GPOS, whose lookups our encoder lays out differently (same values: the shaping
    /// test in the command-line tests compares hb-shape on both).
    @Test func interBoldMatchesFontToolsInstancer() throws {
        let folder = try TemporaryFolder()
        let ours = folder.file("ours.ttf"), theirs = folder.file("theirs.ttf"), expected = folder.file("theirs.ttx")
        let font = try Font(path: Self.inter)
        let result = try font.faces[0].instance(InstanceOptions(coordinates: ["wght": 700], updateNames: false))
        _ = try result.font.save(to: ours)
        let ft = try run("fonttools", ["varLib.instancer", Self.inter, "wght=700", "-q", "-o", theirs])
        #expect(ft.status == 0, "\(ft.err)")
        #expect(try run("ttx", ["-q", "-x", "GPOS", "-o", expected, theirs]).status == 0)
        let r = try run("python3", [Self.compare, ours, expected])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let tables = try #require(report["tables"] as? [String: Any])
        #expect(tables.keys.contains("glyf") && tables.keys.contains("GDEF"))
        for (tag, verdict) in tables { #expect(verdict as? String == "same", "\(tag): \(verdict)") }
        #expect((report["only_expected"] as? [String]) == [], "\(report)")
        #expect((try otsAccepts(ours)).0)
    }

    // MARK: malformed variation data

    /// Inter's bytes with `edit` applied at a table's offset.
    func interPatched(_ tag: String, _ edit: (inout [UInt8], Int) -> Void) throws -> Font {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.inter)))
        let numTables = Int(bytes[4]) << 8 | Int(bytes[5])
        for i in 0..<numTables {
            let r = 12 + 16 * i
            if String(decoding: bytes[r..<r + 4], as: UTF8.self) == tag {
                let offset = bytes[r + 8..<r + 12].reduce(0) { $0 << 8 | Int($1) }
                edit(&bytes, offset)
            }
        }
        return try Font(data: bytes, name: "patched-Inter.ttf")
    }

    func expectFontError(_ font: Font, containing parts: [String], _ body: (Face) throws -> Void) {
        do {
            try body(font.faces[0])
            Issue.record("malformed data was accepted")
        } catch let e as FontError {
            for p in parts { #expect(e.description.contains(p), "\(e)") }
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// The GPOS patch's record of visited offsets: each offset new once; one outside the table
    /// is never recorded, so the patch goes on to read there and reports it.
    @Test func offsetSetSaysNewOnceAndLeavesBadOffsetsToTheReader() {
        var seen = OffsetSet(size: 100)
        #expect(seen.insert(0) && !seen.insert(0))
        #expect(seen.insert(63) && seen.insert(64) && !seen.insert(63) && !seen.insert(64))
        #expect(seen.insert(99) && !seen.insert(99))
        #expect(seen.insert(100) && seen.insert(100))
        #expect(seen.insert(-1) && seen.insert(-1))
        var empty = OffsetSet(size: 0)
        #expect(empty.insert(0) && empty.insert(0))
    }

    @Test func malformedVariationDataIsAClearError() throws {
        // gvar: the tuple count of glyph 1's data (or the next glyph's, when glyph 1 has none)
        // far past the data.
        let gvar = try interPatched("gvar") { b, o in
            let glyphs = Int(b[o + 12]) << 8 | Int(b[o + 13])
            let long = b[o + 15] & 1 != 0
            let dataStart = o + (b[o + 16..<o + 20].reduce(0) { $0 << 8 | Int($1) })
            let entry = o + 20 + (long ? 4 : 2)
            let glyphOffset = long ? b[entry..<entry + 4].reduce(0) { $0 << 8 | Int($1) } : (Int(b[entry]) << 8 | Int(b[entry + 1])) * 2
            _ = glyphs
            b[dataStart + glyphOffset] = 0x0F; b[dataStart + glyphOffset + 1] = 0xFF
        }
        expectFontError(gvar, containing: ["table 'gvar'", "glyph ", "offset"]) {
            _ = try $0.instance(InstanceOptions(coordinates: ["wght": 700]))
        }
        // The same through a partial instance (a narrowed axis re-encodes every glyph's tuples).
        expectFontError(gvar, containing: ["gvar", "glyph "]) { _ = try $0.instance(InstanceOptions(ranges: ["wght": 300...700])) }
        // fvar: an axis whose minimum is above its default.
        let fvar = try interPatched("fvar") { b, o in b[o + 16 + 4] = 0x7F }
        expectFontError(fvar, containing: ["fvar", "not in order"]) { _ = try $0.location(["wght": 700]) }
        // HVAR: a region whose start is past its peak.
        let hvar = try interPatched("HVAR") { b, o in
            let store = o + (b[o + 4..<o + 8].reduce(0) { $0 << 8 | Int($1) })
            let regions = store + (b[store + 2..<store + 6].reduce(0) { $0 << 8 | Int($1) })
            b[regions + 4] = 0x40; b[regions + 5] = 0x00   // start = 1.0
            b[regions + 6] = 0x20; b[regions + 7] = 0x00   // peak = 0.5
        }
        expectFontError(hvar, containing: ["HVAR", "region 0", "not in order"]) { _ = try $0.table(HvarTable.self) }
        expectFontError(hvar, containing: ["HVAR", "region 0", "not in order"]) {
            _ = try $0.instance(InstanceOptions(ranges: ["wght": 300...700]))
        }
        // gvar and fvar disagree on the number of axes.
        let axes = try interPatched("gvar") { b, o in b[o + 5] = 3 }
        expectFontError(axes, containing: ["gvar has 3 axes but fvar has 1"]) { _ = try $0.gvar }
        // gvar's glyph offsets: glyph 1's set to the largest there is (so glyph 2's runs
        // backwards), and the end of the last glyph's data set past the table.
        func patchOffset(_ index: (Int) -> Int) throws -> Font {
            try interPatched("gvar") { b, o in
                let glyphs = Int(b[o + 12]) << 8 | Int(b[o + 13])
                let size = b[o + 15] & 1 != 0 ? 4 : 2
                let entry = o + 20 + size * index(glyphs)
                for k in 0..<size { b[entry + k] = 0xFF }
            }
        }
        expectFontError(try patchOffset { _ in 1 }, containing: ["table 'gvar'", "run backwards at glyph 1"]) { _ = try $0.gvar }
        expectFontError(try patchOffset { $0 }, containing: ["table 'gvar'", "past the table's"]) { _ = try $0.gvar }
        // avar 2: the axis store's offset points past the table.
        var amstelvar = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Conformance.folder + "/variable/Amstelvar-avar2.subset.ttf")))
        let numTables = Int(amstelvar[4]) << 8 | Int(amstelvar[5])
        for i in 0..<numTables where String(decoding: amstelvar[12 + 16 * i..<16 + 16 * i], as: UTF8.self) == "avar" {
            let o = amstelvar[20 + 16 * i..<24 + 16 * i].reduce(0) { $0 << 8 | Int($1) }
            var end = o + 8   // past the header, at the first segment map
            for _ in 0..<12 { end += 2 + 4 * (Int(amstelvar[end]) << 8 | Int(amstelvar[end + 1])) }
            amstelvar[end + 4] = 0x7F   // varStoreOffset → far past the end
        }
        let avar2 = try Font(data: amstelvar, name: "patched-Amstelvar.ttf")
        expectFontError(avar2, containing: ["avar", "past the end"]) { _ = try $0.location(["wght": 700]) }
    }
}
