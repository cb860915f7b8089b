import Foundation
import ArgumentParser
import Testing
@testable import fontshell
import FontScript

/// The quick readers of `instance`, `subset`, `run` and the REPL (QuickCommandLine.swift) must read every plain
/// command line as ArgumentParser does, and hand everything else to ArgumentParser.
@Suite struct QuickCommandLineTests {
    /// Both readers' results, printed property by property (ArgumentParser's property wrappers
    /// print their values, or "*definition*" for one never set).
    func both<C: ParsableCommand>(_ reader: QuickCommandLine<C>, _ arguments: [String]) throws -> (quick: String?, argumentParser: String) {
        let quick = reader.parse(arguments).map { String(describing: $0) }
        return (quick, String(describing: try C.parse(arguments)))
    }

    func expectSame<C: ParsableCommand>(_ reader: QuickCommandLine<C>, _ lines: [[String]]) throws {
        for line in lines {
            let (quick, argumentParser) = try both(reader, line)
            #expect(quick != nil, "the quick reader gave up on \(line)")
            #expect(quick == argumentParser, "\(line)")
            #expect(!(quick ?? "").contains("definition"), "a property left unset: \(quick ?? "")")
        }
    }

    /// Every option of the table, alone and together, in different places among the operands.
    @Test func plainCommandLinesReadAsArgumentParserReadsThem() throws {
        let lines: [[String]] = [
            ["Font.ttf"],
            ["Font.ttf", "wght=700", "-o", "out.ttf"],
            ["-o", "out.ttf", "Font.ttf", "wght=700", "wdth=75:100"],
            ["Font.ttf", "--output", "out dir/a.ttf", "wght=300:700", "--partial", "--no-optimize"],
            ["--all", "-o", "folder", "Font.ttf"],
            ["Font.ttf", "opsz=14", "--strict", "--keep-names", "--no-overlap-flags", "--rewrite-layout", "-o", "x.ttf"],
            ["Font.otf", "--downgrade-cff2", "wght=700", "--overwrite", "-o", "Font.otf"],
            ["--face", "2", "Fonts.ttc", "wght=700", "-o", "x.ttf"],
            ["--face", "Inter-Roman", "Font.ttf", "slnt=-10", "-o", "x.ttf"],
            ["Font.ttf", "wght=700", "-o", ""],
        ]
        try expectSame(InstanceCommand.quickCommandLine, lines)
    }

    /// `subset`: every option, alone and together, before and after the font.
    @Test func plainSubsetLinesReadAsArgumentParserReadsThem() throws {
        try expectSame(
            SubsetCommand.quickCommandLine,
            [
                ["Font.ttf", "-o", "out.ttf", "--text", "Hello"],
                ["--text-file", "chars.txt", "--face", "0", "Fonts.ttc", "--output", "out.woff2", "--quality", "5"],
                ["Font.ttf", "--unicodes", "U+0020-007E", "--glyphs", "A,B,5", "--features", "*", "--keep", "name,DSIG", "-o", "x.otf"],
                ["Font.ttf", "--no-layout-closure", "--retain-gids", "--no-hinting", "--overwrite", "-o", "Font.ttf", "--text", "a b"],
                ["--face", "NotoSansCJKjp-Regular", "Fonts.ttc", "--text", "", "-o", "x.otf"],
            ])
        for line in [
            ["Font.ttf", "-o", "x.ttf", "--quality", "high"], ["Font.ttf", "Other.ttf", "-o", "x.ttf"],
            ["Font.ttf", "--text", "-", "-o", "x"],
        ] {
            #expect(SubsetCommand.quickCommandLine.parse(line) == nil, "\(line)")
        }
    }

    /// `run`: options before the script, and everything after it the script's, even words that
    /// look like options (BatchOptions takes `--each` and its company out of them later).
    @Test func plainRunLinesReadAsArgumentParserReadsThem() throws {
        try expectSame(
            Run.quickCommandLine,
            [
                ["edit.lua"],
                ["edit.lua", "Font.ttf", "out.ttf"],
                ["edit.lua", "--each", "fonts/**/*.ttf", "-j", "2", "--quiet", "--", "a", "--b"],
                ["--sandbox", "check.lua", "x", "--sandbox", "--help", "--version", "-", "--"],
                ["--each", "fonts", "-j", "3", "--shard", "1/4", "--timeout", "2.5", "--jsonl", "--quiet", "s.lua", "arg"],
                ["--jobs", "007", "--timeout", "1e1", "s.lua"],
                ["--each", "a b/*.otf", "s.lua", "--each", "more/*.ttf"],
            ])
    }

