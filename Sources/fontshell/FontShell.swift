import ArgumentParser
import FontModel
import FontScript
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

    /// The subcommands' names, so the quick readers tell a command from a font or script without
    /// asking ArgumentParser (which would build every subcommand's configuration at each start).
    /// `QuickCommandLineTests` checks them against `documentedConfiguration`.
    static let commandNames = [
        "repl", "run", "info", "edit", "save", "subset", "slice", "instance", "dump", "fuse", "fea", "validate", "check", "diff",
        "preview", "registry", "batch-worker",
    ]

    static let documentedConfiguration = CommandConfiguration(
        commandName: "fontshell",
        abstract: "Explore, script and edit TrueType/OpenType fonts, collections and web fonts (WOFF, WOFF2).",
        discussion: """
            fontshell [FONT ...]            Lua REPL with font, face and fonts bound (default font: DejaVu Sans)
            fontshell -e 'CHUNK' [FONT ...] run a chunk with the fonts bound
            fontshell run SCRIPT.lua [ARG ...]   run a script (arg as in lua.c)
            fontshell fea FONT FILE.fea -o OUT   compile a feature file into GSUB, GPOS and GDEF
            fontshell run SCRIPT.lua --each 'fonts/**/*.ttf' [-j N] [-- ARG ...]   once per font, JSON lines out
            fontshell check [FONT|GLOB ...] [--format text|json|sarif|junit] [--fix]   font checks (Lua)

            Exit status, the same in every command: 0 done; 1 trouble, said in one line
            "fontshell COMMAND: ..." on stderr; validate, check and diff: 1 for what they found, 2 for
            trouble (validate: 2 for errors too); a script's own status (run, -e); 64 a usage error;
            130 interrupted.
            """,
        version: FontShellVersion.string,
        subcommands: [
            Repl.self, Run.self, Info.self, Edit.self, Save.self, SubsetCommand.self, SliceCommand.self, InstanceCommand.self, Dump.self,
            Fuse.self, FeaCommand.self, Validate.self, Check.self, Diff.self, PreviewCommand.self, Registry.self, BatchWorker.self,
        ],
        defaultSubcommand: Repl.self
    )

    /// Batch workers skip argument parsing (ArgumentParser's reflection costs about a
    /// millisecond per process, and a batch run starts one worker per core), and the plain
    /// command lines of `-e`, `run`, `instance`, `subset`, `dump`, `info` and `edit` are read without reflection
    /// (QuickCommandLine.swift).
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
        if var command = quickCommand(Array(arguments.dropFirst())) {
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

/// How a command ended. Every command (a `FontShellCommand`) returns one, or throws its
/// trouble, and `FontShellCommand.run` maps both to the exit status and message in one place,
/// as README's "Exit status" says.
enum Outcome {
    /// Status 0.
    case done
    /// Status 1: what a judging command found (warnings, failed checks, differences), or a
    /// look-up that found nothing (`registry find`, `registry missing`).
    case findings
    /// Status 2: a validation found errors, not only warnings.
    case errors
    /// A status the job gave itself, passed through: a script's (os.exit's, or 1 for an error,
    /// as lua.c) or a batch run's (`run`, `repl -e`).
    case status(Int32)
}

/// A subcommand of fontshell: `outcome()` does the work; anything it throws is trouble, said in
/// one line "fontshell NAME: …" on stderr with status 1, or 2 in a command that judges (whose
/// findings are 1). ArgumentParser's own errors (a ValidationError from `validate()`) keep its
/// usage text and status 64.
protocol FontShellCommand: ParsableCommand {
    /// The name in its messages ("fontshell edit: …").
    static var messageName: String { get }
    /// validate, check and diff: their findings are status 1, so trouble is 2.
    static var judges: Bool { get }
    func outcome() throws -> Outcome
}

extension FontShellCommand {
    static var messageName: String { configuration.commandName ?? "fontshell" }
    static var judges: Bool { false }

    func run() throws {
        let outcome: Outcome
        do {
            outcome = try self.outcome()
            if let message = truncationMessage() { throw Trouble(message) }
        } catch let error where error is ExitCode || error is ValidationError || error is CleanExit {
            throw error
        } catch {
            printError("fontshell \(Self.messageName): \(error)")
            throw ExitCode(Self.judges ? 2 : 1)
        }
        switch outcome {
        case .done: return
        case .findings: throw ExitCode(1)
        case .errors: throw ExitCode(2)
        case .status(let status): if status != 0 { throw ExitCode(status) }
        }
    }
}

/// Trouble a command names itself (rather than an error a library threw).
struct Trouble: ToolError {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Fonts another program truncated while they were open (reads past the new end gave zeros):
/// what the command printed about them cannot be trusted, so it fails.
func truncationMessage() -> String? {
    let files = TruncationGuard.truncatedFiles()
    guard !files.isEmpty else { return nil }
    return files.map { "\($0): truncated by another program while open; what was read past its new end is zeros" }.joined(separator: "\n")
}
