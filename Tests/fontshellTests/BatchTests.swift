import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `fontshell run --each` and `fontshell check`: whole runs over folders of fonts.
@Suite struct BatchTests {
    /// A folder of fonts in subfolders (links to the corpus), one broken font, one non-font.
    func library() throws -> TemporaryFolder {
        let tmp = try TemporaryFolder()
        let fm = FileManager.default
        for sub in ["lib/sans", "lib/serif", "lib/.hidden"] {
            try fm.createDirectory(atPath: tmp.file(sub), withIntermediateDirectories: true)
        }
        let dejavu = "/usr/share/fonts/truetype/dejavu/"
        try fm.createSymbolicLink(atPath: tmp.file("lib/sans/DejaVuSans.ttf"), withDestinationPath: dejavu + "DejaVuSans.ttf")
        try fm.createSymbolicLink(atPath: tmp.file("lib/sans/DejaVuSans-Bold.ttf"), withDestinationPath: dejavu + "DejaVuSans-Bold.ttf")
        try fm.createSymbolicLink(atPath: tmp.file("lib/serif/DejaVuSerif.ttf"), withDestinationPath: dejavu + "DejaVuSerif.ttf")
        try fm.createSymbolicLink(
            atPath: tmp.file("lib/serif/wqy.ttc"), withDestinationPath: "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")
        try fm.createSymbolicLink(atPath: tmp.file("lib/.hidden/DejaVuSans.ttf"), withDestinationPath: dejavu + "DejaVuSans.ttf")
        _ = try tmp.write("lib/serif/broken.ttf", "this is not a font")
        _ = try tmp.write("lib/readme.txt", "fonts")
        return tmp
    }