    /// The default command: `-e` chunks (repeatable), `-i`, fonts or a script with its arguments.
    @Test func plainReplLinesReadAsArgumentParserReadsThem() throws {
        try expectSame(
            Repl.quickCommandLine,
            [
                [], ["Font.ttf"], ["-e", "print(1)"], ["-e", "a = 1", "-e", "print(a)", "A.ttf", "B.otf"],
                ["A.ttf", "-e", "print(face)", "-i"], ["-i"], ["edit.lua", "in.ttf", "out.ttf"], ["-e", ""],
            ])
        for line in [["-e"], ["-e", "-1"], ["-i", "-i"], ["--help"], ["-h"], ["--version"], ["Font.ttf", "--bogus"], ["-ex"]] {
            #expect(Repl.quickCommandLine.parse(line) == nil, "\(line)")
        }
    }

    /// A command line goes to the quick reader of the command it names, and to the REPL's when
    /// its first word names no command; other commands and `help` go to ArgumentParser.
    @Test func theFirstWordChoosesTheReader() {
        #expect(quickCommand(["-e", "print(1)"]) is Repl)
        #expect(quickCommand([]) is Repl)
        #expect(quickCommand(["Font.ttf"]) is Repl)
        #expect(quickCommand(["repl", "-e", "x"]) is Repl)
        #expect(quickCommand(["run", "s.lua"]) is Run)
        #expect(quickCommand(["instance", "F.ttf", "wght=700", "-o", "x.ttf"]) is InstanceCommand)
        #expect(quickCommand(["dump", "F.ttf", "-t", "head"]) is Dump)
        #expect(quickCommand(["info"]) is Info)
        #expect(quickCommand(["edit", "F.ttf", "--caps", "-o", "x.ttf"]) is Edit)
        for line in [["dump", "F.ttf", "--help"], ["help"], ["check", "F.ttf"], ["fuse", "F.ttf"], ["registry", "list"], ["--version"]] {
            #expect(quickCommand(line) == nil, "\(line)")
        }
        // The names the quick readers know are the subcommands ArgumentParser knows.
        #expect(FontShell.commandNames == FontShell.documentedConfiguration.subcommands.compactMap { $0.configuration.commandName })
    }

    /// `dump`, `info` and `edit`: every option, repeatable ones repeated.
    @Test func plainDumpInfoAndEditLinesReadAsArgumentParserReadsThem() throws {
        try expectSame(
            Dump.quickCommandLine,
            [
                ["F.ttf"], ["F.ttf", "-t", "head", "-t", "OS/2", "-o", "x.ttx"], ["--face", "1", "-t", "CFF ", "F.ttc"],
                ["F.ttc", "--all-faces", "--dir", "out dir"], ["F.ttf", "--output", "a.ttx"],
            ])
        try expectSame(Info.quickCommandLine, [[], ["F.ttf"], ["--face", "Inter-Roman", "F.ttc"]])
        try expectSame(
            Edit.quickCommandLine,
            [
                ["F.ttc", "-o", "Caps.ttc", "--caps", "--family-suffix", " Caps"],
                ["F.ttc", "--output", "T.ttc", "--face", "3", "--set", "hhea.ascender=900", "--set", "hhea.descender=-200"],
                ["F.ttf", "--in-place", "--force", "--rename", "New Family", "--unshare"],
            ])
        for line in [["F.ttf", "G.ttf"], ["-t", "head"], ["F.ttf", "-t"], ["F.ttf", "--face", "1", "--face", "2"]] {
            #expect(Dump.quickCommandLine.parse(line) == nil, "\(line)")
        }
        #expect(Info.quickCommandLine.parse(["a.ttf", "b.ttf"]) == nil)
        for line in [["F.ttf", "-o", "x", "--caps", "--caps"], ["-o", "x.ttf"], ["F.ttf", "--set"]] {
            #expect(Edit.quickCommandLine.parse(line) == nil, "\(line)")
        }
    }

