import FontModel

/// Where a label put its line, in pixels from the top of the box.
public struct LabelMeasurements: Sendable {
    public var baseline: Double
    /// The line box (ascent + descent + line gap of the metrics used), top and bottom.
    public var lineTop: Double
    public var lineBottom: Double
    public var boxCenter: Double
    public var capHeight: Double
    public var xHeight: Double
    /// How far the visual centre of the capitals (half the cap height above the baseline) sits
    /// below (+) or above (−) the box centre. What an ascender sweep drives to zero.
    public var capCenterOffset: Double
    public var ascent: Double, descent: Double, lineGap: Double
    public var metrics: MetricsSource
    public var textWidth: Double
    public var missing: [String]
    /// Characters drawn without their colour (see `RenderedText.notInColor`).
    public var notInColor: [String] = []
}

public struct RenderedLabel: Sendable {
    public var image: Image
    public var measurements: LabelMeasurements
}

/// Guide colours, each distinct, named in the legend.
enum Guide: String, CaseIterable {
    case box, center, baseline, xHeight = "x-height", capHeight = "cap height", ascender, descender

    var color: Color {
        switch self {
        case .box: Color(150, 150, 150)
        case .center: Color(233, 30, 99)
        case .baseline: Color(41, 98, 255)
        case .xHeight: Color(0, 161, 82)
        case .capHeight: Color(255, 109, 0)
        case .ascender: Color(170, 0, 255)
        case .descender: Color(0, 184, 212)
        }
    }
}

extension Preview {
    /// One line of text in a fixed box laid out as a platform does: the line box (ascent +
    /// descent + line gap) centred in the box (or at its top or bottom), the baseline `ascent`
    /// below the line box's top. See docs/previews.md for each platform's rule.
    public static func label(_ face: Face, _ text: String, options: PreviewOptions) throws -> RenderedLabel {
        try options.validate(label: true)
        guard !text.isEmpty else { throw RenderError("text is empty: nothing to draw") }
        guard let boxWidth = options.width, let boxHeight = options.height else {
            throw RenderError("a label needs width and height (in points)")
        }
        let font = try RenderFont(face: face)
        try font.vary(face, options.variations)
        let px = options.pixelSize(label: true)
        let metrics = try LineMetrics.of(face, platform: options.platform, forced: options.metrics)
        let k = px / metrics.unitsPerEm
        let w = Int((boxWidth * options.scale).rounded()), h = Int((boxHeight * options.scale).rounded())
        let single = text.replacing("\n", with: " ")
        let layout = try TextLayout(single, font: font, px: px, shaping: options.shaping)
        let lineWidth = layout.lines.first?.width ?? 0

        let lineHeight = metrics.lineHeight * k
        let lineTop: Double
        switch options.verticalAlign {
        case .center: lineTop = (Double(h) - lineHeight) / 2
        case .top: lineTop = 0
        case .bottom: lineTop = Double(h) - lineHeight
        }
        let baseline = lineTop + metrics.ascent * k
        let heights = try capAndXHeight(face)
        let boxCenter = Double(h) / 2
        let measurements = LabelMeasurements(
            baseline: baseline, lineTop: lineTop, lineBottom: lineTop + lineHeight, boxCenter: boxCenter,
            capHeight: heights.cap * k, xHeight: heights.x * k,
            capCenterOffset: (baseline - heights.cap * k / 2) - boxCenter,
            ascent: metrics.ascent * k, descent: metrics.descent * k, lineGap: metrics.lineGap * k,
            metrics: metrics.source, textWidth: lineWidth, missing: layout.missing, notInColor: layout.notInColor)

        let showLegend = options.guides && (options.legend ?? true)
        let ui = showLegend ? try CaptionFont.load() : nil
        let legend = try ui.map { try Legend(measurements: measurements, font: $0, scale: options.scale, width: w) }
        try Image.checkSize(width: w, height: h + (legend?.height ?? 0), "the label")
        var image = Image(width: w, height: h + (legend?.height ?? 0), background: options.background)
        let x = aligned(lineWidth, in: Double(w), margin: 0, options.textAlign ?? .center)
        try image.draw(
            layout, placements: [LinePlacement(x: x, baseline: baseline)], font: font, px: px, style: options.style,
            hinting: options.hinting)
        if options.guides { drawGuides(&image, measurements, width: w, height: h) }
        if let legend, let ui { try legend.draw(into: &image, font: ui, top: h) }
        image.metadata = [
            ("Software", "FontShell"), ("Title", font.name),
            (
                "Comment",
                "label \(boxWidth)x\(boxHeight) pt @\(options.scale)x, size \(options.pointSize(label: true)) pt, \(options.platform.rawValue) platform, \(metrics.source.rawValue) metrics, \(options.verticalAlign.rawValue), baseline \(rounded(baseline)) px, capCenterOffset \(rounded(measurements.capCenterOffset)) px"
            ),
        ]
        return RenderedLabel(image: image, measurements: measurements)
    }

