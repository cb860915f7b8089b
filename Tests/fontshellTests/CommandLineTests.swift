import Foundation
import Testing
@testable import fontshell

/// The fontshell executable end to end, as a user runs it.
@Suite struct CommandLineTests {
    func fontshell(_ args: String...) throws -> ProcessResult {
        try runFontshell(args)
    }

    @Test func infoOnTheDefaultFont() throws {
        let r = try fontshell("info")
        #expect(r.status == 0)
        #expect(r.out.contains("DejaVuSans") && r.out.contains("unitsPerEm:   2048") && r.out.contains("glyf"))
    }

    @Test func infoOnACollectionShowsSharing() throws {
        let r = try fontshell("info", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")
        #expect(r.status == 0)
        #expect(r.out.contains("collection of 3 faces"))
        #expect(r.out.contains("glyf") && r.out.contains("shared with faces 1, 2"))
    }

    /// `info --face` shows one face of a collection, by index or PostScript name, still naming
    /// the faces its tables are shared with; a face the font lacks is an error (issue 35, item 12).
    @Test func infoOnOneFace() throws {
        let wqy = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
        let second = try fontshell("info", wqy, "--face", "1")
        #expect(
            second.status == 0 && second.out.contains("face 1: ") && !second.out.contains("face 0: ") && !second.out.contains("face 2: "),
            "\(second.out)")
        #expect(second.out.contains("shared with faces 0, 2"), "\(second.out)")
        let name = try #require(second.out.split(separator: "\n").first { $0.hasPrefix("face 1: ") }).dropFirst("face 1: ".count)
        #expect(try fontshell("info", wqy, "--face", String(name)).out == second.out)
        let missing = try fontshell("info", wqy, "--face", "3")
        #expect(missing.status != 0 && missing.err.contains("no face 3: the font has 3 faces"), "\(missing.err)")
    }

    /// `subset --text-file` keeps the text's characters, not its line ends (as pyftsubset).
    @Test func subsetTextFilesIgnoreLineEnds() throws {
        let dir = NSTemporaryDirectory() + "fontshell-textfile-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "Hello\nWorld\r\n\u{10FFF0}\n".write(toFile: dir + "/text.txt", atomically: true, encoding: .utf8)
        let r = try fontshell(
            "subset", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "--text-file", dir + "/text.txt", "-o", dir + "/small.ttf")
        #expect(r.status == 0, "\(r.err)")
        let said = r.out + r.err
        #expect(said.contains("no glyph for 1 character: U+10FFF0") && !said.contains("U+000A") && !said.contains("U+000D"), "\(said)")
    }

