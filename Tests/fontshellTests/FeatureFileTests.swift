import Foundation
import Testing

/// `fontshell fea`: fontTools' feaLib test suite as the oracle (Tests/Oracles/fealib_conformance.py),
/// and hostile feature files.
@Suite struct FeatureFileTests {
    /// Cases of feaLib's suite we do not pass yet, each with its reason (docs/features.md): none.
    static let notYet: [String: String] = [:]

    @Test func feaLibConformance() throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/fealib_conformance.py").path
        let r = try run("/usr/bin/env", ["python3", script, fontshellBinary, Conformance.folder + "/feaLib"])
        try #require(r.status == 0, "\(r.err)")
        var failing: [String: String] = [:]
        var passing: Set<String> = []
        var cases = 0
        for line in r.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let name = object["case"] as? String else { continue }
            cases += 1
            if object["ok"] as? Bool == true { passing.insert(name) } else { failing[name] = object["why"] as? String ?? "" }
        }
        #expect(cases >= 140, "the suite has \(cases) cases")
        // builder_test.py's own refusals (assertRaisesRegex … self.build): each refused with a position.
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(r.out.split(separator: "\n").last.map(String.init)!.utf8)) as? [String: Any])
        let refusals = summary["refusals"] as? Int ?? 0
        #expect(
            refusals >= 40 && summary["refused"] as? Int == refusals, "\(r.out.split(separator: "\n").filter { $0.contains("refusal") })")
        for (name, why) in failing.sorted(by: { $0.key < $1.key }) {
            #expect(Self.notYet[name] != nil, "\(name) fails: \(why)")
        }
        let nowPassing = Set(Self.notYet.keys).intersection(passing)
        #expect(nowPassing.isEmpty, "these pass now; take them off the list: \(nowPassing.sorted())")
    }

    /// A font, a feature file beside it, and fontshell fea run on them.
    func compile(_ features: String, files: [String: String] = [:], extra: [String] = []) throws -> (ProcessResult, String, TemporaryFolder)
    {
        let tmp = try TemporaryFolder()
        let fea = try tmp.write("features.fea", features)
        for (name, text) in files { _ = try tmp.write(name, text) }
        let out = tmp.file("out.ttf")
        return (try runFontshell(["fea", Corpus.dejavu, fea, "-o", out] + extra), out, tmp)
    }

    @Test func compiledLigatureShapesInHarfBuzz() throws {
        let (r, out, folder) = try compile("languagesystem DFLT dflt;\nlanguagesystem latn dflt;\nfeature liga { sub A B by C; } liga;\n")
        defer { withExtendedLifetime(folder) {} }
        try #require(r.status == 0, "\(r.err)")
        let shaped = try run("/usr/bin/hb-shape", [out, "ABA", "--no-positions", "--no-clusters"])
        #expect(shaped.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[C|A]", "\(shaped.out)")
        let before = try run("/usr/bin/hb-shape", [Corpus.dejavu, "ABA", "--no-positions", "--no-clusters", "--features=-liga"])
        #expect(before.out.contains("A|B|A"))
        #expect(try otsAccepts(out).0)
    }

    /// `fea --add` keeps the face's layout and adds the file's: DejaVu Sans keeps its fi ligature
    /// and gets A B → C; Inter keeps its variable kerning (written as variable scalars and
    /// compiled back). A face whose layout cannot be written whole is refused: MutatorSans with a
    /// second FeatureVariations record of equal conditions, which variation blocks cannot make.
    @Test func addingKeepsTheFacesOwnLayout() throws {
        let (r, out, folder) = try compile(
            "languagesystem DFLT dflt;\nlanguagesystem latn dflt;\nfeature liga { sub A B by C; } liga;\n", extra: ["--add"])
        defer { withExtendedLifetime(folder) {} }
        try #require(r.status == 0, "\(r.err)")
        let shaped = try run("/usr/bin/hb-shape", [out, "ABfi", "--no-positions", "--no-clusters"])
        #expect(shaped.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[C|fi]", "\(shaped.out)")

        let tmp = try TemporaryFolder()
        let fea = try tmp.write(
            "add.fea", "languagesystem DFLT dflt;\nlanguagesystem latn dflt;\nfeature ss07 { sub uni0061 by uni0062; } ss07;\n")
        let inter = Corpus.path("inter-vf"), added = tmp.file("inter.ttf")
        let r2 = try runFontshell(["fea", inter, fea, "--add", "-o", added])
        try #require(r2.status == 0, "\(r2.err)")
        for weight in ["100", "400", "900"] {
            let before = try run("/usr/bin/hb-shape", [inter, "AVAT", "--variations=wght=\(weight)"])
            let after = try run("/usr/bin/hb-shape", [added, "AVAT", "--variations=wght=\(weight)"])
            #expect(before.out == after.out && before.out.contains("uni0041"), "wght=\(weight): \(before.out) against \(after.out)")
        }
        let set = try run("/usr/bin/hb-shape", [added, "a", "--features=+ss07", "--no-positions", "--no-clusters"])
        #expect(set.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[uni0062]", "\(set.out)")

        let mutator = tmp.file("mutator.ttf"), equal = tmp.file("equal.ttf")
        let made = try run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import copy, sys
                from fontTools.ttLib import TTFont
                f = TTFont(); f.importXML(sys.argv[1]); f.save(sys.argv[2])
                fv = f["GSUB"].table.FeatureVariations
                fv.FeatureVariationRecord.append(copy.deepcopy(fv.FeatureVariationRecord[0]))
                fv.FeatureVariationCount += 1
                f.save(sys.argv[3])
                """, Conformance.folder + "/variable/MutatorSans_All_Variable.ttx", mutator, equal,
            ])
        try #require(made.status == 0, "\(made.err)")
        let plain = try tmp.write("plain.fea", "feature ss07 { sub A by B; } ss07;\n")
        #expect(try runFontshell(["fea", mutator, plain, "--add", "-o", tmp.file("m.ttf")]).status == 0)
        let refused = try runFontshell(["fea", equal, plain, "--add", "-o", tmp.file("e.ttf")])
        #expect(
            refused.status == 1 && refused.err.contains("would lose part of it") && refused.err.contains("FeatureVariations"),
            "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: tmp.file("e.ttf")))
    }

    /// `diff --fea` shows a layout change as the lines of feature text that changed.
    @Test func diffShowsLayoutChangesAsFeatureText() throws {
        let (one, a, keepA) = try compile("feature liga { sub A B by C; } liga;\n")
        let (two, b, keepB) = try compile("feature liga { sub A B by C; sub A C by D; } liga;\n")
        defer { withExtendedLifetime((keepA, keepB)) {} }
        try #require(one.status == 0 && two.status == 0, "\(one.err) \(two.err)")
        let d = try runFontshell(["diff", a, b, "--fea"])
        let changed = d.out.split(separator: "\n").filter {
            ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
        }
        #expect(d.status == 1 && changed == ["+    sub A C by D;"], "\(d.out)")
        let same = try runFontshell(["diff", a, a, "--fea"])
        #expect(same.status == 0 && same.out.isEmpty, "\(same.out)")
    }

    @Test func errorsNameFileLineAndColumn() throws {
        let cases: [(String, String)] = [
            ("feature liga { sub f i by fi_typo; } liga;\n", "features.fea:1:27: glyph 'fi_typo' is not in the font"),
            ("feature liga {\n  sub f i by\n", "features.fea:3:1"),
            ("feature kern { lookupflag IgnoreMark; } kern;\n", "(did you mean 'IgnoreMarks'?)"),
            ("feature liga { sub [A - Z] by NULL NULL; } liga;\n", "empty class in the replacement"),
            ("feature name { sub \"\u{1}\" by A; } name;\n", "features.fea:1:20"),
        ]
        for (text, expected) in cases {
            let (r, out, _) = try compile(text)
            #expect(r.status == 1 && r.err.contains(expected), "\(text): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out), "nothing written for \(text)")
        }
    }

    /// Variable feature files on a real variable font (Inter): a kerning value given at three
    /// weights (through a valueRecordDef) moves with wght in HarfBuzz, interpolated between them, and a `variation` block
    /// substitutes only where its condition set holds.
    @Test func variableScalarsAndConditionSetsWorkInHarfBuzz() throws {
        let tmp = try TemporaryFolder()
        let fea = try tmp.write(
            "variable.fea",
            """
            languagesystem DFLT dflt;
            languagesystem latn dflt;
            conditionset bold { wght 700 900; } bold;
            variation rvrn bold { sub uni0061 by uni0062; } rvrn;
            valueRecordDef <0 0 (wght=100:-20 wght=900:-180 -60) 0> KERN;
            feature kern { pos uni0041 uni0056 <KERN>; } kern;

            """)
        let inter = Corpus.path("inter-vf"), out = tmp.file("out.ttf")
        let r = try runFontshell(["fea", inter, fea, "-o", out])
        try #require(r.status == 0, "\(r.err)")
        #expect(try otsAccepts(out).0)
        /// The glyphs and the first glyph's advance, shaped at a weight.
        func shaped(_ font: String, _ weight: Int, kern: Bool = true) throws -> (glyphs: [String], advance: Int) {
            let s = try run(
                "/usr/bin/hb-shape", [font, "AVa", "--variations=wght=\(weight)", "--no-clusters"] + (kern ? [] : ["--features=-kern"]))
            let items = s.out.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|")
            let glyphs = items.map { String($0.split(separator: "+")[0]) }
            return (glyphs, Int(items[0].split(separator: "+")[1]) ?? 0)
        }
        for (weight, kerning) in [(100, -20), (400, -60), (650, -120), (900, -180)] {
            let ours = try shaped(out, weight), plain = try shaped(inter, weight, kern: false)
            #expect(ours.advance - plain.advance == kerning, "wght=\(weight): \(ours.advance) against \(plain.advance)")
            #expect(ours.glyphs == ["uni0041", "uni0056", weight >= 700 ? "uni0062" : "uni0061"], "wght=\(weight): \(ours.glyphs)")
        }
    }

    /// Random variable feature files (pair, single, cursive and caret values at one to five
    /// masters, with and without avar; condition sets for liga and rvrn) compile to the GDEF,
    /// GSUB and GPOS feaLib makes: regions, VarData layout, indexes and FeatureVariations.
    @Test func variableFeatureFilesMatchFeaLib() throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/fea_variable_random.py").path
        let r = try run("/usr/bin/env", ["python3", script, fontshellBinary, "0", "60"])
        try #require(r.status == 0, "\(r.err)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(r.out.split(separator: "\n").last.map(String.init)!.utf8)) as? [String: Int])
        #expect(summary["different"] == 0, "\(r.out)")
        #expect((summary["compared"] ?? 0) >= 40, "\(r.out)")
    }

    /// `table STAT` on a real font (Inter, whose name table runs to ID 290): the new names take
    /// IDs after it, in feaLib's order, and each AxisValue gets the format its locations call for.
    @Test func statBlockNamesComeAfterTheFontsOwn() throws {
        let tmp = try TemporaryFolder()
        let fea = try tmp.write(
            "stat.fea",
            """
            table STAT {
              ElidedFallbackName { name "Regular"; };
              DesignAxis wght 0 { name "Weight"; };
              DesignAxis slnt 1 { name "Slant"; };
              AxisValue { location wght 400; name "Regular"; flag ElidableAxisValueName; };
              AxisValue { location wght 700 400; name "Bold"; };
              AxisValue { location wght 100 100 250; name "Thin"; };
              AxisValue { location wght 900; location slnt -10; name "Black Italic"; };
            } STAT;

            """)
        let inter = Corpus.path("inter-vf"), out = tmp.file("out.ttf")
        let r = try runFontshell(["fea", inter, fea, "-o", out])
        try #require(r.status == 0, "\(r.err)")
        #expect(try otsAccepts(out).0)
        let read = try run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import sys
                from fontTools.ttLib import TTFont
                old = max(n.nameID for n in TTFont(sys.argv[1])["name"].names)
                f = TTFont(sys.argv[2]); stat = f["STAT"].table; name = f["name"]
                print(old, stat.ElidedFallbackNameID, name.getDebugName(stat.ElidedFallbackNameID))
                print(" ".join("%s=%s" % (a.AxisTag, name.getDebugName(a.AxisNameID)) for a in stat.DesignAxisRecord.Axis))
                print(" ".join("%d:%s" % (v.Format, name.getDebugName(v.ValueNameID)) for v in stat.AxisValueArray.AxisValue))
                """, inter, out,
            ])
        let lines = read.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(read.out) \(read.err)")
        let first = lines[0].split(separator: " ")
        #expect(Int(first[1]) == Int(first[0])! + 1 && first[2] == "Regular", "\(lines[0])")
        #expect(lines[1] == "wght=Weight slnt=Slant")
        #expect(lines[2] == "4:Black Italic 1:Regular 3:Bold 2:Thin")
    }

    /// `table vmtx`: VertAdvanceY sets vmtx's advance; VertOriginY sets the top side bearing to
    /// the origin less the glyph's top, and in a CFF face VORG's entry too. A face without
    /// vertical metrics is refused.
    @Test func vmtxBlockSetsVerticalMetrics() throws {
        let tmp = try TemporaryFolder()
        let text = "table vmtx {\n  VertOriginY %@ 800;\n  VertAdvanceY %@ 900;\n} vmtx;\n"
        let read = """
            import sys
            from fontTools.ttLib import TTFont
            f = TTFont(sys.argv[1], fontNumber=0); g = sys.argv[2]
            top = f["glyf"][g].yMax if "glyf" in f else None
            print(f["vmtx"][g][0], f["vmtx"][g][1], top, f["VORG"].VOriginRecords.get(g) if "VORG" in f else None)
            """
        for (font, glyph, cff) in [(Corpus.path("wqy-zenhei"), "uni3001", false), (Corpus.path("noto-cjk"), "cid01397", true)] {
            let fea = try tmp.write("v.fea", text.replacingOccurrences(of: "%@", with: cff ? "\\1397" : glyph))
            let out = tmp.file("out.ttc")
            let r = try runFontshell(["fea", font, fea, "-o", out, "--overwrite"])
            try #require(r.status == 0, "\(r.err)")
            let values = try run("/usr/bin/env", ["python3", "-c", read, out, glyph]).out.split(separator: " ").map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            try #require(values.count == 4, "\(values)")
            #expect(values[0] == "900")
            if cff {
                #expect(values[3] == "800", "VORG: \(values)")
            } else {
                #expect(Int(values[1])! + Int(values[2])! == 800, "tsb + yMax: \(values)")
            }
        }
        // An advance that makes the last glyph's differ from the one before: vhea then counts
        // every glyph as a full record (it counted 44,579 of 44,960, and vmtx was misread).
        let last = try tmp.write("last.fea", "table vmtx { VertAdvanceY uniFFE5.mono 777; } vmtx;\n")
        let out = tmp.file("last.ttc")
        try #require(try runFontshell(["fea", Corpus.path("wqy-zenhei"), last, "-o", out]).status == 0)
        let check = """
            import sys
            from fontTools.ttLib import TTFont
            f = TTFont(sys.argv[1], fontNumber=0)
            print(f["vhea"].numberOfVMetrics, len(f.getGlyphOrder()), f["vmtx"]["uniFFE5.mono"][0])
            """
        #expect(try run("/usr/bin/env", ["python3", "-c", check, out]).out == "44960 44960 777\n")
        #expect(try otsAccepts(out).0)
        let (noVertical, _, _) = try compile("table vmtx { VertAdvanceY A 900; } vmtx;\n")
        #expect(
            noVertical.status == 1 && noVertical.err.contains("features.fea:1:14: table vmtx needs the face's vhea and vmtx"),
            "\(noVertical.err)")
    }

    /// Cases feaLib's suite does not have (Tests/Oracles/fea_cases: carets by position and by
    /// point together, named value records with device tables and variable scalars), compiled
    /// by us and by feaLib into DejaVu Sans (the variable ones into Inter): equal GDEF, GSUB, GPOS.
    @Test func smallCasesMatchFeaLib() throws {
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/fea_compare.py").path
        let folder = repositoryRoot.appendingPathComponent("Tests/Oracles/fea_cases").path
        for (font, sub) in [(Corpus.dejavu, ""), (Corpus.path("inter-vf"), "/variable")] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder + sub).filter { $0.hasSuffix(".fea") }.sorted()
            try #require(!files.isEmpty)
            let r = try run("/usr/bin/env", ["python3", script, fontshellBinary, font] + files.map { folder + sub + "/" + $0 })
            try #require(r.status == 0, "\(r.err)")
            let lines = r.out.split(separator: "\n")
            #expect(lines.count == files.count && lines.allSatisfy { $0.contains("\"ok\": true") }, "\(r.out)")
        }
    }

    /// In the REPL (on a terminal), Tab inside `face:addFeatures[[ … ]]` completes feature-file
    /// words, the first one right after the brackets too: `condit` → `conditionset`, `variat` →
    /// `variation`; the statement then compiles (a word left as typed would be an error).
    @Test func replCompletesFeatureWordsOnATerminal() throws {
        let typed = "face:addFeatures[[condit\tbold { wght 700 900; } bold; variat\trvrn bold { sub uni0061 by uni0062; } rvrn;]]\n"
        let r = try run(
            "/usr/bin/script", ["-qec", "'\(fontshellBinary)' '\(Corpus.path("inter-vf"))'", "/dev/null"], input: typed,
            // Pictures as blocks: a terminal probe would read the typed-ahead text as its answer.
            environment: ["TERM": "xterm", "FONTSHELL_IMAGES": "blocks"])
        #expect(r.out.contains("{GSUB = 1, removed = {\"GPOS\", \"GDEF\"}, written = {\"GSUB\"}}"), "\(r.out)")
    }

    @Test func variableErrorsSayWhatIsWrong() throws {
        let (static_, _, _) = try compile("feature kern { pos A V (wght=900:-80 -50); } kern;\n")
        #expect(static_.status == 1 && static_.err.contains("features.fea:1:24: a variable scalar needs a variable font"), "\(static_.err)")
        let cases: [(String, String)] = [
            (
                "feature kern { pos uni0041 uni0056 (wgth=900:-80 -50); } kern;\n",
                "1:37: no axis 'wgth' in this font (axes: wght, slnt); did you mean 'wght'?"
            ),
            (
                "feature kern { pos uni0041 uni0056 (wght=900:-80); } kern;\n",
                "1:36: a variable scalar needs a value at the default location (wght=400,slnt=0)"
            ),
            ("variation rvrn heavy { sub uni0061 by uni0062; } rvrn;\n", "1:1: unknown condition set 'heavy'"),
            ("conditionset c { wght 900 100; } c;\n", "1:18: condition on 'wght': the minimum 900.0 is above the maximum 100.0"),
            (
                "feature kern { pos uni0041 uni0056 (wght=900:-80 40000); } kern;\n",
                "1:36: a variable scalar's default 40000 does not fit 16 bits"
            ),
            (
                "feature kern { pos uni0041 uni0056 (wght=900:9999999999 -5); } kern;\n",
                "1:36: a variable scalar's value 9999999999 does not fit 32 bits"
            ),
        ]
        let tmp = try TemporaryFolder()
        for (text, expected) in cases {
            let fea = try tmp.write("v.fea", text)
            let r = try runFontshell(["fea", Corpus.path("inter-vf"), fea, "-o", tmp.file("o.ttf")])
            #expect(r.status == 1 && r.err.contains(expected), "\(text): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: tmp.file("o.ttf")))
        }
    }

    @Test func includesStayInTheirFolderAndCyclesEnd() throws {
        // A file that includes itself stops at the nesting limit, with a position.
        let (cycle, _, _) = try compile("include(features.fea);\n")
        #expect(
            cycle.status == 1 && cycle.err.contains("too many nested includes") && cycle.err.contains("features.fea:1:1"), "\(cycle.err)")
        // An include that leaves the allowed folder is refused, before anything is read.
        let (outside, _, _) = try compile("include(../../../etc/passwd);\n")
        #expect(outside.status == 1 && outside.err.contains("outside the folder"), "\(outside.err)")
        // One inside is read, and its errors name it.
        let (inside, _, _) = try compile("include(part.fea);\n", files: ["part.fea": "feature liga {\n sub A by nosuchglyph;\n} liga;\n"])
        #expect(inside.status == 1 && inside.err.contains("part.fea:2:11"), "\(inside.err)")
    }

    @Test func hostileSizesAreBoundedOrFast() throws {
        // A ligature rule whose classes multiply past a million sequences is refused.
        let big = "[" + (0..<120).map { _ in "A B C D E F G H" }.joined(separator: " ") + "]"
        let (product, _, _) = try compile("feature liga { sub \(big) \(big) \(big) by C; } liga;\n")
        #expect(product.status == 1 && product.err.contains("more than a million"), "\(product.err)")
        // A 10 MB line of glyph names compiles (a class of 2.5 million entries, repeats kept).
        let line = "@all = [" + String(repeating: "A B ", count: 1_250_000) + "];\nfeature liga { sub @all by C; } liga;\n"
        let started = Date()
        let (long, _, _) = try compile(line)
        #expect(long.status == 0, "\(long.err)")
        #expect(Date().timeIntervalSince(started) < 60)
        // Invalid UTF-8 in a string is an error with its position.
        let tmp = try TemporaryFolder()
        let fea = tmp.file("bad.fea")
        FileManager.default.createFile(
            atPath: fea, contents: Data("feature ss01 { featureNames { name \"".utf8) + Data([0xFF, 0xFE]) + Data("\"; }; } ss01;\n".utf8))
        let r = try runFontshell(["fea", Corpus.dejavu, fea, "-o", tmp.file("o.ttf")])
        #expect(r.status == 1 && r.err.contains("bad.fea:1:36") && r.err.contains("UTF-8"), "\(r.err)")
    }
}

