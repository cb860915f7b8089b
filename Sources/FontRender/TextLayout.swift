/// Text shaped into lines and drawn with a style: shared by text previews, labels and captions.
struct LaidLine {
    var text: [Unicode.Scalar]
    var glyphs: [ShapedGlyph]
    var width: Double { glyphs.reduce(0) { $0 + $1.xAdvance } }
}

struct TextLayout {
    var lines: [LaidLine]
    /// Characters the face has no glyph for (drawn as .notdef), as "U+0041 'A'".
    var missing: [String]
    /// Characters drawn without their colour (FreeType does not paint it), as "U+1F600 '😀'
    /// (COLR v1 paint)".
    var notInColor: [String]

    /// Longest text a preview lays out (Unicode scalars): more is refused, not drawn for minutes.
    static let maximumLength = 20_000

    /// Splits at newlines, shapes each line and, given `wrapWidth`, breaks lines at spaces
    /// (or anywhere, for a word longer than the width) so each fits. Each paragraph is shaped
    /// once to find the breaks and each line once more to draw it: linear in the text.
    init(_ text: String, font: RenderFont, px: Double, shaping: ShapingOptions, wrapWidth: Double? = nil) throws {
        let length = text.unicodeScalars.count
        guard length <= TextLayout.maximumLength else {
            throw RenderError("text is \(length) characters; a preview lays out at most \(TextLayout.maximumLength)")
        }
        lines = []
        var missingSet = Set<UInt32>(), missingOrder: [UInt32] = []
        var uncoloredSet = Set<UInt32>(), uncolored: [(UInt32, String)] = []
        for paragraph in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            var characters = Array(paragraph)
            if characters.last == "\r" { characters.removeLast() }
            var pieces: [ArraySlice<Unicode.Scalar>] = [characters[...]]
            if let wrapWidth {
                let glyphs = try font.shape(characters, px: px, options: shaping)
                if glyphs.reduce(0, { $0 + $1.xAdvance }) > wrapWidth && characters.count > 1 {
                    pieces = TextLayout.breakLines(characters, glyphs, wrapWidth)
                }
            }
            for piece in pieces {
                let line = Array(piece)
                let glyphs = try font.shape(line, px: px, options: shaping)
                lines.append(LaidLine(text: line, glyphs: glyphs))
                for g in glyphs where g.id == 0 && g.cluster < line.count {
                    let c = line[g.cluster].value
                    if missingSet.insert(c).inserted { missingOrder.append(c) }
                }
                for g in glyphs where g.cluster < line.count {
                    guard let form = font.colorNotDrawn[g.id] else { continue }
                    let c = line[g.cluster].value
                    if uncoloredSet.insert(c).inserted { uncolored.append((c, form)) }
                }
            }
        }
        missing = missingOrder.map(Self.describe)
        notInColor = uncolored.map { Self.describe($0.0) + " (\($0.1))" }
    }

    /// "U+0041 'A'"
    static func describe(_ c: UInt32) -> String {
        let hex = String(c, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + (Unicode.Scalar(c).map { " '\(Character($0))'" } ?? "")
    }

    /// Greedy line breaking over the paragraph's advances (each cluster's advance charged to its
    /// first character): break after the last space that fits, else at the last character that
    /// fits (at least one character per line); spaces at a break are dropped.
    private static func breakLines(_ text: [Unicode.Scalar], _ glyphs: [ShapedGlyph], _ width: Double) -> [ArraySlice<Unicode.Scalar>] {
        var advance = [Double](repeating: 0, count: text.count)
        for g in glyphs where g.cluster < text.count { advance[g.cluster] += g.xAdvance }
        var lines: [ArraySlice<Unicode.Scalar>] = []
        var start = 0
        while start < text.count {
            var pen = 0.0, end = start, lastSpace: Int?
            while end < text.count {
                if pen + advance[end] > width && end > start { break }
                pen += advance[end]
                if text[end] == " " && end > start { lastSpace = end }
                end += 1
            }
            // A space right after what fits is a break too.
            if end < text.count, text[end] == " " { lastSpace = end }
            let cut = end >= text.count ? end : (lastSpace ?? end)
            lines.append(text[start..<cut])
            start = cut
            while start < text.count && text[start] == " " { start += 1 }
        }
        return lines
    }
}

/// Where each line goes: its pen start and baseline in image pixels.
struct LinePlacement {
    var x: Double
    var baseline: Double
}

extension Image {
    /// Draws laid-out lines with a style: glow, then shadow, then stroke, then the fill, each
    /// under the next. Gradients run over each line's own ink.
    mutating func draw(_ layout: TextLayout, placements: [LinePlacement], font: RenderFont, px: Double, style: TextStyle, hinting: Bool)
        throws
    {
        var fills: [CoverageMask] = []
        // Empty unless the style has a stroke.
        var strokeMask = style.stroke == nil ? CoverageMask(width: 0, height: 0) : CoverageMask(width: width, height: height)
        var fillTops: [Int] = []
        // Colour glyphs (emoji bitmaps, COLR layers) are drawn over the fill as they are.
        var colored: [(image: Image, x: Int, y: Int)] = []
        for (line, place) in zip(layout.lines, placements) {
            // Each line's fill covers only its band (2 em above the baseline, 1 below, plus the
            // style's overhang), so memory grows with the text, not with lines × image.
            let reach = Int((px + style.overhang).rounded(.up))
            let top = max(0, Int(place.baseline.rounded(.down)) - 2 * reach)
            let bottom = min(height, Int(place.baseline.rounded(.up)) + reach)
            var mask = CoverageMask(width: width, height: max(0, bottom - top))
            var pen = place.x, rise = 0.0
            for g in line.glyphs {
                let x = pen + g.xOffset, y = place.baseline - rise - g.yOffset
                if let color = try font.colorGlyph(g.id, px: px, x: x, y: y) {
                    colored.append(color)
                    pen += g.xAdvance
                    rise += g.yAdvance
                    continue
                }
                try font.rasterize(g.id, px: px, x: x, y: y - Double(top), hinting: hinting, into: &mask)
                if let stroke = style.stroke {
                    try font.rasterize(g.id, px: px, x: x, y: y, hinting: hinting, strokeRadius: stroke.width, into: &strokeMask)
                }
                pen += g.xAdvance
                rise += g.yAdvance
            }
            fills.append(mask)
            fillTops.append(top)
        }
        if style.glow != nil || style.shadow != nil {
            var silhouette = style.stroke == nil ? CoverageMask(width: width, height: height) : strokeMask
            if style.stroke == nil { for (f, top) in zip(fills, fillTops) { silhouette.add(f, at: top) } }
            if let glow = style.glow { paint(silhouette.blurred(radius: glow.radius).amplified(2), at: 0, 0, glow.color) }
            if let shadow = style.shadow {
                paint(silhouette.blurred(radius: shadow.blur), at: Int(shadow.dx.rounded()), Int(shadow.dy.rounded()), shadow.color)
            }
        }
        if let stroke = style.stroke { paint(strokeMask, at: 0, 0, stroke.color) }
        for (mask, top) in zip(fills, fillTops) {
            if style.gradient.count >= 2, let ink = mask.inkBounds {
                let span = Double(max(1, ink.maxY - ink.minY))
                paint(mask, at: 0, top) { row in style.fillColor(at: Double(row - top - ink.minY) / span) }
            } else {
                paint(mask, at: 0, top, style.color)
            }
        }
        for c in colored { draw(c.image, at: c.x, c.y) }
    }
}
