import JSONText
import ArgumentParser
import FontModel
import FontScript
import FontRender
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `fontshell diff A B`: what changed between two fonts. Exit status as diff(1): 0 same, 1 different, 2 trouble.
/// With `--png OUT A B TEXT` it also renders TEXT in both and writes the before/after/difference image.
struct Diff: FontShellCommand {
    static let judges = true

    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two fonts, every face or the one --face names (exit 0 same, 1 different, 2 trouble).")

    @Argument var first: String
    @Argument var second: String
    @Argument(help: "Text to render with --png.") var text: String?
    @Option(help: "Also render TEXT in both fonts and write A | B | difference to this PNG.") var png: String?
    @Option(help: "Font size in points for --png.") var size: Double = 48
    @OptionGroup var selection: FaceSelection
    @Flag(help: "Print the differences as JSON.") var json = false
    @Flag(help: "Show layout changes (GSUB, GPOS, GDEF) as a diff of the two faces' feature files.") var fea = false

    func outcome() throws -> Outcome {
        var all: [(face: Int, difference: Difference)] = []
        let a = try Font(path: first), b = try Font(path: second)
        let selected = try selection.faces(in: a, otherwise: a.faces).map(\.index)
        if fea {
            // The layouts as feature files (dump --fea), line by line.
            var any = false
            for i in selected {
                guard a.faces.indices.contains(i), b.faces.indices.contains(i) else { throw FontError("no face \(i) in both fonts") }
                let lines = try FeatureDiff.lines(a.faces[i], b.faces[i])
                if lines.isEmpty { continue }
                any = true
                if selected.count > 1 { print("face \(i):") }
                print("--- \(first)\n+++ \(second)")
                for l in lines { print(l) }
            }
            return any ? .findings : .done
        }
        guard a.faces.count == b.faces.count || selection.face != nil else {
            print("faces: \(a.faces.count) → \(b.faces.count)")
            return .findings
        }
        // A bar on a terminal, face by face (a CJK collection's ten faces take seconds).
        let progress = BatchProgress(total: selected.count, label: "fontshell diff", unit: "faces")
        defer { progress.done(summary: false) }
        for (done, i) in selected.enumerated() {
            guard a.faces.indices.contains(i), b.faces.indices.contains(i) else { throw FontError("no face \(i) in both fonts") }
            progress.update(done: done, total: selected.count, current: "face \(i)")
            all += try FontDiff.compare(a.faces[i], b.faces[i]).map { (i, $0) }
        }
        progress.done(summary: false)
        if let png {
            guard let text else { throw FontError("--png needs the TEXT to render: fontshell diff --png OUT A B \"text\"") }
            var options = PreviewOptions()
            options.size = size
            let i = selected.first ?? 0
            let c = Preview.compare(
                try Preview.text(a.faces[i], text, options: options).image,
                try Preview.text(b.faces[i], text, options: options).image)
            try c.image.savePNG(to: png)
            print("preview: \(comparisonReport(c)) (\(png))")
        } else if text != nil {
            throw FontError("TEXT is only used with --png OUT")
        }
        if json {
            let items = all.map {
                [
                    "face": $0.face, "kind": $0.difference.kind.rawValue, "table": $0.difference.table, "item": $0.difference.item,
                    "old": $0.difference.old as Any, "new": $0.difference.new as Any,
                ] as [String: Any]
            }
            print(JSONText.write(items, pretty: true))
        } else {
            let multi = Set(all.map(\.face)).count > 1 || (selection.face == nil && all.contains { $0.face > 0 })
            for (i, d) in all { print(multi ? "face \(i): \(d)" : d.description) }
        }
        return all.isEmpty ? .done : .findings
    }
}
