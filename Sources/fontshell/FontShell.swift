import ArgumentParser
import FontModel
import FontRender

/// The system font opened when none is given, so a newcomer sees something at once.
let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

@main
struct FontShell: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fontshell",
        abstract: "Explore, script and edit TrueType/OpenType fonts and collections.",
        discussion: """
        fontshell [FONT ...]            Lua REPL with font, face and fonts bound (default font: DejaVu Sans)
        fontshell -e 'CHUNK' [FONT ...] run a chunk with the fonts bound
        fontshell run SCRIPT.lua [ARG ...]   run a script (arg as in lua.c)
        """,
        subcommands: [Repl.self, Run.self, Info.self, Edit.self, Save.self, Dump.self, Fuse.self, Validate.self, Diff.self, PreviewCommand.self, Registry.self],
        defaultSubcommand: Repl.self
    )
}

/// Turns model errors into a one-line message and exit status 1 (ArgumentParser prints it).
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as FontError {
        throw ValidationFailureMessage(message: error.description)
    } catch let error as RenderError {
        throw ValidationFailureMessage(message: error.description)
    }
}

struct ValidationFailureMessage: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