    /// Parsing skips ArgumentParser's completion-script check unless the flag is given (see
    /// FontShell.main): help, usage in errors and the completion script still name the tool
    /// as "fontshell" alone.
    @Test func helpErrorsAndCompletionScriptsNameTheTool() throws {
        let help = try fontshell("instance", "--help")
        #expect(help.status == 0 && help.out.contains("USAGE: fontshell instance "), "\(help.out)")
        let helpCommand = try fontshell("help", "registry", "list")
        #expect(helpCommand.status == 0 && helpCommand.out.contains("USAGE: fontshell registry list"), "\(helpCommand.out)")
        let missing = try fontshell("instance")
        #expect(
            missing.status != 0 && missing.err.contains("Usage: fontshell instance ")
                && missing.err.contains("'fontshell instance --help'"), "\(missing.err)")
        let unknown = try fontshell("info", "--bogus")
        #expect(
            unknown.status != 0 && unknown.err.contains("Unknown option '--bogus'") && unknown.err.contains("Usage: fontshell info "),
            "\(unknown.err)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try fontshell("--generate-completion-script", shell)
            #expect(script.status == 0 && script.out.contains("fontshell") && script.out.contains("instance"), "\(shell): \(script.err)")
        }
        // Without a shell named, ArgumentParser picks one from $SHELL, which CI may not set.
        let bare = try run(fontshellBinary, ["--generate-completion-script"], environment: ["SHELL": "/bin/zsh"])
        #expect(bare.status == 0 && bare.out.contains("#compdef fontshell"), "\(bare.err)")
        let noShell = try run(fontshellBinary, ["--generate-completion-script"], environment: ["SHELL": ""])
        #expect(noShell.status != 0 && noShell.err.contains("zsh bash fish") && noShell.out.isEmpty, "\(noShell.err)")
    }

    @Test func badInputGivesAClearErrorAndNoOutput() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("wOFF and then some bytes".utf8).write(to: URL(fileURLWithPath: dir + "/x.woff"))
        let r = try fontshell("edit", dir + "/x.woff", "-o", dir + "/out.ttf", "--caps")
        #expect(r.status != 0)
        #expect(r.err.contains("x.woff") && r.err.contains("WOFF: the file is shorter than its 44-byte header"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.ttf"))
        let range = try fontshell(
            "edit", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "-o", dir + "/out.ttf", "--set", "hhea.ascender=40000")
        #expect(range.status != 0 && range.err.contains("Int16"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.ttf"))
        let missing = try fontshell("info", dir + "/nope.ttf")
        #expect(missing.status != 0 && missing.err.contains("nope.ttf"))
    }

    /// `save` writes WOFF by extension, and every command reads it.
    @Test func saveAndInfoSpeakWOFF() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = try fontshell("save", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", dir + "/d.woff")
        #expect(saved.status == 0, "\(saved.err)")
        let info = try fontshell("info", dir + "/d.woff")
        #expect(info.out.contains("TrueType, in a WOFF") && info.out.contains("face 0: DejaVuSans"), "\(info.out)")
        let lua = try fontshell("-e", "print(face:kerning('A', 'V'), #face.glyphs)", dir + "/d.woff")
        #expect(lua.out == "-131\t6253\n", "\(lua.out) \(lua.err)")
    }

    /// `save` writes WOFF2 by extension or --format, with Brotli settings; collections too;
    /// every command reads the result; a format the name contradicts is refused.
    @Test func saveAndInfoSpeakWOFF2() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let saved = try fontshell("save", dejavu, "-o", dir + "/d.woff2", "--quality", "5")
        #expect(
            saved.status == 0 && saved.out.contains("container: WOFF2, Brotli quality 5; glyf/loca transformed"),
            "\(saved.out) \(saved.err)")
        let info = try fontshell("info", dir + "/d.woff2")
        #expect(info.out.contains("TrueType, in a WOFF2") && info.out.contains("face 0: DejaVuSans"), "\(info.out)")
        let lua = try fontshell("-e", "print(font.webFormat, face:kerning('A', 'V'), #face.glyphs)", dir + "/d.woff2")
        #expect(lua.out == "woff2\t-131\t6253\n", "\(lua.out) \(lua.err)")
        let back = try fontshell("save", dir + "/d.woff2", dir + "/d.ttf")
        #expect(back.status == 0 && !back.out.contains("container"), "\(back.out) \(back.err)")
        let ttc = try fontshell("save", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", dir + "/w.woff2", "--quality", "1")
        #expect(ttc.status == 0, "\(ttc.err)")
        #expect(try fontshell("info", dir + "/w.woff2").out.contains("collection of 3 faces, in a WOFF2"))
        let clash = try fontshell("save", dejavu, dir + "/x.ttf", "--format", "woff2")
        #expect(clash.status != 0 && clash.err.contains("make them agree"), "\(clash.err)")
        let badQuality = try fontshell("save", dejavu, dir + "/x.woff2", "--quality", "20")
        #expect(badQuality.status != 0 && badQuality.err.contains("0...11"), "\(badQuality.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.woff2"))
    }

    /// `subset` cuts a face to characters and glyphs into any container and says what the
    /// closure added and what the face lacks; `slice` writes WOFF2 slices and their CSS.
    @Test func subsetAndSlice() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let r = try fontshell("subset", dejavu, "--text", "office", "--unicodes", "U+10FFFD", "--glyphs", "A,5", "-o", dir + "/s.woff2")
        #expect(
            r.status == 0 && r.out.contains("kept 11 of 6253 glyphs (3 added by components and the layout closure)")
                && r.out.contains("no glyph for 1 character: U+10FFFD") && r.out.contains("container: WOFF2"), "\(r.out) \(r.err)")
        let info = try fontshell("info", dir + "/s.woff2")
        #expect(info.out.contains("TrueType, in a WOFF2"), "\(info.out)")
        let nothing = try fontshell("subset", dejavu, "-o", dir + "/n.ttf")
        #expect(nothing.status != 0 && nothing.err.contains("nothing to keep"), "\(nothing.err)")
        let badGlyph = try fontshell("subset", dejavu, "--glyphs", "nosuchglyph", "-o", dir + "/n.ttf")
        #expect(badGlyph.status != 0 && badGlyph.err.contains("no glyph named 'nosuchglyph'"), "\(badGlyph.err)")
        let badRange = try fontshell("subset", dejavu, "--unicodes", "U+7E-20", "-o", dir + "/n.ttf")
        #expect(badRange.status != 0 && badRange.err.contains("runs backwards"), "\(badRange.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/n.ttf"))
        let sliced = try fontshell("slice", dejavu, "-o", dir + "/web", "--chars-per-slice", "1000", "--quality", "2")
        #expect(sliced.status == 0 && sliced.out.contains("WOFF2 slices"), "\(sliced.out) \(sliced.err)")
        #expect(
            FileManager.default.fileExists(atPath: dir + "/web/DejaVuSans.css")
                && FileManager.default.fileExists(atPath: dir + "/web/DejaVuSans.0.woff2"))
    }

    @Test func editWritesTheReport() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try fontshell(
            "edit", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "-o", dir + "/caps.ttf", "--caps", "--rename", "DejaVu Caps")
        #expect(r.status == 0, "\(r.err)")
        // The caps edit carries layout (and the report names the lookups it changed) and kern pairs.
        #expect(
            r.out.contains(
                "re-encoded: GPOS (lookups 13, 14 changed), GSUB (lookups 3, 18, 22, 23, 24, 29, 30, 33 changed), glyf, hmtx, kern, loca, name"
            ), "\(r.out)")
        let info = try fontshell("info", dir + "/caps.ttf")
        #expect(info.out.contains("face 0: DejaVuCaps\n"))
    }
}

