import FontScript
import ArgumentParser
import FontModel

/// `fontshell save IN OUT`: open and save (the unedited round trip, or a change of container:
/// .woff, .woff2 by extension or --format), printing the save report.
struct Save: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract:
            "Open a font and save it again (tables re-shared, realigned), or as WOFF/WOFF2, printing what changed; --face saves that face alone.",
        discussion: "The container follows OUTPUT's extension (.ttf/.otf/.ttc, .woff, .woff2) unless --format names it.")

    @Argument(help: "Font to read.") var input: String
    @Argument(help: "Where to write.") var outputArgument: String?
    @Option(name: [.short, .customLong("output")], help: "Where to write (instead of the second argument).") var output: String?
    @Option(help: "Container: sfnt, woff or woff2 (default: by OUTPUT's extension).") var format: String?
    @Option(help: "WOFF2 Brotli quality, 0-11 (11, the default, is smallest; 4 is fast).") var quality = 11
    @Option(help: "WOFF2 Brotli window, log2 of its size: 10-24.") var window = 22
    @Flag(help: "Allow OUTPUT to be INPUT.") var overwrite = false
    @Flag(help: "Save even if the validator finds errors.") var force = false
    @OptionGroup var selection: FaceSelection

    func validate() throws {
        if output != nil && outputArgument != nil { throw ValidationError("give OUTPUT once: as the second argument or with -o") }
        if output == nil && outputArgument == nil { throw ValidationError("where to write? give OUTPUT (or -o OUTPUT)") }
        if let format, OutputFormat(rawValue: format) == nil { throw ValidationError("--format \(format): choose sfnt, woff or woff2") }
    }

    func outcome() throws -> Outcome {
        let font = try Font(path: input)
        // A bar while a WOFF2 compresses (a CJK collection at quality 11 takes most of a minute).
        let progress = BatchProgress(total: 0, label: "fontshell save", unit: "%")
        defer { progress.done(summary: false) }   // also on an error
        let options = SaveOptions(
            overwriteInput: overwrite, force: force, format: format.flatMap(OutputFormat.init(rawValue:)),
            woff2: WOFF2Options(quality: quality, window: window),
            progress: BatchProgress.Shared(progress).saveProgress)
        let destination = output ?? outputArgument ?? ""
        let report =
            selection.face != nil
            ? try font.save(face: try selection.face(in: font), to: destination, options: options)
            : try font.save(to: destination, options: options)
        progress.done(summary: false)
        printLine(report.description)
        return .done
    }
}