    /// A measurement for messages: at most two decimals, no trailing ".0".
    /// Where the capitals' centre sits against the box centre, in words: "caps 2.4 px low",
    /// "caps 1.0 px high", "caps centred" (one decimal everywhere).
    public static func capsPlacement(_ offset: Double) -> String {
        let tenths = Int((abs(offset) * 10).rounded())
        if tenths == 0 { return "caps centred" }
        return "caps \(tenths / 10).\(tenths % 10) px \(offset > 0 ? "low" : "high")"
    }

    public static func rounded(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private static func drawGuides(_ image: inout Image, _ m: LabelMeasurements, width w: Int, height h: Int) {
        // A line within two pixels of one already drawn is dashed over it, so both colours show
        // (cap height and ascender often nearly coincide).
        var drawn: [Int] = []
        func line(_ y: Double, _ guide: Guide, dash: Int = 0) {
            let row = Int(y.rounded(.down))
            let crowded = drawn.contains { abs($0 - row) <= 2 }
            image.horizontalLine(y: row, from: 0, to: w, guide.color, dash: crowded && dash == 0 ? 3 : dash)
            drawn.append(row)
        }
        line(m.baseline - m.ascent, .ascender)
        line(m.baseline + m.descent, .descender)
        line(m.baseline - m.capHeight, .capHeight)
        line(m.baseline - m.xHeight, .xHeight)
        line(m.baseline, .baseline)
        line(m.boxCenter, .center, dash: 4)
        image.strokeRect(x: 0, y: 0, width: w, height: h, Guide.box.color)
    }
}

/// The strip under a label naming each guide colour, then the measurements.
struct Legend {
    var entries: [(Guide, Caption)]
    /// The label's own numbers; nil in a sweep sheet's one legend (each cell's caption has them).
    var summary: Caption?
    var rows: [[Int]]
    let px: Double, rowHeight: Double, swatch: Double, pad: Double

    init(measurements m: LabelMeasurements?, font: RenderFont, scale: Double, width: Int) throws {
        let px = 9 * scale
        self.px = px
        rowHeight = (px * 1.5).rounded(.up)
        swatch = 12 * scale
        pad = 4 * scale
        entries = try Guide.allCases.map { ($0, try Caption($0.rawValue, font: font, px: px)) }
        if let m {
            let parts = ["\(m.metrics.rawValue): baseline \(Preview.rounded(m.baseline)) px", Preview.capsPlacement(m.capCenterOffset)]
            let oneLine = try Caption(parts.joined(separator: ", "), font: font, px: px)
            // Narrow labels get the summary on two lines rather than cut off.
            summary = oneLine.width <= Double(width) - 2 * pad ? oneLine : try Caption(parts.joined(separator: "\n"), font: font, px: px)
        }
        // Entries flow left to right and wrap to the label's width.
        var rows: [[Int]] = [[]]
        var x = pad
        for (i, e) in entries.enumerated() {
            let w = swatch + pad + e.1.width + 2 * pad
            if x + w > Double(width), !(rows[rows.count - 1].isEmpty) { rows.append([]); x = pad }
            rows[rows.count - 1].append(i)
            x += w
        }
        self.rows = rows
    }

    var height: Int { Int((Double(rows.count + (summary?.layout.lines.count ?? 0)) * rowHeight + pad).rounded(.up)) }

    func draw(into image: inout Image, font: RenderFont, top: Int) throws {
        image.fill(x: 0, y: top, width: image.width, height: height, Color(248, 248, 248))
        for (r, row) in rows.enumerated() {
            var x = pad
            let y = Double(top) + pad + Double(r) * rowHeight
            for i in row {
                let (guide, caption) = entries[i]
                let thickness = max(2, Int((2 * px / 11).rounded()))
                image.fill(x: Int(x), y: Int((y + px * 0.5).rounded()) - thickness / 2, width: Int(swatch), height: thickness, guide.color)
                try caption.draw(into: &image, font: font, x: x + swatch + pad, top: y)
                x += swatch + pad + caption.width + 2 * pad
            }
        }
        try summary?.draw(into: &image, font: font, x: pad, top: Double(top) + pad + Double(rows.count) * rowHeight)
    }
}