@Suite struct PreviewCommandTests {
    @Test func previewWritesAPNGAndReportsTheLabel() throws {
        let tmp = try TemporaryFolder()
        let r = try runFontshell([
            "preview", dejavuPath, "Hello", "--label", "200x44", "--scale", "2", "--size", "17", "--guides", "-o", tmp.file("l.png"),
        ])
        #expect(r.status == 0 && r.out.contains("wrote 400x") && r.out.contains("capCenterOffset"), "\(r.out)\(r.err)")
        let png = try Data(contentsOf: URL(fileURLWithPath: tmp.file("l.png")))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func compareExitsLikeDiff() throws {
        let tmp = try TemporaryFolder()
        let lowered = tmp.file("low.ttf")
        #expect(try runFontshell(["edit", dejavuPath, "--set", "hhea.ascender=1500", "-o", lowered]).status == 0)
        let same = try runFontshell([
            "preview", "--compare", dejavuPath, dejavuPath, "Hamburg", "--label", "200x44", "-o", tmp.file("same.png"),
        ])
        #expect(same.status == 0 && same.out.contains("changed pixels: 0 of"), "\(same.out)\(same.err)")
        let changed = try runFontshell([
            "preview", "--compare", dejavuPath, lowered, "Hamburg", "--label", "200x44", "-o", tmp.file("c.png"),
        ])
        #expect(changed.status == 1 && changed.out.contains("changed area"), "\(changed.out)\(changed.err)")
        let diff = try runFontshell(["diff", "--png", tmp.file("d.png"), dejavuPath, lowered, "Hamburg"])
        #expect(
            diff.status == 1 && diff.out.contains("hhea.ascender: 1901 → 1500") && diff.out.contains("preview: changed pixels"),
            "\(diff.out)\(diff.err)")
        #expect(FileManager.default.fileExists(atPath: tmp.file("d.png")))
        // A change that moves a guide but no ink (OS/2's cap height) is no change with --guides:
        // the guides are drawn, not counted (issue 35, item 4).
        let roboto = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", capped = tmp.file("cap.ttf")
        #expect(try runFontshell(["edit", roboto, "--set", "OS/2.sCapHeight=1200", "-o", capped]).status == 0)
        let guides = try runFontshell([
            "preview", "--compare", roboto, capped, "Hamburg", "--label", "200x44", "--guides", "-o", tmp.file("g.png"),
        ])
        #expect(guides.status == 0 && guides.out.contains("changed pixels: 0 of"), "\(guides.out)\(guides.err)")
        let moved = try runFontshell([
            "preview", "--compare", dejavuPath, lowered, "Hamburg", "--label", "200x44", "--guides", "-o", tmp.file("m.png"),
        ])
        #expect(moved.status == 1, "\(moved.out)")
    }

