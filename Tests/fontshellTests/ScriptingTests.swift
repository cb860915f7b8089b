import Foundation
import Testing

let dejavuPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
let wqyPath = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

@Suite struct ScriptingTests {
    @Test func pipedREPLPrintsExpressionsContinuesLinesAndKeepsGoingAfterErrors() throws {
        let input = """
            face.hhea.ascender
            =face.head.unitsPerEm
            for i = 1, 2 do
              print("line", i)
            end
            face.hhea.ascendr
            {1, "two", {three = 3}}
            face.glyphs.A
            local function f() error("boom") end f()
            """
        let r = try runFontshell([dejavuPath], input: input)
        #expect(r.status == 0)
        #expect(r.out == "1901\n2048\nline\t1\nline\t2\n{1, \"two\", {three = 3}}\n<Glyph 36 'A' advance 1401>\n", "\(r.out)")
        #expect(r.err.contains("stdin:1: hhea has no field 'ascendr' (did you mean 'ascender'?)"))
        // A traceback only where it says more than the line typed (issue 35, item 10): not for
        // the misspelt field, but for the error inside f.
        #expect(r.err.components(separatedBy: "stack traceback:").count == 2 && r.err.contains("in local 'f'"), "\(r.err)")
        // Input that ends inside a statement is reported, not dropped.
        let unfinished = try runFontshell([dejavuPath], input: "for i = 1, 2 do\n")
        #expect(unfinished.err.contains("stdin:1: 'end' expected near <eof>"), "\(unfinished.err)")
        #expect(!r.out.contains("> ") && !r.out.contains(">> "))   // no prompts when stdin is not a terminal
    }

