import ArgumentParser
import FontModel

/// `fontshell info FONT [--face N|NAME]`: names, format, metrics and the table list of every face
/// (or of the one chosen). Reads only the
/// small tables; glyph data (glyf, CFF) is never decoded.
extension Info {
    /// The plain command lines, read without ArgumentParser's reflection (QuickCommandLine).
    static var quickCommandLine: QuickCommandLine<Info> {
        QuickCommandLine(
            defaults: {
                var command = Info()
                command.font = defaultFontPath
                command.selection = FaceSelection.unselected
                return command
            },
            options: [.value(["--face"]) { $0.selection.face = $1 }],
            operands: { command, operands in
                guard operands.count <= 1 else { return false }
                if let font = operands.first { command.font = font }
                return true
            })
    }
}

struct Info: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Describe every face of a font: names, format, tables, vertical metrics.")

    @Argument(help: "Font file (.ttf, .otf, .ttc). Default: DejaVu Sans.")
    var font: String = defaultFontPath
    @OptionGroup var selection: FaceSelection

    func outcome() throws -> Outcome {
        let f = try Font(path: font)
        print(try f.summary(faces: try selection.faces(in: f, otherwise: f.faces)))
        return .done
    }
}