    @Test func badInputFailsWithoutWritingAFile() throws {
        let tmp = try TemporaryFolder()
        let out = tmp.file("x.png")
        for (args, message) in [
            (["--platform", "mac", "--label", "20x20"], "unknown platform 'mac'"), (["--size=-2"], "size must be a positive"),
            (["--label", "20by20"], "--label must be WIDTHxHEIGHT"),
        ] {
            let r = try runFontshell(["preview", dejavuPath, "x", "-o", out] + args)
            #expect(r.status != 0 && r.err.contains(message), "\(args): \(r.err)")
        }
        let empty = try runFontshell(["preview", dejavuPath, "", "-o", out])
        #expect(empty.status != 0 && empty.err.contains("text is empty"))
        let noDir = try runFontshell(["preview", dejavuPath, "x", "-o", tmp.file("missing/x.png")])
        #expect(noDir.status != 0 && noDir.err.contains("missing/x.png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
    }
}

/// Issue 36, item 2: one way out of every command. Given a file that does not exist, each
/// subcommand says so in exactly one line starting "fontshell COMMAND:" and exits with the
/// status the README documents: 1 for trouble, 2 for the commands whose 1 means findings.
@Suite struct OneWayOutTests {
    @Test func everySubcommandReportsAMissingInputTheSameWay() throws {
        let tmp = try TemporaryFolder()
        let missing = tmp.file("no-such-font.ttf")
        let commands: [(name: String, args: [String], status: Int32)] = [
            ("repl", ["repl", missing], 1),
            ("run", ["run", tmp.file("no-such-script.lua")], 1),
            ("info", ["info", missing], 1),
            ("edit", ["edit", missing, "-o", tmp.file("e.ttf"), "--caps"], 1),
            ("save", ["save", missing, tmp.file("s.ttf")], 1),
            ("subset", ["subset", missing, "--text", "a", "-o", tmp.file("sub.ttf")], 1),
            ("slice", ["slice", missing, "-o", tmp.file("slices")], 1),
            ("instance", ["instance", missing, "wght=400", "-o", tmp.file("i.ttf")], 1),
            ("dump", ["dump", missing], 1),
            ("fuse", ["fuse", missing, tmp.file("x.ttx"), "-o", tmp.file("f.ttf")], 1),
            ("fea", ["fea", missing, tmp.file("x.fea"), "-o", tmp.file("f.ttf")], 1),
            ("preview", ["preview", missing, "abc", "-o", tmp.file("p.png")], 1),
            ("registry", ["registry", "register", missing], 1),
            ("validate", ["validate", missing], 2),
            ("check", ["check", missing], 2),
            ("diff", ["diff", missing, missing], 2),
        ]
        for c in commands {
            let r = try runFontshell(c.args)
            let lines = r.err.split(separator: "\n")
            #expect(r.status == c.status, "\(c.name): status \(r.status)")
            #expect(lines.count == 1 && lines[0].hasPrefix("fontshell \(c.name): ") && lines[0].contains("no-such-"), "\(c.name): \(r.err)")
            #expect(r.out.isEmpty, "\(c.name) printed \(r.out)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty, "nothing was written")
        // Every user-facing command is in the list above.
        let names = FontShell.documentedConfiguration.subcommands.compactMap { $0.configuration.commandName }.filter {
            $0 != "batch-worker"
        }
        #expect(Set(names) == Set(commands.map(\.name)))
    }

    /// Every command and registry subcommand ends through FontShellCommand.run, the one place
    /// outcomes become statuses (the batch worker, internal, and the registry group excepted).
    @Test func everyCommandEndsThroughOnePlace() {
        let commands =
            FontShell.documentedConfiguration.subcommands.filter { $0 != BatchWorker.self && $0 != Registry.self }
            + Registry.configuration.subcommands
        for command in commands {
            #expect(command is any FontShellCommand.Type, "\(command) is not a FontShellCommand")
        }
        #expect(Registry.configuration.subcommands.allSatisfy { ($0 as? any FontShellCommand.Type)?.messageName == "registry" })
        #expect(Validate.judges && Check.judges && Diff.judges && !Edit.judges)
    }
}
