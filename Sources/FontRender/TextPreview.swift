import FontModel

/// A text preview: the image and what could not be drawn.
public struct RenderedText: Sendable {
    public var image: Image
    /// Characters without a glyph in the face, drawn as .notdef.
    public var missing: [String]
    /// Characters whose glyph has colour FreeType does not draw (COLR v1 paint, SVG), drawn as
    /// plain outlines: "U+1F600 '😀' (COLR v1 paint)".
    public var notInColor: [String] = []
    /// Baseline of each line in pixels from the top.
    public var baselines: [Double]
}

extension Preview {
    /// Renders text in a face as it is in memory (edits included), multi-line with the face's
    /// line spacing (the platform's metrics: hhea on apple).
    public static func text(_ face: Face, _ text: String, options: PreviewOptions = PreviewOptions()) throws -> RenderedText {
        try options.validate(label: false)
        guard !text.isEmpty else { throw RenderError("text is empty: nothing to draw") }
        let font = try RenderFont(face: face)
        try font.vary(face, options.variations)
        let px = options.pixelSize(label: false)
        let metrics = try LineMetrics.of(face, platform: options.platform, forced: options.metrics)
        let k = px / metrics.unitsPerEm
        let margin = (options.margin.map { $0 * options.scale } ?? (px / 4).rounded(.up)) + options.style.overhang.rounded(.up)
        let wrap = options.width.map { $0 * options.scale - 2 * margin }
        if let wrap, wrap <= 0 { throw RenderError("width \(options.width ?? 0) pt leaves no room inside the margins") }
        let layout = try TextLayout(text, font: font, px: px, shaping: options.shaping, wrapWidth: wrap)
        let lineHeight = metrics.lineHeight * k
        let contentWidth = layout.lines.map(\.width).max() ?? 0
        let width = try Image.pixels(
            options.width.map { ($0 * options.scale).rounded() } ?? (contentWidth + 2 * margin).rounded(.up), "the preview width")
        let height = try Image.pixels(
            (2 * margin + Double(layout.lines.count - 1) * lineHeight + (metrics.ascent + metrics.descent) * k).rounded(.up),
            "the preview height")
        try Image.checkSize(
            width: width, height: height,
            "the text preview (\(layout.lines.count) lines, \(metrics.source.rawValue) ascent \(Int(metrics.ascent)) + descent \(Int(metrics.descent)) of \(Int(metrics.unitsPerEm)) units per em at \(Int(px)) px)"
        )
        var image = Image(width: max(1, width), height: max(1, height), background: options.background)
        let placements = layout.lines.enumerated().map { i, line in
            LinePlacement(
                x: aligned(line.width, in: Double(width), margin: margin, options.textAlign ?? .left),
                baseline: margin + metrics.ascent * k + Double(i) * lineHeight)
        }
        try image.draw(layout, placements: placements, font: font, px: px, style: options.style, hinting: options.hinting)
        image.metadata = [
            ("Software", "FontShell"), ("Title", font.name),
            (
                "Comment",
                "text preview: size \(options.pointSize(label: false)) pt, scale \(options.scale), \(options.scaling.rawValue) scaling, \(metrics.source.rawValue) metrics"
            ),
        ]
        return RenderedText(image: image, missing: layout.missing, notInColor: layout.notInColor, baselines: placements.map(\.baseline))
    }

    static func aligned(_ lineWidth: Double, in width: Double, margin: Double, _ align: TextAlign) -> Double {
        switch align {
        case .left: margin
        case .center: (width - lineWidth) / 2
        case .right: width - margin - lineWidth
        }
    }
}
