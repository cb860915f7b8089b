import ArgumentParser
import FontModel
import FontScript

/// `fontshell edit`: the common edits from the command line (the Lua scripts do the same).
extension Edit {
    /// The plain command lines, read without ArgumentParser's reflection (QuickCommandLine):
    /// an edit script runs `fontshell edit` once per font.
    static var quickCommandLine: QuickCommandLine<Edit> {
        QuickCommandLine(
            defaults: {
                var command = Edit()
                (command.output, command.inPlace, command.force, command.assignments) = (nil, false, false, [])
                (command.caps, command.rename, command.familySuffix, command.unshare) = (false, nil, nil, false)
                command.selection = FaceSelection.unselected
                return command
            },
            options: [
                .value(["-o", "--output"]) { $0.output = $1 },
                .flag(["--in-place"]) { $0.inPlace = true },
                .flag(["--force"]) { $0.force = true },
                .value(["--face"]) { $0.selection.face = $1 },
                .values(["--set"]) { $0.assignments.append($1) },
                .flag(["--caps"]) { $0.caps = true },
                .value(["--rename"]) { $0.rename = $1 },
                .value(["--family-suffix"]) { $0.familySuffix = $1 },
                .flag(["--unshare"]) { $0.unshare = true },
            ],
            operands: { command, operands in
                guard operands.count == 1 else { return false }
                command.input = operands[0]
                return true
            })
    }
}

struct Edit: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit fields, glyphs or names of a font (every face, or the one --face names) and save the result.",
        discussion: """
            Examples:
              fontshell edit Font.ttc -o Caps.ttc --caps --family-suffix " Caps"
              fontshell edit Font.ttc -o Taller.ttc --face 3 --set hhea.ascender=900
            """
    )

    @Argument(help: "Font to read (never replaced unless --in-place).") var input: String
    @Option(name: .shortAndLong, help: "Where to write the edited font.") var output: String?
    @Flag(help: "Write over the input file.") var inPlace = false
    @Flag(help: "Save even if the validator finds errors the edits introduced.") var force = false
    @OptionGroup var selection: FaceSelection
    @Option(name: .customLong("set"), help: "TABLE.FIELD=VALUE, e.g. hhea.ascender=900 (repeatable).") var assignments: [String] = []
    @Flag(help: "All caps: a–z take the outline, advance and side bearing of A–Z.") var caps = false
    @Option(help: "New family name (name IDs 1, 3, 4, 6, 16 ... and CFF names).") var rename: String?
    @Option(help: "Append to each face's own family name, e.g. \" Caps\" (for collections whose faces differ).") var familySuffix: String?
    @Flag(help: "Give each edited face its own copy of the glyph data it shares with other faces (collections).") var unshare = false

    func outcome() throws -> Outcome {
        guard output != nil || inPlace else { throw ValidationError("give -o OUTPUT or --in-place") }
        let font = try Font(path: input)
        let faces = try selection.faces(in: font, otherwise: font.faces)
        let selected = Set(faces.map(\.index))
        for f in faces {
            for assignment in assignments { try applyAssignment(assignment, to: f) }
            if unshare { try f.unshareGlyphData() }
            let others = f.facesSharingGlyphData.filter { !selected.contains($0) }
            if caps && !others.isEmpty {
                printError(
                    "warning: face \(f.index) shares its glyph data with face\(others.count > 1 ? "s" : "") \(others.map(String.init).joined(separator: ", ")): --caps changes them too (--unshare gives face \(f.index) its own copy)"
                )
            }
            if caps { try f.copyCapitalsOntoLowercase() }
            if let rename { try f.rename(family: rename) }
            if let familySuffix { try f.rename(family: (try f.familyName ?? "") + familySuffix) }
        }
        let report = try font.save(to: output ?? input, options: SaveOptions(overwriteInput: inPlace, force: force))
        printLine(report.description)
        return .done
    }
}

/// Applies "table.field=value" through the table's field description (range-checked).
func applyAssignment(_ text: String, to face: Face) throws {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, parts[0].contains(".") else { throw FontError("expected TABLE.FIELD=VALUE, got '\(text)'") }
    let (table, fieldName) = try face.field(path: parts[0])
    let value: FieldValue = Int64(parts[1]).map(FieldValue.int) ?? Double(parts[1]).map(FieldValue.double) ?? .string(parts[1])
    try table.set(fieldName, value)
}