    /// Help, other spellings, unknown, repeated and incomplete options go to ArgumentParser.
    @Test func anythingElseIsLeftToArgumentParser() {
        let lines: [[String]] = [
            [], ["--help"], ["-h"], ["Font.ttf", "--help"], ["--version"],
            ["Font.ttf", "--output=out.ttf"], ["Font.ttf", "-o"], ["Font.ttf", "-o", "-x.ttf"],
            ["Font.ttf", "-o", "a.ttf", "-o", "b.ttf"], ["Font.ttf", "--all", "--all", "-o", "f"],
            ["Font.ttf", "--bogus"], ["--", "Font.ttf"], ["Font.ttf", "-"], ["Font.ttf", "-oout.ttf"],
            ["Font.ttf", "--experimental-dump-help"], ["Font.ttf", "--generate-completion-script", "bash"],
        ]
        for line in lines {
            #expect(InstanceCommand.quickCommandLine.parse(line) == nil, "\(line)")
        }
        let runLines: [[String]] = [
            [], ["--help"], ["--each", "a", "--each", "b", "s.lua"], ["-j", "two", "s.lua"], ["-j", "-1", "s.lua"],
            ["--timeout", "soon", "s.lua"], ["-j2", "s.lua"], ["--each=a", "s.lua"], ["--", "s.lua"], ["--each", "fonts"],
        ]
        for line in runLines {
            #expect(Run.quickCommandLine.parse(line) == nil, "\(line)")
        }
    }

    /// Every option ArgumentParser knows for `instance`, `subset`, `run` and `repl` is in their quick tables, so
    /// adding one to a command without its table (which would send its users the slow way)
    /// fails here.
    @Test func theTablesCoverEveryOption() throws {
        #expect(try options(of: "instance") == Set(InstanceCommand.quickCommandLine.options.flatMap(\.names)))
        #expect(try options(of: "run") == Set(Run.quickCommandLine.options.flatMap(\.names)))
        #expect(try options(of: "subset") == Set(SubsetCommand.quickCommandLine.options.flatMap(\.names)))
        #expect(try options(of: "repl") == Set(Repl.quickCommandLine.options.flatMap(\.names)))
        #expect(try options(of: "dump") == Set(Dump.quickCommandLine.options.flatMap(\.names)))
        #expect(try options(of: "info") == Set(Info.quickCommandLine.options.flatMap(\.names)))
        #expect(try options(of: "edit") == Set(Edit.quickCommandLine.options.flatMap(\.names)))
    }

    /// The batch options are one table (BatchOptions.table): `run` declares every one of them
    /// and `check` those that are not `run`'s own, so the three readers (ArgumentParser, the
    /// quick reader, the words after `run`'s script) cannot drift apart.
    @Test func theBatchOptionsAreOneTable() throws {
        let all = Set(BatchOptions.table.flatMap(\.names))
        let shared = Set(BatchOptions.table.filter { !$0.runOnly }.flatMap(\.names))
        #expect(all.isSubset(of: try options(of: "run")))
        let check = try options(of: "check")
        #expect(shared.isSubset(of: check))
        #expect(check.isDisjoint(with: all.subtracting(shared)))
        // Each spelling reads the same by all three: before the script by ArgumentParser and by
        // the quick reader, after it by BatchOptions.absorb.
        let samples = ["--each": "f", "-j": "3", "--jobs": "3", "--shard": "1/2", "--timeout": "2.5"]
        for option in BatchOptions.table {
            for name in option.names {
                let words = ["--each", "f"] + (name == "--each" ? [] : [name] + (samples[name].map { [$0] } ?? []))
                let byArgumentParser = try Run.parse(words + ["s.lua"]).batchOptions
                let byQuickReader = try #require(Run.quickCommandLine.parse(words + ["s.lua"]), "\(name)").batchOptions
                var afterScript = BatchOptions()
                #expect(try afterScript.absorb(words + ["--", "kept"]) == ["kept"], "\(name)")
                #expect(byArgumentParser == byQuickReader, "\(name)")
                #expect(byArgumentParser == afterScript, "\(name)")
                #expect(name == "--each" || byArgumentParser != BatchOptions(each: ["f"]), "\(name) changed nothing")
            }
        }
    }

    /// The options ArgumentParser knows for a command, from `--experimental-dump-help`.
    func options(of commandName: String) throws -> Set<String> {
        let r = try runFontshell([commandName, "--experimental-dump-help"])
        #expect(r.status == 0, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let command = try #require(json["command"] as? [String: Any])
        var known: Set<String> = []
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
            guard argument["kind"] as? String != "positional" else { continue }
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String, let kind = name["kind"] as? String else { continue }
                known.insert((kind == "short" ? "-" : "--") + text)
            }
        }
        // ArgumentParser's own: help and the dump itself take the slow way on purpose.
        known.subtract(["-h", "--help", "--version", "--experimental-dump-help"])
        #expect(!known.isEmpty)
        return known
    }
}