/// A face's layout written as a feature file (`dump --fea`) and compiled back, with us and with
/// feaLib, shapes every test string as the original does (Tests/Oracles/fea_roundtrip.py, HarfBuzz
/// as the judge): every corpus font and every AOTS font.
@Suite struct FeatureRoundTripTests {
    /// AOTS fonts whose lookups substitute glyph ids past the font's last glyph (HarfBuzz shows
    /// .notdef): a feature file cannot name such a glyph, so those rules are left out.
    static let accepted: Set<String> = ["classdef1_font3.otf", "classdef2_font3.otf"]

    @Test func layoutRoundTripsThroughAFeatureFile() throws {
        let aots = try FileManager.default.contentsOfDirectory(atPath: Conformance.folder + "/aots").filter { $0.hasSuffix(".otf") }
            .sorted()
        try #require(aots.count > 200, "AOTS fonts missing from \(Conformance.folder)")
        // Variable fonts of fontTools' tests besides Inter: MutatorSans (FeatureVariations), a
        // subset of Amstelvar (avar 2) and one of Noto Sans.
        let tmp = try TemporaryFolder()
        let mutator = tmp.file("MutatorSans_All_Variable.ttf")
        let made = try run(
            "/usr/bin/env",
            ["python3", "-m", "fontTools.ttx", "-q", "-o", mutator, Conformance.folder + "/variable/MutatorSans_All_Variable.ttx"])
        try #require(made.status == 0, "\(made.err)")
        let variable =
            [mutator] + ["Amstelvar-avar2.subset.ttf", "NotoSans-VF-cubic.subset.ttf"].map { Conformance.folder + "/variable/" + $0 }
        let fonts = Corpus.fonts.map(\.path) + variable + aots.map { Conformance.folder + "/aots/" + $0 }
        let script = repositoryRoot.appendingPathComponent("Tests/Oracles/fea_roundtrip.py").path
        let r = try run("/usr/bin/env", ["python3", script, fontshellBinary] + fonts)
        try #require(r.status == 0, "\(r.err)")
        var runs = 0, results = 0
        for line in r.out.split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let font = (o["font"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            results += 1
            runs += o["runs"] as? Int ?? 0
            #expect(o["error"] == nil && o["feaLib_error"] == nil, "\(font): \(o["error"] ?? o["feaLib_error"] ?? "")")
            if Self.accepted.contains(font) { continue }
            #expect(
                o["fontshell"] as? Int == 0,
                "\(font): \(o["fontshell"] ?? "-") strings shape differently, e.g. \(o["example_fontshell"] ?? "")")
            #expect(
                o["feaLib"] as? Int == 0,
                "\(font): feaLib's compile shapes \(o["feaLib"] ?? "-") strings differently, e.g. \(o["example_feaLib"] ?? "")")
        }
        #expect(results == fonts.count)
        #expect(runs > 40_000, "only \(runs) shaping runs")
    }
}
