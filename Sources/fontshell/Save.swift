import ArgumentParser
import FontModel

/// `fontshell save IN OUT`: open and save (the unedited round trip), printing the save report.
struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open a font and save it again (tables re-shared, realigned), printing what changed.")

    @Argument(help: "Font to read.") var input: String
    @Argument(help: "Where to write.") var output: String
    @Flag(help: "Allow OUTPUT to be INPUT.") var overwrite = false

    func run() throws {
        try runReportingErrors {
            let font = try Font(path: input)
            let report = try font.save(to: output, options: SaveOptions(overwriteInput: overwrite))
            print(report)
        }
    }
}
