import ArgumentParser
import FontModel
import FontScript
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fontshell [FONT ...]`, `fontshell -e CHUNK [FONT ...]`: the REPL or chunks, fonts bound.
struct Repl: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "The Lua REPL (the default command): fonts bound to font, face and fonts."
    )

    @Option(name: .customShort("e"), help: "Run this Lua chunk instead of the REPL (repeatable).") var chunks: [String] = []
    @Flag(name: .customShort("i"), help: "Enter the REPL after running -e chunks.") var interactive = false
    @Argument(help: "Fonts to open (default: DejaVu Sans). A first argument ending in .lua runs that script.")
    var fonts: [String] = []

    func outcome() throws -> Outcome {
        if let script = fonts.first, script.hasSuffix(".lua") {
            return .status(try runScript(script, arguments: Array(fonts.dropFirst()), interpreterArguments: []))
        }
        let lua = LuaState()
        try setUp(lua, fontPaths: fonts.isEmpty ? [defaultFontPath] : fonts)
        if !chunks.isEmpty { LuaState.installInterruptHandler() }
        for (i, chunk) in chunks.enumerated() {
            do {
                try lua.load(chunk, name: "=(command line)")
                try lua.callInterruptible()
                lua.stack.pop(lua.top)
                if let message = truncationMessage() { throw Trouble(message) }
            } catch let e as LuaError {
                return .status(reportScriptError(e))
            } catch let trouble as Trouble {
                throw trouble
            } catch {
                throw Trouble("-e chunk \(i + 1): \(error)")
            }
        }
        if chunks.isEmpty || interactive { REPL(lua: lua).run() }
        return .done
    }
}

extension Repl {
    /// `fontshell -e CHUNK [FONT ...]` and `fontshell SCRIPT.lua` without ArgumentParser
    /// (QuickCommandLine.swift): its reflection was a third of a `-e 'print(1)'` start.
    static var quickCommandLine: QuickCommandLine<Repl> {
        QuickCommandLine(
            defaults: {
                var command = Repl()
                (command.chunks, command.interactive, command.fonts) = ([], false, [])
                return command
            },
            options: [.values(["-e"]) { $0.chunks.append($1) }, .flag(["-i"]) { $0.interactive = true }],
            operands: { command, operands in
                command.fonts = operands
                return true
            })
    }
}

/// `fontshell run SCRIPT.lua [ARGS ...]`
struct Run: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Run a Lua script: arg[0] is the script, arg[1...] and ... its arguments; with --each, once per font on every core, JSON lines out (docs/batch.md)."
    )

    @Flag(
        help: "For a script you do not trust: nothing is written to disk, no registry, no io or os (but its clocks), no precompiled chunks."
    )
    var sandbox = false
    @Option(
        help: ArgumentHelp(
            "Run the script once per font these files name (a glob such as 'fonts/**/*.{ttf,otf,ttc}', a folder, or a file; repeatable), with font and face bound.",
            valueName: "glob"))
    var each: [String] = []
    @Flag(help: "With --each: JSON lines on stdout even on a terminal.") var jsonl = false
    @OptionGroup(title: "With --each") var batch: BatchOptionGroup
    @Argument(help: "The script.") var script: String
    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script (with --each: after --).") var arguments: [String] = []

    func outcome() throws -> Outcome {
        var options = batchOptions
        let scriptArguments: [String]
        // Batch options after the script are options all the same: a mistyped one gets the usage text.
        do { scriptArguments = try options.absorb(arguments) } catch { throw ValidationError("\(error)") }
        if !options.each.isEmpty {
            return .status(runBatch(script: script, arguments: scriptArguments, options: options, sandboxed: sandbox))
        }
        return .status(
            try runScript(script, arguments: arguments, interpreterArguments: ["run"] + (sandbox ? ["--sandbox"] : []), sandboxed: sandbox))
    }
}

extension Run {
    /// `run`'s plain command lines without ArgumentParser (QuickCommandLine.swift): a batch run
    /// pays the parser once, but on a whole run's critical path, before any worker has work.
    static var quickCommandLine: QuickCommandLine<Run> {
        QuickCommandLine(
            defaults: {
                var command = Run()
                (command.sandbox, command.jsonl, command.each, command.batch) = (false, false, [], .defaults)
                command.arguments = []
                return command
            },
            options: [.flag(["--sandbox"]) { $0.sandbox = true }]
                + BatchOptions.table.map { option in
                    option.takesValue
                        ? .value(option.names) { try $0.setBatchOption(option.names[0], $1) }
                        : .flag(option.names) { try? $0.setBatchOption(option.names[0], nil) }
                },
            operands: { command, operands in
                guard let script = operands.first else { return false }
                command.script = script
                command.arguments = Array(operands.dropFirst())
                return true
            },
            restAfterFirstOperand: true)
    }
}

extension Run {
    /// The batch options as given before the script (`absorb` adds those after it).
    var batchOptions: BatchOptions {
        get { BatchOptions(each: each, jobs: batch.jobs, shard: batch.shard, timeout: batch.timeout, jsonl: jsonl, quiet: batch.quiet) }
        set {
            (each, jsonl, batch.jobs, batch.shard, batch.timeout, batch.quiet) = (
                newValue.each, newValue.jsonl, newValue.jobs, newValue.shard, newValue.timeout, newValue.quiet
            )
        }
    }

    /// Sets one batch option as `BatchOptions` reads it (the quick reader's way).
    mutating func setBatchOption(_ name: String, _ value: String?) throws {
        var options = batchOptions
        try options.set(name, value)
        batchOptions = options
    }
}

/// A Lua state with the fontshell API and these fonts bound; throws when a font cannot be opened.
func setUp(_ lua: LuaState, fontPaths: [String], sandboxed: Bool = false) throws {
    try FontScript.install(in: lua, sandboxed: sandboxed)
    try FontScript.bind(fontPaths: fontPaths, in: lua)
}

/// Runs a script file as lua.c does: `arg` table, `...` = arguments, exit status 1 on error
/// (message then traceback on stderr); os.exit codes pass through. Throws what is not the
/// script's doing (a script that cannot be read, a font that cannot be opened).
func runScript(_ path: String, arguments: [String], interpreterArguments: [String], sandboxed: Bool = false) throws -> Int32 {
    guard var source = readFile(path) else { throw Trouble("cannot open \(path) (\(String(cString: strerror(errno))))") }
    source = strippingHashLine(source)
    let lua = LuaState()
    try setUp(lua, fontPaths: [], sandboxed: sandboxed)
    let s = lua.stack
    s.pushTable(arrayCount: Int32(arguments.count), fieldCount: Int32(interpreterArguments.count + 1))
    s.push("fontshell"); s.setIndex(-interpreterArguments.count - 1, in: -2)
    for (i, a) in interpreterArguments.enumerated() { s.push(a); s.setIndex(i - interpreterArguments.count, in: -2) }
    s.push(path); s.setIndex(0, in: -2)
    for (i, a) in arguments.enumerated() { s.push(a); s.setIndex(i + 1, in: -2) }
    s.setGlobal("arg")
    LuaState.installInterruptHandler()
    do {
        try bindFontArgumentsLazily(arguments, in: lua)
        try lua.load(bytes: source, name: "@" + path, textOnly: sandboxed)
        for a in arguments { s.push(a) }
        try lua.callInterruptible(arguments: Int32(arguments.count), results: 0)
        return 0
    } catch let e as LuaError {
        return reportScriptError(e)
    }
}

/// `font`, `face` and `fonts` for a script run on fonts (`fontshell run script.lua A.ttf B.otf`),
/// as the REPL and `run --each` bind them: the arguments that name font files, opened when the
/// script first uses one of the three names (a script that never does opens nothing).
func bindFontArgumentsLazily(_ arguments: [String], in lua: LuaState) throws {
    let paths = arguments.filter { FileGlob.fontExtensions.contains(FileGlob.fileExtension($0)) && access($0, R_OK) == 0 }
    guard !paths.isEmpty else { return }
    let s = lua.stack
    s.pushNil(); s.setGlobal("fonts")   // set up empty, before the fonts were known
    try s.load(lazyFontBinding, name: "=(font arguments)", cached: true)
    for p in paths { s.push(p) }
    try s.call(arguments: Int32(paths.count), results: 0)
}

private let lazyFontBinding = """
    local paths = {...}
    setmetatable(_G, {__index = function(globals, name)
      if name ~= "font" and name ~= "face" and name ~= "fonts" then return nil end
      setmetatable(globals, nil)
      local opened = {}
      for i, path in ipairs(paths) do opened[i] = fontshell.open(path) end
      -- Names the script has set itself stay its own.
      for key, value in pairs({fonts = opened, font = opened[1], face = opened[1].faces[1]}) do
        if rawget(globals, key) == nil then rawset(globals, key, value) end
      end
      return rawget(globals, name)
    end})
    """

/// Reports a script's error and returns the exit status: 130 (as shells report SIGINT) when
/// Ctrl-C stopped it, 1 otherwise. Anything it was writing was abandoned atomically.
func reportScriptError(_ e: LuaError) -> Int32 {
    if LuaState.takeInterrupt() {
        printError("fontshell: interrupted")
        return 130
    }
    reportError(e)
    if let message = truncationMessage() { printError("fontshell: " + message) }
    return 1
}

func reportError(_ e: LuaError) {
    printError(e.message)
    if !e.traceback.isEmpty { printError(e.traceback) }
}
