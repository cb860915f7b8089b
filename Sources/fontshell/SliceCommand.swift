import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FontModel
import FontSubset

/// `fontshell slice IN -o FOLDER`: a face cut into WOFF2 files by Unicode range, with the CSS
/// `@font-face` rules (unicode-range) that make a browser fetch only the slices a page uses.
struct SliceCommand: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "slice",
        abstract: "Split a face into WOFF2 slices by Unicode range and write their @font-face CSS.",
        discussion: """
            Without --slices, the first slice is Google Fonts' Latin one (ASCII, Latin-1, \
            punctuation such as — “ ” ’ …, € and ™), then the rest in Unicode block order, each block cut into slices of at most --chars-per-slice characters. A slices \
            file gives them instead, one slice per line ("U+4E00-4E3F,U+3000"; '#' starts a \
            comment), e.g. in order of character frequency. Slices are made on every core.
            """)

    @Argument(help: "Font to read (a collection needs --face, else face 0).") var input: String
    @Option(name: [.short, .customLong("output")], help: "Folder for the WOFF2 files and the CSS.") var output: String
    @Option(help: "Characters per slice when no slices file is given.") var charsPerSlice = 500
    @Option(help: "File of slices, one range list per line.") var slices: String?
    @Option(help: "Base of the file names (default: the PostScript name).") var name: String?
    @Option(help: "CSS font-family (default: the face's family name).") var family: String?
    @Option(help: "WOFF2 Brotli quality, 0-11.") var quality = 11
    @OptionGroup var selection: FaceSelection

    func outcome() throws -> Outcome {
        let font = try Font(path: input)
        let face = try selection.face(in: font)
        var options = SliceOptions()
        options.charactersPerSlice = charsPerSlice
        options.quality = quality
        options.baseName = name
        options.family = family
        if let slices {
            options.slices = try SliceOptions.parseSliceFile(try readUTF8File(slices, "slices file"))
        }
        // A large face takes minutes (noto-cjk: about 100 s): a bar on a terminal.
        let progress = BatchProgress(total: 0, label: "fontshell slice", unit: "slices")
        let shared = BatchProgress.Shared(progress)
        options.progress = { done, total in shared.update(done: done, total: total) }
        let report: SliceReport
        do {
            defer { progress.done(summary: false) }
            report = try WebSlicer.slice(face, into: output, options: options)
        }
        print(report)
        return .done
    }
}