    /// Every REPL line of the README runs as written (issue 35, item 6): typed in order into the
    /// REPL on DejaVu Sans (the design-space lines on Inter), in a scratch folder for the files
    /// they save, with no Lua error.
    @Test func readmeREPLLinesRunAsWritten() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "In the REPL:").dropFirst().first?.components(separatedBy: "```").dropFirst().first)
        let lines = block.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
        #expect(lines.count >= 15, "\(lines)")
        let variable = lines.filter { $0.contains("wght") || $0.contains("face.axes") }
        let plain = lines.filter { !variable.contains($0) }
        let tmp = try TemporaryFolder()
        for (font, typed) in [(dejavuPath, plain), ("/usr/share/fonts/truetype/inter-vf/Inter.var.ttf", variable)] {
            let r = try run(
                "/bin/bash", ["-c", "cd '\(tmp.path)' && exec '\(fontshellBinary)' '\(font)'"], input: typed.joined(separator: "\n") + "\n")
            #expect(r.status == 0, "\(r.err)")
            #expect(!r.err.contains("stdin:") && !r.err.contains("stack traceback"), "\(font): \(r.err)")
        }
        for file in ["caps.ttf", "hello.woff2", "l.png", "bold.ttf"] {
            #expect(FileManager.default.fileExists(atPath: tmp.file(file)), "\(file)")
        }
    }

    @Test func chunksFromTheCommandLine() throws {
        let r = try runFontshell(["-e", "print(face.postscriptName, #fonts)"])
        #expect(r.status == 0 && r.out == "DejaVuSans\t1\n")
        let bad = try runFontshell(["-e", "print(face.nope)"])
        #expect(bad.status == 1 && bad.err.contains("(command line):1: Face has no field 'nope'"))
    }

    @Test func scriptsGetArgAndExitCodes() throws {
        let tmp = try TemporaryFolder()
        let script = try tmp.write(
            "args.lua", "#!/usr/bin/env -S fontshell run\nprint(arg[0], arg[1], arg[2], select('#', ...))\nos.exit(tonumber(arg[1]))\n")
        let r = try runFontshell(["run", script, "7", "x"])
        #expect(r.status == 7)
        #expect(r.out == "\(script)\t7\tx\t2\n")
        let direct = try runFontshell([script, "3"])   // `fontshell script.lua`, for #!/usr/bin/env fontshell
        #expect(direct.status == 3)
    }

    /// `fontshell run script.lua Font.ttf` binds font, face and fonts as `run --each` and the REPL
    /// do (issue 35, item 8): from the arguments naming font files, opened on first use; a name
    /// the script set itself stays its own, and a script run on no font sees nil.
    @Test func scriptsOnFontArgumentsHaveFontAndFace() throws {
        let tmp = try TemporaryFolder()
        let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        let script = try tmp.write(
            "names.lua", "print(face.familyName, font.faces[1].fullName, #fonts, fonts[2].faces[1].familyName, arg[2])\n")
        let r = try runFontshell(["run", script, dejavu, serif])
        #expect(r.status == 0 && r.out == "DejaVu Sans\tDejaVu Sans\t2\tDejaVu Serif\t\(serif)\n", "\(r.out)\(r.err)")
        let own = try tmp.write("own.lua", "font = 'mine'; print(font, face.familyName)\n")
        #expect(try runFontshell(["run", own, dejavu]).out == "mine\tDejaVu Sans\n")
        let none = try tmp.write("none.lua", "print(font, face, #fonts, undefinedName)\n")
        #expect(try runFontshell(["run", none, "notes.txt"]).out == "nil\tnil\t0\tnil\n")
    }

    @Test func brokenScriptsAndFontsGiveOneClearMessageAndNoOutput() throws {
        let tmp = try TemporaryFolder()
        let out = tmp.file("out.ttf")
        let syntax = try tmp.write("syntax.lua", "local x = \nprint(\n")
        let runtime = try tmp.write("runtime.lua", "local f = fontshell.open(arg[1])\nlocal t = nil\nprint(t.x)\nf:save(arg[2])\n")
        let broken = try tmp.write("broken.ttf", "wOFF this is not a font")
        let saving = try tmp.write("save.lua", "local f = fontshell.open(arg[1])\nf:save(arg[2])\n")

        let s = try runFontshell(["run", syntax])
        // Lua shortens long chunk names to "...end/of/path"; the file name and line are what matter.
        #expect(s.status == 1 && s.err.contains("syntax.lua:3: unexpected symbol near <eof>"), "\(s.err)")
        #expect(s.err.split(separator: "\n").count == 1)
        let r = try runFontshell(["run", runtime, dejavuPath, out])
        #expect(r.status == 1 && r.err.contains("runtime.lua:3: attempt to index a nil value (local 't')"), "\(r.err)")
        #expect(r.err.contains("stack traceback:"))
        let m = try runFontshell(["run", tmp.file("missing.lua")])
        #expect(m.status == 1 && m.err.contains("cannot open \(tmp.file("missing.lua"))"))
        let b = try runFontshell(["run", saving, broken, out])
        #expect(b.status == 1 && b.err.contains("WOFF: the file is shorter than its 44-byte header"), "\(b.err)")
        let bf = try runFontshell([broken])
        #expect(bf.status == 1 && bf.err.contains("broken.ttf"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `run --sandbox`: the script reads fonts and renders, but cannot write a file (by saving,
    /// by an image, or through Lua's io/os), reach the registry, or load bytecode.
    @Test func sandboxedScriptsReadAndRenderButWriteNothing() throws {
        let folder = try TemporaryFolder()
        let out = folder.file("out.ttf"), png = folder.file("out.png")
        let script = try folder.write(
            "untrusted.lua",
            """
            local f = fontshell.open(arg[1])
            print(f.faces[1].postscriptName, preview.text(f.faces[1], "Hi").width > 0)
            print(io == nil, os.execute == nil, registry == nil, debug == nil, require == nil, type(os.clock))
            print(load("return 6 * 7")(), select(2, load(string.dump(function() end))))
            print(select(2, pcall(f.save, f, arg[2])))
            print(select(2, pcall(function() preview.text(f.faces[1], "Hi"):save(arg[3]) end)))
            """)
        let r = try runFontshell(["run", "--sandbox", script, dejavuPath, out, png])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first == "DejaVuSans\ttrue")
        #expect(lines.dropFirst().first == "true\ttrue\ttrue\ttrue\ttrue\tfunction")
        #expect(lines.dropFirst(2).first == "42\tattempt to load a binary chunk (mode is 't')")
        #expect(lines.dropFirst(3).allSatisfy { $0.contains("writing files is disabled in this sandbox") }, "\(r.out)")
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: png))
        // Without --sandbox the same save works (the refusal came from the sandbox).
        #expect(try runFontshell(["-e", "font:save('\(out)')"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func helpDescribesObjects() throws {
        let r = try runFontshell(["-e", "help(face.glyphs.A); help(); help(3)"])
        #expect(
            r.out.contains("Glyph: a glyph") && r.out.contains("methods:\n    :advanceAt{") && r.out.contains("    :copyFrom(other"),
            "\(r.out)")
        #expect(r.out.contains("fontshell.open(path)"))
        #expect(r.out.contains("no help for a number value"))
        // Modules by value and by name (with preview's options), a table's own fields, and
        // pointers to what exists when nothing matches.
        let m = try runFontshell(["-e", "help(preview); help('registry'); help(fontshell); help(face.hhea); help('banana')"])
        #expect(m.out.contains("preview.label(face, text") && m.out.contains("preview options") && m.out.contains("textAlign"), "\(m.out)")
        #expect(m.out.contains("registry.find(name)") && m.out.contains("fontshell.open(path)"), "\(m.out)")
        #expect(m.out.contains("fields:  majorVersion, minorVersion, ascender"), "\(m.out)")
        #expect(
            m.out.contains("nothing is called 'banana'") && m.out.contains("help covers the modules fontshell, preview, registry"),
            "\(m.out)")
        // Functions by value and by name, each with its signature and a line (issue 35, item 5);
        // the overview names the common ones.
        let f = try runFontshell([
            "-e", "help(show); help(check); help(face.setKerning); help('setKerning'); help(preview.text); help(function() end); help()",
        ])
        for expected in [
            "show(x [, {width =", "check(target [, {profile =", "check.run(target", "Face:setKerning(left, right, value",
            "preview.text(face, text [, options])",
            "this function is not one of FontShell's", "registry.pick(\"Inter\")", "show(face.glyphs.a)", "face:instance{wght = 700}",
        ] {
            #expect(f.out.contains(expected), "\(expected)\n\(f.out)")
        }
        #expect(f.out.components(separatedBy: "Face:setKerning(left, right, value").count == 3, "by value and by name")
    }

    /// Every method of every class, every module function and the global functions have their
    /// signature and line in help (from docs/lua-api.md through Scripts/gen-lua-reference, which
    /// says whether Sources/FontScript/Modules/LuaReference.swift is current).
    @Test func helpKnowsEveryFunction() throws {
        let check = try run(
            "/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("Scripts/gen-lua-reference").path, "--check"])
        #expect(check.status == 0, "\(check.err)")
        let r = try runFontshell([
            "-e",
            """
            local missing = {}
            for _, class in ipairs{"Font", "Face", "Table", "Name", "Cmap", "Glyphs", "Glyph", "Image", "KerningPairs"} do
              for _, m in ipairs(fontshell.members(class == "Face" and face or class == "Font" and font or class == "Glyphs" and face.glyphs
                  or class == "Glyph" and face.glyphs.A or class == "Name" and face.name or class == "Cmap" and face.cmap
                  or class == "Table" and face.hhea or class == "Image" and preview.text(face, "a") or face:kerningPairs())) do
                if m:sub(-2) == "()" then missing[#missing + 1] = class .. ":" .. m:sub(1, -3) end
              end
            end
            for _, module in ipairs{"preview", "registry"} do
              for k, v in pairs(_G[module]) do if type(v) == "function" then missing[#missing + 1] = module .. "." .. k end end
            end
            for _, name in ipairs(missing) do print(name) end
            """,
        ])
        #expect(r.status == 0, "\(r.err)")
        let names = r.out.split(separator: "\n").map(String.init)
        #expect(names.count > 60)
        let help = try runFontshell(["-e", names.map { "help('\($0)')" }.joined(separator: "; ")])
        #expect(
            !help.out.contains("not documented yet") && !help.out.contains("nothing is called"),
            "\(help.out.split(separator: "\n").filter { $0.contains("nothing is called") || $0.contains("not documented") })")
    }

    /// show(): pictures off when stdout is not a terminal (a note says so), forced with
    /// protocol =; glyphs, grids and specimens come from preview.* as Images to save.
    @Test func showAndExplanatoryPictures() throws {
        let off = try runFontshell(["-e", "show(face.glyphs.A)"])
        #expect(off.status == 0 && off.out.isEmpty && off.err.contains("pictures are off here"), "\(off.out) \(off.err)")
        let blocks = try runFontshell(["-e", "show(face.glyphs.A, {protocol = 'blocks', width = 30})"])
        let lines = blocks.out.split(separator: "\n")
        #expect(
            blocks.status == 0 && lines.count > 10 && lines.allSatisfy { $0.contains("\u{2580}") && $0.hasSuffix("\u{1B}[0m") },
            "\(blocks.err)")
        let sixel = try runFontshell(["-e", "show(preview.text(face, 'Hi', {size = 20}), {protocol = 'sixel'})"])
        #expect(sixel.out.hasPrefix("\u{1B}P0;1;0q"), "\(sixel.err)")
        let tmp = try TemporaryFolder()
        let saved = try runFontshell([
            "-e",
            "local g = preview.glyph(face.glyphs.a, {size = 200}) g:save('\(tmp.path)/a.png') local s = preview.specimen(face) local grid = preview.glyphs(face.glyphs, {from = 36, count = 26}) print(g.width > 150, s.height > 300, grid.width > 300)",
        ])
        #expect(saved.out == "true\ttrue\ttrue\n", "\(saved.out) \(saved.err)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/a.png"))
        let bad = try runFontshell(["-e", "show(42)"])
        #expect(bad.status != 0 && bad.err.contains("show takes an Image, a Glyph, a Face, a Font or face.glyphs"), "\(bad.err)")
        let badProtocol = try runFontshell(["-e", "show(face, {protocol = 'fax'})"])
        #expect(badProtocol.status != 0 && badProtocol.err.contains("choose kitty, iterm, sixel, blocks, none"), "\(badProtocol.err)")
    }

    /// The REPL on a pseudo-terminal played by a script (Tests/Oracles/pty_terminal.py): a
    /// terminal answering as kitty gets kitty graphics, one whose device attributes list sixel
    /// gets sixel, iTerm2 (by TERM_PROGRAM) is not even asked, and a silent one gets half blocks
    /// once the 250 ms deadline passes; no reply is left on the input line (the next command runs),
    /// not even one arriving long after the deadline, while the REPL waits at its prompt.
    @Test func replShowsPicturesOnTheTerminalItFinds() throws {
        let oracle = repositoryRoot.appendingPathComponent("Tests/Oracles/pty_terminal.py").path
        for (mode, expected, queried) in [
            ("kitty", "kitty", true), ("sixel", "sixel", true), ("iterm", "iterm", false), ("silent", "blocks", true),
            ("late", "blocks", true),
        ] {
            let r = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, fontshellBinary, dejavuPath, mode])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "\(r.out) \(r.err)")
            #expect(json[expected] as? Bool == true && json["queried"] as? Bool == queried, "\(mode): \(json)")
            #expect(json["answered42"] as? Bool == true && json["exited"] as? Bool == true, "\(mode): \(json)")
            let seconds = json["seconds"] as? Double ?? 99
            #expect(seconds < 2, "\(mode): \(seconds) s")
            if mode == "silent" || mode == "late" { #expect(seconds >= 0.25, "gave up before the deadline: \(seconds) s") }
        }
    }

    /// Non-ASCII typed at the REPL's prompt reaches Lua as UTF-8 (the key reader hands libedit
    /// whole characters; one that passed bytes turned é into two).
    @Test func replReadsNonASCIIKeys() throws {
        let oracle = repositoryRoot.appendingPathComponent("Tests/Oracles/pty_terminal.py").path
        let r = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, fontshellBinary, dejavuPath, "utf8"])
        #expect(r.out == "{\"utf8\": true}\n", "\(r.out) \(r.err)")
    }

    /// Tab completes inside quoted keys and after ':' (the line editor breaks words only at
    /// spaces and operators).
    @Test func tabCompletesQuotedKeysAndMethods() throws {
        let oracle = repositoryRoot.appendingPathComponent("Tests/Oracles/pty_terminal.py").path
        let r = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, fontshellBinary, dejavuPath, "complete"])
        #expect(r.out == "{\"weightClass\": true, \"glyphFor\": true}\n", "\(r.out) \(r.err)")
    }

    /// The live font picker on a pseudo-terminal: typing narrows, Enter opens, Esc cancels,
    /// and the screen is restored.
    @Test func livePickerOnATerminal() throws {
        let oracle = repositoryRoot.appendingPathComponent("Tests/Oracles/pty_terminal.py").path
        let r = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, fontshellBinary, dejavuPath, "pick"])
        #expect(r.out == "{\"shown\": true, \"chose\": true, \"cancelled\": true, \"restored\": true}\n", "\(r.out) \(r.err)")
    }

    /// A glyph name the face lacks is an error that says what to try; glyphs:get gives nil.
    @Test func missingGlyphNamesAreExplained() throws {
        let r = try runFontshell([
            "-e",
            "print(face.glyphs:get('nosuch'), face.glyphs:get(36).name, face.glyphs:get(99999)); local ok, e = pcall(function() return face.glyphs.nosuch end); print(e)",
        ])
        #expect(
            r.out.contains("nil\tA\tnil") && r.out.contains("no glyph named 'nosuch'; glyphs:get(name) gives nil instead"),
            "\(r.out) \(r.err)")
        let cid = try runFontshell([
            "-e", "local ok, e = pcall(function() return face.glyphs.a end); print(e)",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        ])
        #expect(cid.out.contains("a CID-keyed font names its glyphs cid00001...: try face:glyphFor('a')"), "\(cid.out) \(cid.err)")
        let version = try runFontshell(["--version"])
        #expect(version.status == 0 && version.out.hasPrefix("0."), "\(version.out) \(version.err)")
    }

    @Test func examplesRun() throws {
        let tmp = try TemporaryFolder()
        let examples = repositoryRoot.appendingPathComponent("Examples").path
        let explore = try runFontshell(["run", examples + "/explore.lua", dejavuPath])
        #expect(explore.status == 0 && explore.out.contains("A → glyph 36"), "\(explore.err)")
        let rename = try runFontshell(["run", examples + "/rename.lua", dejavuPath, tmp.file("r.ttf"), "DejaVu Renamed"])
        #expect(rename.status == 0 && rename.out.contains("DejaVuSans → DejaVuRenamed"), "\(rename.err)")
        // Without --save nothing but the sheet is written; with it, the copy.
        let look = try runFontshell([
            "run", examples + "/ascender-sweep.lua", dejavuPath, tmp.file("look.png"), "0", "1700", "2000", "2300",
        ])
        #expect(look.status == 0 && look.out.contains("run with --save") && look.out.contains("capitals "), "\(look.out) \(look.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.contains("-ascender-") }.isEmpty)
        #expect(FileManager.default.fileExists(atPath: tmp.file("look.png")))
        let edge = try runFontshell([
            "run", examples + "/ascender-sweep.lua", dejavuPath, tmp.file("edge.png"), "0", "1100", "1300", "1500",
        ])
        #expect(edge.out.contains("note: the best value, 1500, is the largest tried"), "\(edge.out) \(edge.err)")
        let sweep = try runFontshell([
            "run", examples + "/ascender-sweep.lua", dejavuPath, tmp.file("sheet.png"), "0", "1700", "2000", "2300", "--save",
        ])
        #expect(sweep.status == 0, "\(sweep.err)")
        #expect(sweep.out.contains("best ascender: 2000 (was 1901)"), "\(sweep.out)")
        #expect(FileManager.default.fileExists(atPath: tmp.file("sheet.png")))
        let check = try runFontshell(["-e", "print(face.hhea.ascender)", tmp.file("DejaVuSans-ascender-2000.ttf")])
        #expect(check.out == "2000\n")
    }

    @Test func capsExampleOnACollectionIsCheckedByFontToolsAndOTS() throws {
        let tmp = try TemporaryFolder()
        let out = tmp.file("caps.ttc")
        let r = try runFontshell(["run", repositoryRoot.appendingPathComponent("Examples/caps.lua").path, wqyPath, out])
        #expect(r.status == 0, "\(r.err)")
        let oracle = repositoryRoot.appendingPathComponent("Tests/Oracles/fonttools_check.py").path
        let caps = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, "caps", out])
        #expect(
            caps.out.trimmingCharacters(in: .whitespacesAndNewlines) == #"[{"problems": []}, {"problems": []}, {"problems": []}]"#,
            "\(caps.out)\(caps.err)")
        let names = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, "names", out])
        let original = try run("/usr/bin/env", ["timeout", "180", "python3", oracle, "names", wqyPath])
        let new = try JSONSerialization.jsonObject(with: Data(names.out.utf8)) as? [[String: Any]] ?? []
        let old = try JSONSerialization.jsonObject(with: Data(original.out.utf8)) as? [[String: Any]] ?? []
        let newNames = Set(new.compactMap { ($0["debug"] as? [String: Any])?["6"] as? String })
        let oldNames = Set(old.compactMap { ($0["debug"] as? [String: Any])?["6"] as? String })
        #expect(newNames.count == 3 && newNames.isDisjoint(with: oldNames), "\(newNames) vs \(oldNames)")
        for face in 0..<3 {
            let ots = try run("/usr/bin/env", ["ots-sanitize", out, tmp.file("ots-\(face).ttc"), String(face)])
            #expect(ots.status == 0, "face \(face): \(ots.out)\(ots.err)")
        }
        let size = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? NSNumber)?.doubleValue ?? 0
        let before = (try FileManager.default.attributesOfItem(atPath: wqyPath)[.size] as? NSNumber)?.doubleValue ?? 1
        #expect(abs(size - before) / before < 0.01)
    }
}
