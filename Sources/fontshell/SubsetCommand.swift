import FontScript
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FontModel
import FontSubset

/// `fontshell subset IN -o OUT`: one face cut down to some characters and glyphs by HarfBuzz's
/// subsetter, written as any container (by OUT's extension: .ttf/.otf, .woff, .woff2).
struct SubsetCommand: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "subset",
        abstract: "Keep only some characters and glyphs of a face (HarfBuzz's subsetter), saved as TrueType/OpenType, WOFF or WOFF2.",
        discussion: """
            Characters come from --text, --text-file and --unicodes together; glyphs from --glyphs. \
            HarfBuzz adds what they need: composite components, CFF subroutines and, unless \
            --no-layout-closure, the glyphs GSUB can turn them into. Prints how many glyphs were \
            kept, how many the closure added, and which characters the face lacks.
            """)

    @Argument(help: "Font to read (any format FontShell opens; a collection needs --face, else face 0).") var input: String
    @Option(name: [.short, .customLong("output")], help: "Where to write; the container follows the extension.") var output: String
    @Option(help: "Characters to keep.") var text: String?
    @Option(help: "File of characters to keep (UTF-8).") var textFile: String?
    @Option(help: "Code points to keep: U+0020-007E,U+3000 (hex, ranges with -).") var unicodes: String?
    @Option(help: "Glyphs to keep: names or IDs, comma-separated.") var glyphs: String?
    @Option(help: "Layout features to keep, comma-separated ('*' for all; default: HarfBuzz's list).") var features: String?
    @Option(help: "Tables HarfBuzz would drop to keep anyway, comma-separated ('name' keeps every name record).") var keep: String?
    @Flag(help: "Keep no layout features, so GSUB pulls in no glyphs.") var noLayoutClosure = false
    @Flag(help: "Keep glyph IDs (dropped glyphs become empty).") var retainGids = false
    @Flag(help: "Drop TrueType instructions and CFF hints.") var noHinting = false
    @Option(help: "WOFF2 Brotli quality, 0-11.") var quality = 11
    @Flag(help: "Allow OUTPUT to be INPUT.") var overwrite = false
    @OptionGroup var selection: FaceSelection

    /// The plain command lines, read without ArgumentParser's reflection (QuickCommandLine):
    /// about 3 ms of a 40 ms subset.
    static var quickCommandLine: QuickCommandLine<SubsetCommand> {
        QuickCommandLine(
            defaults: {
                var command = SubsetCommand()
                (command.text, command.textFile, command.unicodes, command.glyphs, command.features, command.keep) = (
                    nil, nil, nil, nil, nil, nil
                )
                (command.noLayoutClosure, command.retainGids, command.noHinting, command.overwrite) = (false, false, false, false)
                command.quality = 11
                command.selection = FaceSelection.unselected
                return command
            },
            options: [
                .value(["-o", "--output"]) { $0.output = $1 },
                .value(["--face"]) { $0.selection.face = $1 },
                .value(["--text"]) { $0.text = $1 },
                .value(["--text-file"]) { $0.textFile = $1 },
                .value(["--unicodes"]) { $0.unicodes = $1 },
                .value(["--glyphs"]) { $0.glyphs = $1 },
                .value(["--features"]) { $0.features = $1 },
                .value(["--keep"]) { $0.keep = $1 },
                .value(["--quality"]) {
                    guard let q = Int($1) else { throw ValidationError("not a number") }
                    $0.quality = q
                },
                .flag(["--no-layout-closure"]) { $0.noLayoutClosure = true },
                .flag(["--retain-gids"]) { $0.retainGids = true },
                .flag(["--no-hinting"]) { $0.noHinting = true },
                .flag(["--overwrite"]) { $0.overwrite = true },
            ],
            operands: { command, operands in
                guard operands.count == 1 else { return false }
                command.input = operands[0]
                return true
            })
    }

    func outcome() throws -> Outcome {
        let font = try Font(path: input)
        let face = try selection.face(in: font)
        var request = SubsetRequest()
        request.text = text ?? ""
        if let textFile {
            // Line ends separate the text, as for pyftsubset: they are not characters to keep.
            // (Filtered as UTF-8 bytes, which stay valid without them: comparing Characters costs
            // a grapheme break check per letter.)
            var utf8 = Array(try readUTF8File(textFile, "text file").utf8)
            utf8.removeAll { $0 == 0x0A || $0 == 0x0D }
            request.text += String(decoding: utf8, as: UTF8.self)
        }
        if let unicodes { request.unicodes = try SubsetRequest.parseUnicodes(unicodes) }
        if let glyphs {
            do { request.glyphs = try SubsetRequest.parseGlyphs(glyphs, names: try face.glyphNames()) } catch let e as FontError {
                throw FontError(e.message, path: input)
            }
        }
        if let features { request.features = features.split(separator: ",").map { String($0.trimmingSpaces) } }
        if let keep { request.keep = keep.split(separator: ",").map { String($0.trimmingSpaces) } }
        request.layoutClosure = !noLayoutClosure
        request.retainGlyphIDs = retainGids
        request.hinting = !noHinting
        guard !request.codepoints.isEmpty || !request.glyphs.isEmpty else {
            throw FontError("nothing to keep: give --text, --text-file, --unicodes or --glyphs")
        }
        let result = try Subsetter.subset(face, request)
        if let original = font.path, Font.sameFile(original, output), !overwrite {
            throw FontError("refusing to overwrite the input file; save elsewhere or pass --overwrite", path: output)
        }
        let progress = BatchProgress(total: 0, label: "fontshell subset", unit: "%")
        defer { progress.done(summary: false) }   // also on an error
        let report = try result.font.save(
            to: output,
            options: SaveOptions(
                overwriteInput: overwrite, woff2: WOFF2Options(quality: quality),
                progress: BatchProgress.Shared(progress).saveProgress))
        progress.done(summary: false)
        printLine(
            "kept \(result.glyphMap.count) of \(try face.glyphCount) glyphs (\(result.closure.count) added by components and the layout closure)"
        )
        if !result.missing.isEmpty {
            let shown = result.missing.prefix(20).map { "U+" + hex4($0) }.joined(separator: " ")
            printLine(
                "the face has no glyph for \(result.missing.count) character\(result.missing.count == 1 ? "" : "s"): \(shown)\(result.missing.count > 20 ? " …" : "")"
            )
        }
        printLine(report.description)
        return .done
    }
}
