import ArgumentParser
import FontModel
import FontRender

/// `fontshell preview FONT TEXT -o out.png`: a text or label preview; with `--compare OLD NEW TEXT`
/// the same text in two fonts side by side with their difference.
struct PreviewCommand: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Render text (or a fixed-size label) in a face to PNG, or compare two fonts.",
        discussion: """
            fontshell preview FONT "Hello" -o out.png [--label 240x44 --scale 2 --guides]
            fontshell preview --compare OLD.ttf NEW.ttf "Hello" -o diff.png   (exit 0 same, 1 different)
            """)

    @Argument(help: "FONT TEXT, or with --compare OLD NEW TEXT.") var arguments: [String]
    @Option(name: .shortAndLong, help: "Output PNG.") var output: String
    @Flag(help: "Compare the text rendered in two fonts: OLD NEW TEXT.") var compare = false
    @OptionGroup var selection: FaceSelection
    @Option(help: "Font size in points (default 48; 17 for a label).") var size: Double?
    @Option(help: "Pixels per point (2 for @2x).") var scale: Double = 1
    @Option(help: "A fixed-size label, WIDTHxHEIGHT in points (e.g. 240x44).") var label: String?
    @Option(help: "Label layout: apple (hhea) or windows (OS/2 win, or typo with USE_TYPO_METRICS).") var platform: String = "apple"
    @Option(help: "Force vertical metrics: hhea, typo or win.") var metrics: String?
    @Option(help: "Label: where the line box sits: center, top or bottom.") var align: String = "center"
    @Flag(help: "Label: draw the box, centre, baseline, x-height, cap height, ascender and descender lines.") var guides = false
    @Option(help: "iOS sizes as given (ios) or as macOS standard text scaling shows them (standard).") var scaling: String = "ios"
    @Option(help: "HarfBuzz features, e.g. \"kern=0,-liga\".") var features: String?
    @Option(help: "Text colour (#rrggbb or a name).") var color: String = "black"
    @Option(help: "Background colour (#rrggbb, #rrggbbaa or a name).") var background: String = "white"
    @Flag(help: "Hint glyphs with FreeType (default: unhinted outlines).") var hinting = false
    @Option(help: "A location of a variable font: AXIS=VALUE pairs, comma-separated (wght=700,wdth=75).") var variations: String?

    func options() throws -> PreviewOptions {
        var o = PreviewOptions()
        o.size = size
        o.scale = scale
        o.platform = try Platform(parsing: platform)
        o.metrics = try metrics.map { try MetricsSource(parsing: $0) }
        o.verticalAlign = try VerticalAlign(parsing: align)
        o.guides = guides
        o.scaling = try TextScaling(parsing: scaling)
        o.shaping.features = features.map { $0.split(separator: ",").map(String.init) } ?? []
        o.style.color = try Color(parsing: color)
        o.background = try Color(parsing: background)
        o.hinting = hinting
        if let variations {
            do {
                let parsed = try InstanceCommand.parseCoordinates(variations.split(separator: ",").map(String.init))
                guard parsed.ranges.isEmpty else { throw FontError("a preview is at one location; give AXIS=VALUE") }
                o.variations = parsed.values
            } catch { throw RenderError("--variations: \(error)") }
        }
        if let label {
            let parts = label.lowercased().split(separator: "x")
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
                throw RenderError("--label must be WIDTHxHEIGHT in points, e.g. 240x44; got '\(label)'")
            }
            o.width = w
            o.height = h
        }
        return o
    }

    /// Renders `text` in the selected face of the font at `path`.
    /// The preview, what to say about it, and for a label its box height (the legend is under it).
    func render(_ path: String, _ text: String, _ options: PreviewOptions) throws -> (image: Image, report: String, boxHeight: Int?) {
        let font = try Font(path: path)
        let f = try selection.face(in: font)
        if label != nil {
            let l = try Preview.label(f, text, options: options)
            let m = l.measurements
            var report =
                "baseline \(Preview.rounded(m.baseline)) px, line box \(Preview.rounded(m.lineTop))…\(Preview.rounded(m.lineBottom)) px, capCenterOffset \(Preview.rounded(m.capCenterOffset)) px (\(m.metrics.rawValue) metrics)"
            if !m.missing.isEmpty { report += "\nmissing glyphs (drawn as .notdef): " + m.missing.joined(separator: ", ") }
            if !m.notInColor.isEmpty { report += "\n" + Self.notInColorNote(m.notInColor) }
            return (l.image, report, Int((2 * m.boxCenter).rounded()))
        }
        let t = try Preview.text(f, text, options: options)
        var notes: [String] = []
        if !t.missing.isEmpty { notes.append("missing glyphs (drawn as .notdef): " + t.missing.joined(separator: ", ")) }
        if !t.notInColor.isEmpty { notes.append(Self.notInColorNote(t.notInColor)) }
        return (t.image, notes.joined(separator: "\n"), nil)
    }

    static func notInColorNote(_ characters: [String]) -> String {
        "drawn without colour, as plain outlines (FreeType 2.12 paints COLR version 0 layers and colour bitmaps, not COLR version 1 paint graphs or SVG): "
            + characters.joined(separator: ", ")
    }

    func outcome() throws -> Outcome {
        var different = false
        let options = try options()
        if compare {
            guard arguments.count == 3 else { throw RenderError("--compare takes OLD NEW TEXT (got \(arguments.count) arguments)") }
            let a = try render(arguments[0], arguments[2], options), b = try render(arguments[1], arguments[2], options)
            // Labels are compared within their boxes (the legend's numbers differ whenever
            // anything does), and by their ink: guides that move with the metrics are shown,
            // not counted.
            var inkOnly: (a: Image, b: Image)?
            if label != nil && options.guides {
                var plain = options
                plain.guides = false
                inkOnly = (try render(arguments[0], arguments[2], plain).image, try render(arguments[1], arguments[2], plain).image)
            }
            let c = Preview.compare(a.image, b.image, rows: a.boxHeight.map { min($0, b.boxHeight ?? $0) }, inkOnly: inkOnly)
            try c.image.savePNG(to: output)
            print(comparisonReport(c))
            different = c.changedPixels > 0
        } else {
            guard arguments.count == 2 else { throw RenderError("expected FONT TEXT (got \(arguments.count) arguments)") }
            let r = try render(arguments[0], arguments[1], options)
            try r.image.savePNG(to: output)
            print("wrote \(r.image.width)x\(r.image.height) px to \(output)" + (r.report.isEmpty ? "" : "\n" + r.report))
        }
        return different ? .findings : .done
    }
}

func comparisonReport(_ c: Comparison) -> String {
    var text = "changed pixels: \(c.changedPixels) of \(c.totalPixels), max channel difference \(c.maxDifference)"
    if let b = c.changedBounds { text += ", changed area \(b.width)x\(b.height) at (\(b.x), \(b.y))" }
    if let size = c.sizeChange { text += "; size changed \(size) (only the overlap is compared)" }
    return text
}