    func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    @Test func eachRunsTheScriptOncePerFontInPathOrder() throws {
        let tmp = try library()
        let script = try tmp.write(
            "names.lua",
            """
            print("checking", face.postscriptName)
            return {family = face.familyName, upm = face.unitsPerEm, arg1 = arg[1], dots = select('#', ...), path = "mine"}
            """)
        let r = try runFontshell(["run", script, "--each", tmp.file("lib/**/*.{ttf,ttc}"), "-j", "2", "--", "one", "two"])
        let records = lines(r.out)
        #expect(r.status == 1)   // broken.ttf fails
        #expect(
            records.map { ($0["path"] as? String ?? "").replacingOccurrences(of: tmp.path + "/", with: "") }
                == [
                    "lib/sans/DejaVuSans-Bold.ttf", "lib/sans/DejaVuSans.ttf", "lib/serif/DejaVuSerif.ttf", "lib/serif/broken.ttf",
                    "lib/serif/wqy.ttc",
                ])
        let sans = records[1]
        #expect(sans["ok"] as? Bool == true && sans["family"] as? String == "DejaVu Sans" && sans["upm"] as? Int == 2048)
        #expect(sans["arg1"] as? String == "one" && sans["dots"] as? Int == 2 && sans["faces"] as? Int == 1)
        #expect(sans["printed"] as? [String] == ["checking\tDejaVuSans"])
        #expect((sans["script"] as? [String: Any])?["path"] as? String == "mine")   // a reserved name, kept aside …
        // … and said
        #expect(sans["warning"] as? String == "the script returned path, which the line uses itself; kept under 'script' (rename them)")
        #expect(sans["seconds"] is Double || sans["seconds"] is Int)
        #expect(records[4]["faces"] as? Int == 3)
        let broken = records[3]
        #expect(broken["ok"] as? Bool == false)
        #expect((broken["error"] as? String ?? "").contains("broken.ttf"))
        #expect(r.err.contains("broken.ttf"))
        // A folder alone means the fonts under it (hidden folders left out).
        let folder = try runFontshell(["run", script, "--each", tmp.file("lib"), "--quiet"])
        #expect(lines(folder.out).count == 5 && folder.err.isEmpty)
    }

    /// A worker puts its state back as it was built before each font (LuaTemplate): whatever
    /// one font's script changed, added, broke or left to collect, the next font starts from
    /// the same state a fresh one would be, finalizers run, and math.random is seeded afresh.
    @Test func eachFontStartsFromAFreshState() throws {
        let tmp = try library()
        let script = try tmp.write(
            "meddle.lua",
            """
            local seen = {left = left, upper = type(string.upper), meta = getmetatable(_G) ~= nil,
                          loaded = package.loaded.meddled, args = #arg, io = type(io.write)}
            left = font.path
            string.upper = nil
            setmetatable(_G, {__index = function() return "leaked" end})
            package.loaded.meddled = true
            arg[#arg + 1] = "more"
            io.write = nil
            -- One write: the parent's error lines share stderr, and could land between pieces.
            setmetatable({}, {__gc = function() io.stderr:write("finalized " .. font.path:match("[^/]*$") .. "\\n") end})
            local junk = {}
            for i = 1, 20000 do junk[i] = ("x"):rep(i % 50) .. i end
            print("once")
            if font.path:find("Bold") then error("fails half-way") end
            seen.random = math.random(1, 1 << 40)
            return seen
            """)
        let r = try runFontshell(["run", script, "--each", tmp.file("lib/*/*.{ttf,ttc}"), "-j", "1"])
        let records = lines(r.out).filter { $0["ok"] as? Bool == true }
        #expect(records.count == 3, "\(r.out)\n\(r.err)")   // DejaVuSans, DejaVuSerif, wqy (Bold fails; broken.ttf is no font)
        for record in records {
            #expect(record["left"] == nil && record["upper"] as? String == "function" && record["meta"] as? Bool == false)
            #expect(record["loaded"] == nil && record["args"] as? Int == 0 && record["io"] as? String == "function")
            #expect(record["printed"] as? [String] == ["once"])
        }
        #expect(Set(records.compactMap { $0["random"] as? Int }).count == 3)
        for name in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "wqy.ttc"] {
            #expect(r.err.components(separatedBy: "finalized \(name)\n").count == 2, "\(name): \(r.err)")
        }
    }

    /// A script that runs out of Lua memory on one font: the record says so and names the
    /// limit (before, what the script left made the record itself fail, blaming the JSON), and
    /// the worker's next font has all its memory back.
    @Test func aFontThatRunsOutOfMemorySaysSo() throws {
        let tmp = try library()
        let script = try tmp.write(
            "greedy.lua",
            """
            if font.path:find("Bold") then local t = {} for i = 1, 1e8 do t[i] = ("y"):rep(100) .. i end end
            return {used = collectgarbage("count") < 1024}
            """)
        let r = try run(
            fontshellBinary, ["run", script, "--each", tmp.file("lib/sans/*.ttf"), "-j", "1"], environment: ["FONTSHELL_LUA_MEMORY": "8M"])
        var byName: [String: [String: Any]] = [:]
        for record in lines(r.out) { byName[String((record["path"] as? String ?? "").split(separator: "/").last ?? "")] = record }
        #expect(r.status == 1)
        #expect(
            byName["DejaVuSans-Bold.ttf"]?["error"] as? String
                == "not enough memory (the Lua heap limit is 8388608 bytes; FONTSHELL_LUA_MEMORY sets it)", "\(r.out)")
        #expect(byName["DejaVuSans.ttf"]?["used"] as? Bool == true, "\(r.out)")
    }

    @Test func failuresAreRecordedPerFontAndTheOthersGoOn() throws {
        let tmp = try library()
        let script = try tmp.write(
            "bad.lua",
            """
            local p = font.path
            if p:find("Bold") then error("no bold here") end
            if p:find("Serif") then while true do end end
            if p:find("wqy") then os.exit(3) end
            return {n = face.glyphCount}
            """)
        try FileManager.default.createSymbolicLink(
            atPath: tmp.file("lib/sans/line\nbreak.ttf"), withDestinationPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let r = try runFontshell([
            "run", script, "--each", tmp.file("lib/*/*.{ttf,ttc}"), "--each", tmp.file("nothing/*.otf"), "--timeout", "2",
        ])
        #expect(r.status == 1)
        var byName: [String: [String: Any]] = [:]
        for record in lines(r.out) { byName[String((record["path"] as? String ?? "").split(separator: "/").last ?? "")] = record }
        #expect((byName["DejaVuSans-Bold.ttf"]?["error"] as? String ?? "").hasSuffix("bad.lua:2: no bold here"))
        #expect((byName["DejaVuSans-Bold.ttf"]?["traceback"] as? String ?? "").contains("stack traceback"))
        #expect(byName["DejaVuSerif.ttf"]?["error"] as? String == "timed out after 2 s (--timeout); the worker was stopped")
        #expect(byName["wqy.ttc"]?["error"] as? String == "the worker running this font exited with status 3")
        #expect(byName["DejaVuSans.ttf"]?["n"] as? Int == 6253)
        #expect(byName["*.otf"]?["error"] as? String == "no file matches this pattern")
        #expect(
            (lines(r.out).first { ($0["path"] as? String ?? "").contains("line\nbreak") }?["error"] as? String ?? "").contains("line break")
        )
        #expect(lines(r.out).count == 7)
        // Nothing matched at all, or a script that does not compile: one error, not one per font.
        let none = try runFontshell(["run", script, "--each", tmp.file("nothing/*.ttf")])
        #expect(none.status == 1 && none.err.contains("no fonts to run over"))
        let syntax = try tmp.write("syntax.lua", "return {")
        let s = try runFontshell(["run", syntax, "--each", tmp.file("lib")])
        #expect(s.status == 1 && s.err.contains("syntax.lua:1:") && s.out.isEmpty)
        let badShard = try runFontshell(["run", script, "--each", tmp.file("lib"), "--shard", "0/3"])
        #expect(badShard.status == 2 && badShard.err.contains("share 0 is outside 1…3 (shares count from 1"), "\(badShard.err)")
    }

    /// Globs take names without a stat per entry; one stat per file then keeps only regular
    /// files (links followed): a link to a folder or to nothing is not a font, and a pattern
    /// that names only such entries matches nothing.
    @Test func linksToFoldersAndDanglingLinksAreNotFonts() throws {
        let tmp = try library()
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: tmp.file("lib/serif/folder.ttf"), withDestinationPath: tmp.file("lib/sans"))
        try fm.createSymbolicLink(atPath: tmp.file("lib/serif/gone.ttf"), withDestinationPath: tmp.file("nowhere.ttf"))
        let script = try tmp.write("n.lua", "return {n = face.glyphCount}")
        let r = try runFontshell(["run", script, "--each", tmp.file("lib/**/*.{ttf,ttc}"), "--quiet"])
        let paths = lines(r.out).map { ($0["path"] as? String ?? "").replacingOccurrences(of: tmp.path + "/", with: "") }
        #expect(
            paths == [
                "lib/sans/DejaVuSans-Bold.ttf", "lib/sans/DejaVuSans.ttf", "lib/serif/DejaVuSerif.ttf", "lib/serif/broken.ttf",
                "lib/serif/wqy.ttc",
            ])
        let none = try runFontshell(["run", script, "--each", tmp.file("lib/serif/{fold,gon}*.ttf"), "--quiet"])
        #expect(none.status == 1)
        #expect(none.err.contains("no fonts to run over"), "\(none.err)")
    }

    /// Many fast fonts give each worker a deep queue and a parent that collects in batches:
    /// a font that crashes its worker and one that loops are still blamed exactly, and the
    /// fonts queued behind them are handed out again and succeed.
    @Test func deepQueuesStillBlameTheRightFont() throws {
        let tmp = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: tmp.file("many"), withIntermediateDirectories: true)
        for i in 0..<120 {
            try FileManager.default.createSymbolicLink(
                atPath: tmp.file("many/f\(String(format: "%03d", i)).ttf"),
                withDestinationPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        }
        let script = try tmp.write(
            "some.lua",
            """
            local p = font.path
            if p:find("f070") then os.exit(4) end
            if p:find("f090") then while true do end end
            return {n = face.glyphCount}
            """)
        let r = try runFontshell(["run", script, "--each", tmp.file("many/*.ttf"), "-j", "2", "--timeout", "2"])
        #expect(r.status == 1)
        let records = lines(r.out)
        #expect(records.count == 120)
        for (i, record) in records.enumerated() {
            let path = record["path"] as? String ?? ""
            #expect(path.hasSuffix(String(format: "f%03d.ttf", i)), "order: \(path)")
            switch i {
            case 70: #expect(record["error"] as? String == "the worker running this font exited with status 4", "\(record)")
            case 90: #expect(record["error"] as? String == "timed out after 2 s (--timeout); the worker was stopped", "\(record)")
            default: #expect(record["ok"] as? Bool == true && record["n"] as? Int == 6253, "\(record)")
            }
        }
    }

    /// On a terminal, stderr shows a bar with done/total, rate and time left (through `script`,
    /// which gives the command a pseudo-terminal).
    @Test func aProgressBarOnATerminal() throws {
        let tmp = try library()
        let script = try tmp.write("slow.lua", "local t = os.clock() while os.clock() - t < 0.15 do end return {n = 1}")
        let command =
            "'\(fontshellBinary)' run '\(script)' --each '\(tmp.file("lib/sans/*.ttf"))' --each '\(tmp.file("lib/serif/DejaVuSerif.ttf"))' -j 1 --jsonl 2>&1 >/dev/null"
        let r = try run("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(r.out.contains("\r\u{1B}[2K[") && r.out.contains("/3") && r.out.contains("ETA"), "\(r.out.debugDescription)")
        #expect(r.out.contains("3/3 fonts, 0 failed"))
        // stdout on a terminal: a readable line per font instead of JSON.
        let human = try run(
            "/usr/bin/script", ["-qec", "'\(fontshellBinary)' run '\(script)' --each '\(tmp.file("lib/sans/*.ttf"))' --quiet", "/dev/null"])
        #expect(
            human.out.contains("DejaVuSans.ttf  ") && human.out.contains(" s  n=1") && !human.out.contains("{\""),
            "\(human.out.debugDescription)")
    }

    /// Long commands show progress on a terminal too, and a result line never starts where the
    /// bar stands (issue 35, item 14): instance --all counts instances, slice its slices.
    @Test func longCommandsShowProgressOnATerminal() throws {
        let tmp = try TemporaryFolder()
        let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
        let r = try run(
            "/usr/bin/script", ["-qec", "'\(fontshellBinary)' instance '\(inter)' --all -o '\(tmp.file("static"))'", "/dev/null"],
            environment: ["FONTSHELL_PROGRESS_DELAY": "0"])
        #expect(r.status == 0 && r.out.contains("\r\u{1B}[2K[") && r.out.contains("/9"), "\(r.out.debugDescription)")
        // A pseudo-terminal ends lines with \r\n, one Character in Swift: split on the scalars.
        let results = r.out.unicodeScalars.split(separator: "\n").map { String(String.UnicodeScalarView($0)) }.filter {
            $0.contains(" bytes")
        }
        #expect(results.count == 9, "\(r.out.debugDescription)")
        for line in results {
            let shown = line.components(separatedBy: "\u{1B}[2K").last ?? ""
            #expect(shown.hasPrefix(tmp.file("static")), "glued to the bar: \(line.debugDescription)")
        }
        let slices = try run(
            "/usr/bin/script",
            ["-qec", "'\(fontshellBinary)' slice '\(dejavuPath)' --chars-per-slice 300 --quality 1 -o '\(tmp.file("web"))'", "/dev/null"],
            environment: ["FONTSHELL_PROGRESS_DELAY": "0"])
        #expect(
            slices.status == 0 && slices.out.contains("\r\u{1B}[2K[") && slices.out.contains(" slices"), "\(slices.out.debugDescription)")
        // fuse counts the files it fuses, then the save; its report starts on a line of its own.
        #expect(try runFontshell(["dump", dejavuPath, "--dir", tmp.file("xml")]).status == 0)
        let fused = try run(
            "/usr/bin/script",
            ["-qec", "'\(fontshellBinary)' fuse '\(dejavuPath)' --dir '\(tmp.file("xml"))' -o '\(tmp.file("fused.ttf"))'", "/dev/null"],
            environment: ["FONTSHELL_PROGRESS_DELAY": "0"])
        #expect(
            fused.status == 0 && fused.out.contains("\r\u{1B}[2K[") && fused.out.contains("\u{1B}[2Kwrote"), "\(fused.out.debugDescription)"
        )
    }

    /// The rest of item 14: a WOFF2 save shows how much Brotli has compressed, a dump the share
    /// written (or the files), and a fuse of one large file each table it checks and fuses.
    /// The bar's first-moment wait is set to nothing, so these short jobs show it.
    @Test func saveDumpAndFuseOfOneFileShowProgress() throws {
        let tmp = try TemporaryFolder()
        func onTerminal(_ arguments: String) throws -> (status: Int32, out: String) {
            let r = try run(
                "/usr/bin/script", ["-qec", "'\(fontshellBinary)' " + arguments, "/dev/null"],
                environment: ["FONTSHELL_PROGRESS_DELAY": "0", "TERM": "xterm"])
            return (r.status, r.out)
        }
        let saved = try onTerminal("save '\(dejavuPath)' '\(tmp.file("d.woff2"))' --quality 5")
        #expect(saved.status == 0 && saved.out.contains("\r\u{1B}[2K[") && saved.out.contains(" %"), "\(saved.out.debugDescription)")
        #expect(saved.out.contains("\u{1B}[2Kwrote"), "the report is glued to the bar: \(saved.out.debugDescription)")
        let dumped = try onTerminal("dump '\(dejavuPath)' -o '\(tmp.file("d.ttx"))'")
        #expect(
            dumped.status == 0 && dumped.out.contains("\r\u{1B}[2K[") && dumped.out.contains("<glyf>"), "\(dumped.out.debugDescription)")
        let files = try onTerminal("dump '\(dejavuPath)' --dir '\(tmp.file("xml"))'")
        #expect(files.status == 0 && files.out.contains(".glyf.ttx"), "\(files.out.debugDescription)")
        let fused = try onTerminal("fuse '\(dejavuPath)' '\(tmp.file("d.ttx"))' -o '\(tmp.file("f.ttf"))'")
        #expect(
            fused.status == 0 && fused.out.contains("checking <glyf> of d.ttx") && fused.out.contains("fusing <glyf> of d.ttx"),
            "\(fused.out.debugDescription)")
        #expect(fused.out.contains("\u{1B}[2Kwrote"), "\(fused.out.debugDescription)")
        // diff goes face by face; its first difference starts on a line of its own.
        let bold = dejavuPath.replacingOccurrences(of: "DejaVuSans.ttf", with: "DejaVuSans-Bold.ttf")
        let differs = try onTerminal("diff '\(dejavuPath)' '\(bold)'")
        #expect(differs.out.contains("\r\u{1B}[2K[") && differs.out.contains("face 0"), "\(differs.out.debugDescription)")
        #expect(differs.out.contains("\u{1B}[2K- MATH"), "glued to the bar: \(differs.out.prefix(300).debugDescription)")
        // Off a terminal, none of it.
        let plain = try runFontshell(["save", dejavuPath, tmp.file("e.woff2"), "--quality", "5"])
        #expect(plain.status == 0 && !plain.err.contains("\u{1B}") && !plain.out.contains("\u{1B}"))
    }

    @Test func shardsConcatenateToTheWholeRun() throws {
        let tmp = try library()
        let script = try tmp.write("upm.lua", "return {upm = face.unitsPerEm, ps = face.postscriptName}")
        let glob = tmp.file("lib/**/*.{ttf,ttc}")
        func stripped(_ out: String) -> [String] {
            out.split(separator: "\n").map {
                $0.replacingOccurrences(of: #","?"seconds":[0-9.e-]+"#, with: "", options: .regularExpression)
                    .replacingOccurrences(of: "{,", with: "{")
            }
        }
        let whole = stripped(try runFontshell(["run", script, "--each", glob, "--quiet"]).out)
        #expect(whole.count == 5)
        var parts: [String] = []
        for i in 1...3 { parts += stripped(try runFontshell(["run", script, "--each", glob, "--shard", "\(i)/3", "--quiet"]).out) }
        #expect(parts == whole)
        // The schedulers' own variables pick the share: a Kubernetes Indexed Job, a Slurm array.
        var k8s: [String] = [], slurm: [String] = []
        for i in 0..<2 {
            k8s += stripped(
                try run(
                    fontshellBinary, ["run", script, "--each", glob, "--shard", "auto/2", "--quiet"],
                    environment: ["JOB_COMPLETION_INDEX": "\(i)"]
                ).out)
            slurm += stripped(
                try run(
                    fontshellBinary, ["run", script, "--each", glob, "--shard", "auto", "--quiet"],
                    environment: ["SLURM_ARRAY_TASK_ID": "\(i + 1)", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "2"]
                ).out)
        }
        #expect(k8s == whole && slurm == whole)
        let noIndex = try runFontshell(["run", script, "--each", glob, "--shard", "auto/2"])
        #expect(noIndex.status == 2 && noIndex.err.contains("JOB_COMPLETION_INDEX"))
    }

    @Test func checkReportsInEveryFormat() throws {
        let tmp = try library()
        let fonts = [tmp.file("lib/sans/*.ttf"), tmp.file("lib/serif/broken.ttf")]
        let json = try runFontshell(["check"] + fonts + ["--format", "json", "--quiet"])
        #expect(json.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let checks = doc["checks"] as? [[String: Any]] ?? []
        #expect(checks.count >= 40)
        let fontRecords = doc["fonts"] as? [[String: Any]] ?? []
        #expect(fontRecords.count == 3)
        let sans = try #require(fontRecords.first { ($0["path"] as? String ?? "").hasSuffix("/DejaVuSans.ttf") })
        let results = sans["results"] as? [[String: Any]] ?? []
        #expect(results.count == checks.count)
        #expect(results.first { $0["id"] as? String == "metrics/win-clipping" }?["status"] as? String == "fail")
        #expect(results.first { $0["id"] as? String == "glyphs/notdef" }?["status"] as? String == "pass")
        #expect(fontRecords.contains { ($0["error"] as? String ?? "").contains("broken.ttf") })

        let sarif = try runFontshell(["check", tmp.file("lib/sans/DejaVuSans.ttf"), "--format", "sarif", "--quiet"])
        let s = try #require(try JSONSerialization.jsonObject(with: Data(sarif.out.utf8)) as? [String: Any])
        #expect(s["version"] as? String == "2.1.0")
        let run = try #require((s["runs"] as? [[String: Any]])?.first)
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        let sarifResults = run["results"] as? [[String: Any]] ?? []
        #expect(rules.count == checks.count && !sarifResults.isEmpty)
        for r in sarifResults {
            let index = r["ruleIndex"] as? Int ?? -1
            #expect(rules.indices.contains(index) && rules[index]["id"] as? String == r["ruleId"] as? String)
            #expect(["error", "warning"].contains(r["level"] as? String ?? ""))
            let uri =
                (((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?[
                    "uri"] as? String
            #expect(uri?.hasPrefix("file:///") == true && uri?.hasSuffix("DejaVuSans.ttf") == true)
        }

        let junit = try runFontshell(["check"] + fonts + ["--format", "junit", "--quiet", "-o", tmp.file("report.xml")])
        #expect(junit.status == 1 && junit.out.isEmpty)
        let xml = try String(contentsOfFile: tmp.file("report.xml"), encoding: .utf8)
        let parsed = try XMLDocument(xmlString: xml)
        let suites = try parsed.nodes(forXPath: "/testsuites/testsuite")
        #expect(suites.count == 3)
        let failures = try parsed.nodes(forXPath: "//testcase[failure]").count
        let declared = Int((try parsed.nodes(forXPath: "/testsuites/@failures").first?.stringValue) ?? "") ?? -1
        #expect(failures > 0 && failures == declared)

        let text = try runFontshell(["check", tmp.file("lib/sans/DejaVuSans.ttf"), "--only", "metrics"])
        #expect(text.status == 1 && text.out.contains("FAIL   metrics/win-clipping") && !text.out.contains("names/"))
        #expect(text.out.contains("1 fonts, 1 with failures"))
    }

    @Test func fixSavesBesideTheInputAndNeverOverIt() throws {
        let tmp = try TemporaryFolder()
        let input = tmp.file("DejaVuSans.ttf")
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let r = try runFontshell(["check", input, "--fix", "--only", "metrics/win-clipping", "--only", "names/trailing-spaces"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("fixed: usWinAscent 2524, usWinDescent 948 → now pass"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        let fixed = tmp.file("DejaVuSans.fixed.ttf")
        // The font's own counts, then what the saved file holds (issue 35, item 16).
        #expect(
            r.out.contains("  2 failed, 0 warnings, 0 errors, 0 passed")
                && r.out.contains("  2 fixed in \(fixed), which has 0 failed, 0 warnings"), "\(r.out)")
        #expect(
            r.out.contains(
                "1 fonts: 2 failed, 0 warnings, 0 errors, 0 passed, 0 skipped; 2 fixed in 1 saved file, which has 0 failed, 0 warnings; 0 with failures left"
            ), "\(r.out)")
        // fontTools reads the fixed font and sees the fix.
        let py = try run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "from fontTools.ttLib import TTFont; f = TTFont('\(fixed)'); print(f['OS/2'].usWinAscent, f['OS/2'].usWinDescent)",
            ])
        #expect(py.out == "2524 948\n", "\(py.err)")
        let again = try runFontshell(["check", fixed, "--only", "metrics/win-clipping"])
        #expect(again.status == 0)

        // A fix that fails: nothing is written.
        try FileManager.default.createDirectory(atPath: tmp.file("checks/mine"), withIntermediateDirectories: true)
        _ = try tmp.write(
            "checks/mine/fails.lua",
            """
            return {id = 'fails', title = 't', rationale = 'r', severity = 'fail',
              check = function(face, r) r.fail('no') end, fix = function() error('cannot') end}
            """)
        try FileManager.default.removeItem(atPath: fixed)
        let failing = try runFontshell([
            "check", input, "--fix", "--checks", tmp.file("checks"), "--only", "mine", "--only", "metrics/win-clipping",
        ])
        #expect(failing.status == 1 && failing.out.contains("not saved:"))
        #expect(!FileManager.default.fileExists(atPath: fixed))
        #expect(try runFontshell(["check", input, "--in-place"]).status != 0)   // --in-place needs --fix
        // --in-place replaces the input, and only then.
        let inPlace = try runFontshell(["check", input, "--fix", "--in-place", "--only", "metrics/win-clipping"])
        #expect(inPlace.status == 0 && inPlace.out.contains("1 fixed in \(input), which has 0 failed"), "\(inPlace.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) != before)
        #expect(try runFontshell(["check", input, "--only", "metrics/win-clipping"]).status == 0)
    }
}

/// The example files of docs/batch.md run as the page says, and docs/checks.md is what the checks say.
@Suite struct BatchDocsTests {
    func stripped(_ out: String) -> [String] {
        out.split(separator: "\n").map {
            $0.replacingOccurrences(of: #","?"seconds":[0-9.e-]+"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: "{,", with: "{")
        }.sorted()   // each part is in order; sorting compares the sets, the order is checked below
    }

    func fontsFolder(_ tmp: TemporaryFolder) throws -> String {
        let fonts = tmp.file("fonts")
        try FileManager.default.createDirectory(atPath: fonts + "/a", withIntermediateDirectories: true)
        for name in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"] {
            try FileManager.default.createSymbolicLink(
                atPath: fonts + "/a/" + name, withDestinationPath: "/usr/share/fonts/truetype/dejavu/" + name)
        }
        try FileManager.default.createSymbolicLink(
            atPath: fonts + "/wqy.ttc", withDestinationPath: "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")
        return fonts
    }

    /// A PATH where `fontshell` is the binary under test.
    func pathWithFontshell(_ tmp: TemporaryFolder) throws -> String {
        let bin = tmp.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/fontshell", withDestinationPath: fontshellBinary)
        return bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    @Test func theSlurmScriptTheJobCommandAndParallelEachMakeOneRun() throws {
        let tmp = try TemporaryFolder()
        let fonts = try fontsFolder(tmp)
        let examples = repositoryRoot.appendingPathComponent("Examples/batch").path
        let path = try pathWithFontshell(tmp)
        // The fonts each line is about, in output order.
        let order = { (out: String) in
            out.split(separator: "\n").compactMap { line -> String? in
                line.range(of: #""path":"[^"]*""#, options: .regularExpression).map { String(line[$0]) }
            }
        }
        let whole = try runFontshell(["run", examples + "/names-and-metrics.lua", "--each", fonts + "/**/*.{ttf,otf,ttc}", "--quiet"])
        #expect(whole.status == 0 && whole.out.split(separator: "\n").count == 5)
        // The example's fields are its own: nothing collides with the line's (issue 35, item 17).
        #expect(
            !whole.out.contains("\"script\"") && !whole.out.contains("\"warning\"") && whole.out.contains("\"styles\":[{"),
            "\(whole.out.prefix(400))")

        // Slurm: the array's 8 tasks, as sbatch would start them.
        for task in 0..<8 {
            let r = try run(
                "/bin/bash", ["-c", "cd '\(tmp.path)' && bash '\(examples)/fonts.sbatch'"],
                environment: [
                    "PATH": path, "FONTS": fonts, "SLURM_ARRAY_TASK_ID": "\(task)",
                    "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_CPUS_PER_TASK": "1",
                ])
            #expect(r.status == 0, "\(r.err)")
        }
        let parts = try FileManager.default.contentsOfDirectory(atPath: tmp.file("results")).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(parts.count == 8)
        let slurm = try parts.map { try String(contentsOfFile: tmp.file("results/" + $0), encoding: .utf8) }.joined()
        #expect(stripped(slurm) == stripped(whole.out) && order(slurm) == order(whole.out))

        // Kubernetes: the Job's command, with its volumes as folders here, once per index.
        let manifest = try String(contentsOfFile: examples + "/fonts-job.yaml", encoding: .utf8)
        let lines = manifest.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("- >-") })
        var command = ""
        for line in lines[(start + 1)...] {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t.hasPrefix("resources:") { break }
            command += t + " "
        }
        try FileManager.default.createDirectory(atPath: tmp.file("k8s"), withIntermediateDirectories: true)
        command = command.replacingOccurrences(of: "/scripts/", with: examples + "/")
            .replacingOccurrences(of: "/fonts/", with: fonts + "/").replacingOccurrences(of: "/results/", with: tmp.file("k8s") + "/")
        #expect(command.contains("--shard auto/8"))
        for index in 0..<8 {
            let r = try run("/bin/sh", ["-c", command], environment: ["PATH": path, "JOB_COMPLETION_INDEX": "\(index)"])
            #expect(r.status == 0, "\(command): \(r.err)")
        }
        let k8sParts = try FileManager.default.contentsOfDirectory(atPath: tmp.file("k8s")).sorted()
        let k8s = try k8sParts.map { try String(contentsOfFile: tmp.file("k8s/" + $0), encoding: .utf8) }.joined()
        #expect(k8sParts.count == 8 && stripped(k8s) == stripped(whole.out) && order(k8s) == order(whole.out))

        // GNU parallel, on this machine (no ssh hosts), shares in order.
        let p = try run("/bin/bash", [examples + "/parallel.sh", fonts, "", "3"], environment: ["PATH": path])
        #expect(p.status == 0, "\(p.err)")
        #expect(order(p.out) == order(whole.out) && stripped(p.out) == stripped(whole.out))
    }

    @Test func theChecksPageIsWhatTheChecksSay() throws {
        let r = try runFontshell(["run", repositoryRoot.appendingPathComponent("Scripts/checks-doc.lua").path])
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/checks.md"), encoding: .utf8)
        #expect(r.status == 0)
        #expect(r.out == page, "docs/checks.md is stale: fontshell run Scripts/checks-doc.lua > docs/checks.md")
    }
}
