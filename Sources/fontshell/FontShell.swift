import ArgumentParser
import FontModel
import FontRender
import LuaBridge

/// The system font opened when none is given, so a newcomer sees something at once.
let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

@main
struct FontShell: ParsableCommand {
    static var configuration: CommandConfiguration {
        var configuration = documentedConfiguration
        if parsingWithoutCompletionCheck { configuration._superCommandName = "" }
        return configuration
    }

    /// ArgumentParser looks for `--generate-completion-script` on every start by reflecting
    /// over a second command (about a millisecond), and skips that look for a command that
    /// names a super-command. So arguments without that flag are parsed with an empty one
    /// named; help and error messages, made after parsing, see none.
    nonisolated(unsafe) static var parsingWithoutCompletionCheck = false

    static let documentedConfiguration = CommandConfiguration(
        commandName: "fontshell",
        abstract: "Explore, script and edit TrueType/OpenType fonts, collections and web fonts (WOFF, WOFF2).",
        discussion: """
        fontshell [FONT ...]            Lua REPL with font, face and fonts bound (default font: DejaVu Sans)
        fontshell -e 'CHUNK' [FONT ...] run a chunk with the fonts bound
        fontshell run SCRIPT.lua [ARG ...]   run a script (arg as in lua.c)
        fontshell run SCRIPT.lua --each 'fonts/**/*.ttf' [-j N] [-- ARG ...]   once per font, JSON lines out
        fontshell check [FONT|GLOB ...] [--format text|json|sarif|junit] [--fix]   font checks (Lua)
        """,
        version: FontShellVersion.string,
        subcommands: [Repl.self, Run.self, Info.self, Edit.self, Save.self, SubsetCommand.self, SliceCommand.self, InstanceCommand.self, Dump.self, Fuse.self, Validate.self, Check.self, Diff.self, PreviewCommand.self, Registry.self, BatchWorker.self],
        defaultSubcommand: Repl.self
    )

    /// Batch workers skip argument parsing (ArgumentParser's reflection costs about a
    /// millisecond per process, and a batch run starts one worker per core), and `instance`'s
    /// plain command lines are read without reflection (QuickCommandLine.swift).
    static func main() {
        LuaState.setProgramName("fontshell")   // what the Lua bridge's own messages start with
        let arguments = CommandLine.arguments
        if arguments.count > 1, arguments[1] == "batch-worker" {
            exitProcess(BatchWorker.serve(Array(arguments.dropFirst(2))))
        }
        if let problem = LuaState.memoryEnvironmentProblem() {
            printError("fontshell: \(problem)")
            exitProcess(2)
        }
        if arguments.count > 1, var command = quickCommand(arguments[1], Array(arguments.dropFirst(2))) {
            do { try command.run() } catch let code as ExitCode {
                exitProcess(code.rawValue)   // ArgumentParser's exit(withError:) builds help text first, about a millisecond
            } catch { exit(withError: error) }
            return
        }
        parsingWithoutCompletionCheck = !arguments.dropFirst().contains { $0.hasPrefix("--generate-completion-script") }
        let parsed: Result<ParsableCommand, Error> = Result { try parseAsRoot(Array(arguments.dropFirst())) }
        parsingWithoutCompletionCheck = false
        do {
            var command = try parsed.get()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// The command's one error path: any ToolError (font, XML, render, registry) becomes one
/// message and exit status 1, printed as "fontshell COMMAND: …" when a command is named, else by
/// ArgumentParser ("Error: …").
func runReportingErrors(_ command: String, _ body: () throws -> Void) throws {
    do {
        try body()
        if let message = truncationMessage() { throw ValidationFailureMessage(message: message) }
    } catch let error as any ToolError {
        printError("fontshell \(command): \(error)")
        throw ExitCode(1)
    }
}

/// Fonts another program truncated while they were open (reads past the new end gave zeros):
/// what the command printed about them cannot be trusted, so it fails.
func truncationMessage() -> String? {
    let files = TruncationGuard.truncatedFiles()
    guard !files.isEmpty else { return nil }
    return files.map { "\($0): truncated by another program while open; what was read past its new end is zeros" }.joined(separator: "\n")
}

struct ValidationFailureMessage: ToolError {
    let message: String
    var description: String { message }
}
