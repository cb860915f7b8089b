import Foundation
import Testing

/// Round 3 of attacks as a hostile user would make them, one test per class (docs/reliability.md
/// lists them): each tries the reported form and a variant of it, and checks that inputs are
/// unchanged and nothing was written where it should not be.
@Suite struct HostileUserTests {
    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: Writes in the wrong place

    /// Every writer refuses a destination that is one of its inputs, however it is spelled.
    @Test func noWriterReplacesItsInput() throws {
        let dir = try TemporaryFolder()
        let font = dir.file("z.ttf")
        try FileManager.default.copyItem(atPath: dejavuPath, toPath: font)
        try FileManager.default.linkItem(atPath: font, toPath: dir.file("hard.ttf"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.ttf"), withDestinationPath: "z.ttf")
        let original = try #require(bytes(font))
        let spellings = [
            font, dir.path + "/./z.ttf", dir.path + "/../" + URL(fileURLWithPath: dir.path).lastPathComponent + "/z.ttf",
            dir.file("hard.ttf"), dir.file("link.ttf"),
        ]
        for target in spellings {
            for format in ["text", "json", "sarif", "junit"] {
                let r = try runFontshell(["check", font, "--only", "names", "--format", format, "-o", target])
                #expect(r.status == 2 && r.err.contains("one of the fonts"), "\(target) \(format): \(r.err)")
            }
            // A glob's fonts are all inputs, not only the first.
            let glob = try runFontshell(["check", dir.path + "/*.ttf", "--only", "names", "-o", target])
            #expect(glob.status == 2, "\(glob.err)")
        }
        // Files read besides the font: a text file for subset, a slices file, a script.
        let text = try dir.write("text.txt", "Hello")
        let subset = try runFontshell(["subset", font, "--text-file", text, "-o", text])
        #expect(subset.status == 1 && subset.err.contains("input"), "\(subset.err)")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "Hello")
        let script = try dir.write("s.lua", "fontshell.open(arg[1]):save(arg[0])")
        let run = try runFontshell(["run", script, font])
        #expect(run.status != 0 && run.err.contains("input"), "\(run.err)")
        #expect(try String(contentsOfFile: script, encoding: .utf8) == "fontshell.open(arg[1]):save(arg[0])")
        #expect(bytes(font) == original)
    }

    /// A name the tool derives (check --fix's NAME.fixed.ttf) is not written through a link
    /// planted there.
    @Test func derivedNamesAreNotFollowedThroughSymlinks() throws {
        let dir = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let font = dir.file("Bad.ttf")
        // A font a check can fix: hhea.advanceWidthMax below the widest advance.
        let edit = try runFontshell(["edit", dejavuPath, "-o", font, "--set", "hhea.advanceWidthMax=10"])
        try #require(edit.status == 0, "\(edit.err)")
        let victim = try outside.write("victim.ttf", "precious")
        try FileManager.default.createSymbolicLink(atPath: dir.file("Bad.fixed.ttf"), withDestinationPath: victim)
        let r = try runFontshell(["check", font, "--fix", "--only", "metrics/max-advance-width", "--format", "json"])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(r.out.contains("symlink"), "\(r.out)")
        #expect(r.status == 1)
    }

    /// Names taken from fonts or options become safe file names inside the folder given, and the
    /// stylesheet's strings and comments cannot be broken out of.
    @Test func sliceNamesStayInTheFolderAndTheCSSStaysInert() throws {
        let dir = try TemporaryFolder()
        let out = dir.file("a/b/out")
        let family = "Evil */ body{color:red} /*\n}x{\"\\"
        for name in ["../../pwned", "", "...", "a/b\u{7}c", String(repeating: "é", count: 300)] {
            let r = try runFontshell([
                "slice", dejavuPath, "-o", out, "--name", name, "--family", family, "--chars-per-slice", "20000", "--quality", "1",
            ])
            #expect(r.status == 0, "\(name): \(r.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("a")) == ["b"])
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!files.contains { $0.hasPrefix(".") || $0.contains("\u{7}") || $0.utf8.count > 200 }, "\(files)")
        #expect(files.contains("pwned.css") || files.contains("_.._pwned.css"), "\(files)")
        let css = try String(contentsOfFile: out + "/font.css", encoding: .utf8)
        // The family's "*/" is inside a string (escaped) or broken up in the comment; its line
        // break is an escape, so every rule is one of ours.
        #expect(!css.contains("red} /*\n") && css.contains("\\a "), "\(css.prefix(300))")
        let rules = css.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("}") && !$0.isEmpty }
        #expect(rules.allSatisfy { $0.hasPrefix("@font-face {") || $0.hasPrefix("/* ") }, "\(rules)")
        // A link planted at a name slice makes up is refused, not followed.
        let victim = try dir.write("victim.txt", "precious")
        try FileManager.default.createSymbolicLink(atPath: out + "/planted.0.woff2", withDestinationPath: victim)
        let planted = try runFontshell([
            "slice", dejavuPath, "-o", out, "--name", "planted", "--chars-per-slice", "20000", "--quality", "1",
        ])
        #expect(planted.status == 1 && planted.err.contains("symlink"), "\(planted.err)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    /// A sibling: `dump --dir` names its files after the font's PostScript name, which a font
    /// can set to "../../pwnd"; they stay in the folder, and `fuse --dir` finds them there.
    @Test func dumpFolderNamesStayInTheFolder() throws {
        let dir = try TemporaryFolder()
        let font = dir.file("pw.ttf"), folder = dir.file("a/b/xml")
        let made = try runFontshell(["-e", "face.name[6] = '../../pwnd'; font:save('\(font)', {force = true})", dejavuPath])
        try #require(made.status == 0, "\(made.err)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dump = try runFontshell(["dump", font, "--dir", folder, "-t", "head", "-t", "name"])
        #expect(dump.status == 0, "\(dump.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a", "pw.ttf"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("a")) == ["b"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count == 2 && files.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") }, "\(files)")
        let fuse = try runFontshell(["fuse", font, "--dir", folder, "-o", dir.file("fused.ttf")])
        #expect(fuse.status == 0, "\(fuse.err)")
    }

    /// `instance --all` never writes two instances to one file, and a custom instance away
    /// from the named ones is not named like one of them.
    @Test func instancesGetDistinctNames() throws {
        let dir = try TemporaryFolder()
        let clashing = dir.file("clashing.ttf"), twice = dir.file("twice.ttf")
        let builder = repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path
        try #require(try run("/usr/bin/env", ["python3", builder, "variable-clashing", clashing]).status == 0)
        try #require(try run("/usr/bin/env", ["python3", builder, "variable-twice", twice]).status == 0)
        let r = try runFontshell(["instance", clashing, "--all", "-o", dir.file("all")])
        #expect(r.status == 0, "\(r.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.file("all")).sorted()
        // Five named instances, five files (case-insensitively distinct), none hidden or outside.
        #expect(files.count == 5 && Set(files.map { $0.lowercased() }).count == 5, "\(files)")
        #expect(!files.contains { $0.hasPrefix(".") }, "\(files)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["all", "clashing.ttf", "twice.ttf"])
        // A repeated axis tag is refused by name, for --all and for one location.
        for args in [["--all", "-o", dir.file("twice")], ["wght=700", "-o", dir.file("twice.out.ttf")]] {
            let t = try runFontshell(["instance", twice] + args)
            #expect(t.status == 1 && t.err.contains("more than once"), "\(t.status) \(t.err)")
        }
        // Inter at wght=700 slnt=-5: no STAT value names slnt -5, so the coordinate shows.
        let inter = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
        let slanted = try runFontshell(["instance", inter, "wght=700", "slnt=-5", "-o", dir.file("s.ttf")])
        let upright = try runFontshell(["instance", inter, "wght=700", "-o", dir.file("u.ttf")])
        #expect(slanted.status == 0 && upright.status == 0, "\(slanted.err) \(upright.err)")
        #expect(
            upright.out.contains("Inter-Bold at") && slanted.out.contains("slnt") && !slanted.out.contains("Inter-Bold at"),
            "\(slanted.out)")
    }

    // MARK: Work that grows with the input

    /// A collection of 5,000 faces on one directory (22 KB): info, validate and a WOFF2 of it
    /// finish, and info's lines do not grow with the face count (the shared-table lists are cut).
    @Test func collectionsOfManyFacesStayLinear() throws {
        let dir = try TemporaryFolder()
        let tiny = dir.file("tiny.ttf"), many = dir.file("many.ttc")
        try #require(try runFontshell(["subset", dejavuPath, "--text", "A", "-o", tiny]).status == 0)
        let make = try run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import struct, sys
                data = open(sys.argv[1], 'rb').read(); n = 5000
                start = 12 + 4 * n
                count = struct.unpack('>H', data[4:6])[0]
                d = bytearray(data[:12 + 16 * count])
                for i in range(count):
                    struct.pack_into('>I', d, 12 + 16 * i + 8, struct.unpack('>I', d[12 + 16 * i + 8:12 + 16 * i + 12])[0] + start)
                open(sys.argv[2], 'wb').write(b'ttcf' + struct.pack('>HHI', 1, 0, n) + struct.pack('>' + 'I' * n, *([start] * n)) + bytes(d) + data[len(d):])
                """, tiny, many,
            ])
        try #require(make.status == 0, "\(make.err)")
        let info = try runFontshell(["info", many])
        #expect(info.status == 0, "\(info.err)")
        let lines = info.out.split(separator: "\n")
        #expect(info.out.hasPrefix("\(many): collection of 5000 faces"))
        #expect(lines.count > 5000 * 10 && lines.allSatisfy { $0.utf8.count < 200 }, "\(lines.max { $0.count < $1.count } ?? "")")
        #expect(info.out.contains("shared with faces 0, 1, 2, 3, 4, 5, 6, 7 and 4991 more"))
        let woff2 = dir.file("many.woff2")
        #expect(try runFontshell(["save", many, woff2]).status == 0)
        let again = try runFontshell(["info", woff2])
        #expect(again.status == 0 && again.out.contains("collection of 5000 faces"), "\(again.err)")
        #expect(try runFontshell(["validate", many]).status < 2)
    }

    // MARK: Batch runs against their scripts

    /// Three fonts in a folder, and a script file.
    func batch(_ script: String) throws -> (TemporaryFolder, String) {
        let dir = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: dir.file("lib"), withIntermediateDirectories: true)
        for name in ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSans-Bold.ttf"] {
            try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/" + name, toPath: dir.file("lib/" + name))
        }
        return (dir, try dir.write("s.lua", script))
    }

    /// `fontshell run … --each` under a watchdog: status 124 means it hung.
    func runBatch(_ dir: TemporaryFolder, _ script: String, _ extra: [String] = [], input: String? = nil) throws -> ProcessResult {
        try run(
            "/usr/bin/timeout", ["60", fontshellBinary, "run", script, "--each", dir.file("lib/*.ttf"), "--jsonl"] + extra, input: input)
    }

    func alive(_ marker: String) throws -> Bool {
        try run("/usr/bin/pgrep", ["-f", marker]).status == 0
    }

    /// A script reading stdin gets /dev/null, not the workers' task list.
    @Test func scriptsReadingStdinDoNotTakeTheTasks() throws {
        let (dir, script) = try batch(
            "local all = io.read('a'); local line = io.stdin:read('l'); return {read = #(all or '') + #(line or '')}")
        let r = try runBatch(dir, script, ["-j", "1"], input: "typed by the user\n")
        #expect(r.status == 0, "\(r.status) \(r.err)")
        #expect(
            r.out.split(separator: "\n").count == 3 && r.out.split(separator: "\n").allSatisfy { $0.contains("\"read\":0") }, "\(r.out)")
    }

    /// What a script starts ends with its worker: at a timeout, and when the worker is done.
    @Test func childProcessesDoNotOutliveTheirWorker() throws {
        let (dir, looping) = try batch("os.execute('sleep 98.7612'); return {}")
        let r = try runBatch(dir, looping, ["--timeout", "1"])
        #expect(r.status == 1 && r.out.contains("timed out"), "\(r.status) \(r.err)")
        #expect(try !alive("sleep 98.7612"))
        // A background child: the run ends at once (the child holds no channel) and is killed.
        let background = try dir.write("bg.lua", "os.execute('sleep 97.6523 &'); os.execute('(sleep 96.5434 &) ; true'); return {}")
        let start = Date()
        let b = try runBatch(dir, background)
        #expect(b.status == 0 && Date().timeIntervalSince(start) < 30, "\(b.status) \(b.err)")
        #expect(try !alive("sleep 97.6523") && !alive("sleep 96.5434"))
    }

    /// Ctrl-C (or SIGTERM) on the parent ends every worker's group: the terminal's signal no
    /// longer reaches the workers themselves.
    @Test func interruptingTheParentEndsTheWorkers() throws {
        let (dir, script) = try batch("os.execute('sleep 95.4345'); while true do end")
        for sig in [SIGINT, SIGTERM] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: fontshellBinary)
            p.arguments = ["run", script, "--each", dir.file("lib/*.ttf"), "--jsonl"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            var waited = 0
            while try !alive("sleep 95.4345"), waited < 100 { usleep(50_000); waited += 1 }
            #expect(try alive("sleep 95.4345"))
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == sig)
            waited = 0
            while try alive("sleep 95.4345") || alive("batch-worker script " + script), waited < 40 { usleep(50_000); waited += 1 }
            #expect(try !alive("sleep 95.4345") && !alive("batch-worker script " + script))
        }
    }

    /// Writing to the results descriptor (garbage, or a line without an end) fails that font
    /// and stops its worker; the others go on.
    @Test func aScriptWritingTheResultChannelFailsItsFont() throws {
        for write in ["string.rep('x', 100000)", "'garbage\\n'", "'99\\t0\\t{}\\n'"] {
            let (dir, script) = try batch(
                """
                local name = fontshell and arg and font and font.path or ''
                if font.path:find('Serif') then local f = io.open('/dev/fd/3', 'w'); f:write(\(write)); f:flush() end
                return {}
                """)
            let r = try runBatch(dir, script)
            #expect(r.status == 1, "\(write): \(r.status) \(r.err)")
            let lines = r.out.split(separator: "\n")
            #expect(lines.count == 3, "\(write): \(r.out)")
            #expect(lines.filter { $0.contains("result channel") }.count == 1, "\(write): \(r.out)")
        }
    }

    /// A worker that crashes is one failure line on stderr, not a crash report.
    @Test func aCrashingWorkerIsOneLine() throws {
        let (dir, script) = try batch("if font.path:find('Serif') then os.execute('kill -SEGV $PPID') end return {}")
        let r = try runBatch(dir, script)
        #expect(r.status == 1 && r.out.contains("killed by signal 11"), "\(r.out)")
        #expect(r.err.split(separator: "\n").count <= 3, "\(r.err)")
    }

    // MARK: Silent acceptance

    /// `check --only` and `--profile` with a name no check has: an error with did-you-mean,
    /// not a run of nothing that passes.
    @Test func unknownCheckIdsAreRefused() throws {
        for (args, hint) in [
            (["--only", "names/nonexistent"], "no check or area has this id"), (["--only", "nams"], "did you mean 'names'"),
            (["-c", "metrics/xavgcharwidt"], "did you mean 'metrics/xavgcharwidth'"),
            (["--profile", "fontbaker"], "did you mean 'fontbakery'"),
        ] {
            let r = try runFontshell(["check", dejavuPath] + args)
            #expect(r.status == 2 && r.err.contains(hint) && r.out.isEmpty, "\(args): \(r.status) \(r.err)")
        }
        #expect(try runFontshell(["check", dejavuPath, "--only", "names", "--format", "json"]).status < 2)
    }

    /// A malformed FONTSHELL_LUA_MEMORY is an error before anything runs.
    @Test func aMalformedLuaMemoryLimitIsAnError() throws {
        for value in ["abc", "-5G", "99999999999999999999G", "12Q", "1.5G", "512K", "G", " 1G"] {
            let r = try run(fontshellBinary, ["-e", "print('ran')"], environment: ["FONTSHELL_LUA_MEMORY": value])
            #expect(r.status == 2 && r.err.contains("FONTSHELL_LUA_MEMORY") && !r.out.contains("ran"), "\(value): \(r.err)")
        }
        for value in ["512M", "4G", "1073741824", ""] {
            let r = try run(fontshellBinary, ["-e", "print('ran')"], environment: ["FONTSHELL_LUA_MEMORY": value])
            #expect(r.status == 0 && r.out == "ran\n", "\(value): \(r.err)")
        }
    }

    /// NaN and infinities from Lua are named as such, not as "number".
    @Test func nonFiniteNumbersAreNamed() throws {
        let inter = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
        let r = try runFontshell([
            "-e",
            """
            print(select(2, pcall(face.location, face, {wght = 0/0})))
            print(select(2, pcall(face.location, face, {wght = math.huge})))
            print(select(2, pcall(function() face.hhea.ascender = -math.huge end)))
            print(select(2, pcall(preview.text, face, "x", {size = 0/0})))
            """, inter,
        ])
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(r.out) \(r.err)")
        guard lines.count == 4 else { return }
        #expect(lines[0].hasSuffix("got NaN)") && lines[1].hasSuffix("got infinity)"), "\(lines)")
        #expect(lines[2].hasSuffix("got -infinity") && lines[3].hasSuffix("got NaN"), "\(lines)")
    }

    // MARK: Untrusted numbers and ranges

    /// Every spelling of a Unicode range is parsed without a trap; open ranges and surrogates
    /// are refused by name, and a subset with none of its characters is refused (OTS would
    /// reject its empty cmap).
    @Test func unicodeRangesAreCheckedNotTrapped() throws {
        let dir = try TemporaryFolder()
        let out = dir.file("s.ttf")
        for (spelling, message) in [
            ("-", "both ends"), ("--", "both ends"), ("U+0041-", "both ends"), ("-41", "both ends"),
            ("41-42-43", "both ends"), ("U+D800-DFFF", "surrogates"), ("DC00", "surrogates"),
            ("+41", "hex"), ("U+", "hex"), ("110000", "hex"), ("FFFFFFFFFFFFFFFFFFFF", "hex"),
            ("U+E800", "none of the"), ("7A-41", "backwards"),
        ] {
            let r = try runFontshell(["subset", dejavuPath, "--unicodes=" + spelling, "-o", out])
            #expect(r.status == 1 && r.err.contains(message), "\(spelling): \(r.status) \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(spelling)")
        }
        // A range across the surrogates keeps the characters either side.
        let across = try runFontshell(["subset", dejavuPath, "--unicodes", "U+D7FF-E000,41", "-o", out])
        #expect(across.status == 0, "\(across.err)")
        // Invalid UTF-8 in a text file is named, not decoded into U+FFFD.
        let text = dir.file("t.txt")
        try Data([0x41, 0x42, 0xFF, 0x43]).write(to: URL(fileURLWithPath: text))
        let bad = try runFontshell(["subset", dejavuPath, "--text-file", text, "-o", dir.file("t.ttf")])
        #expect(bad.status == 1 && bad.err.contains("not UTF-8") && bad.err.contains("offset 2"), "\(bad.err)")
    }
}
