import ArgumentParser
import FontModel

/// The system font opened when none is given, so a newcomer sees something at once.
let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

@main
struct FontShell: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fontshell",
        abstract: "Explore, edit and save TrueType/OpenType fonts and collections.",
        subcommands: [Info.self, Edit.self, Save.self],
        defaultSubcommand: Info.self
    )
}

/// Turns model errors into a one-line message and exit status 1 (ArgumentParser prints it).
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as FontError {
        throw ValidationFailureMessage(message: error.description)
    }
}

struct ValidationFailureMessage: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
