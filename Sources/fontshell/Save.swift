import ArgumentParser
import FontModel

/// `fontshell save IN OUT`: open and save (the unedited round trip), printing the save report.
struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open a font and save it again (tables re-shared, realigned), printing what changed.")

    @Argument(help: "Font to read.") var input: String
    @Argument(help: "Where to write.") var output: String
    @Flag(help: "Allow OUTPUT to be INPUT.") var overwrite = false
    @Flag(help: "Save even if the validator finds errors.") var force = false
    @OptionGroup var selection: FaceSelection

    func run() throws {
        try runReportingErrors {
            let font = try Font(path: input)
            let options = SaveOptions(overwriteInput: overwrite, force: force)
            if selection.face != nil {
                print(try font.save(face: try selection.face(in: font), to: output, options: options))
            } else {
                print(try font.save(to: output, options: options))
            }
        }
    }
}
