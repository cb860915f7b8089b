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

    /// Splits at newlines, shapes each line and, given `wrapWidth`, breaks lines at spaces
    /// (or anywhere, for a word longer than the width) so each fits.
    init(_ text: String, font: RenderFont, px: Double, shaping: ShapingOptions, wrapWidth: Double? = nil) throws {
        lines = []
        var missingSet: [UInt32] = []
        for paragraph in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Array(paragraph)
            if rest.last == "\r" { rest.removeLast() }
            repeat {
                var glyphs = try font.shape(rest, px: px, options: shaping)
                if let wrapWidth, glyphs.reduce(0, { $0 + $1.xAdvance }) > wrapWidth, rest.count > 1 {
                    let cut = TextLayout.breakIndex(rest, glyphs, wrapWidth)
                    let line = Array(rest[..<cut])
                    glyphs = try font.shape(line, px: px, options: shaping)
                    lines.append(LaidLine(text: line, glyphs: glyphs))
                    rest = Array(rest[cut...].drop { $0 == " " })
                } else {
                    lines.append(LaidLine(text: rest, glyphs: glyphs))
                    rest = []
                }
                for g in glyphs where g.id == 0 && g.cluster < lines[lines.count - 1].text.count {
                    let c = lines[lines.count - 1].text[g.cluster].value
                    if !missingSet.contains(c) { missingSet.append(c) }
                }
            } while !rest.isEmpty
        }
        missing = missingSet.map { c in
            let hex = String(c, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + (Unicode.Scalar(c).map { " '\(Character($0))'" } ?? "")
        }
    }

    /// The character index to break before: after the last space that fits, else at the last
    /// cluster that fits (at least one character per line).
    private static func breakIndex(_ text: [Unicode.Scalar], _ glyphs: [ShapedGlyph], _ width: Double) -> Int {
        var pen = 0.0
        var fits = 1
        for g in glyphs.sorted(by: { $0.cluster < $1.cluster }) {
            pen += g.xAdvance
            if pen > width { break }
            fits = max(fits, g.cluster + 1)
        }
        if let space = text[..<min(text.count, fits + 1)].lastIndex(of: " "), space > 0 { return space }
        return min(max(1, fits), text.count)
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
    mutating func draw(_ layout: TextLayout, placements: [LinePlacement], font: RenderFont, px: Double, style: TextStyle, hinting: Bool) throws {
        var fills: [CoverageMask] = []
        // Empty unless the style has a stroke.
        var strokeMask = style.stroke == nil ? CoverageMask(width: 0, height: 0) : CoverageMask(width: width, height: height)
        for (line, place) in zip(layout.lines, placements) {
            var mask = CoverageMask(width: width, height: height)
            var pen = place.x, rise = 0.0
            for g in line.glyphs {
                let x = pen + g.xOffset, y = place.baseline - rise - g.yOffset
                try font.rasterize(g.id, px: px, x: x, y: y, hinting: hinting, into: &mask)
                if let stroke = style.stroke {
                    try font.rasterize(g.id, px: px, x: x, y: y, hinting: hinting, strokeRadius: stroke.width, into: &strokeMask)
                }
                pen += g.xAdvance
                rise += g.yAdvance
            }
            fills.append(mask)
        }
        if style.glow != nil || style.shadow != nil {
            var silhouette = style.stroke == nil ? CoverageMask(width: width, height: height) : strokeMask
            if style.stroke == nil { for f in fills { silhouette.add(f) } }
            if let glow = style.glow { paint(silhouette.blurred(radius: glow.radius).amplified(2), at: 0, 0, glow.color) }
            if let shadow = style.shadow {
                paint(silhouette.blurred(radius: shadow.blur), at: Int(shadow.dx.rounded()), Int(shadow.dy.rounded()), shadow.color)
            }
        }
        if let stroke = style.stroke { paint(strokeMask, at: 0, 0, stroke.color) }
        for mask in fills {
            if style.gradient.count >= 2, let ink = mask.inkBounds {
                let span = Double(max(1, ink.maxY - ink.minY))
                paint(mask, at: 0, 0) { row in style.fillColor(at: Double(row - ink.minY) / span) }
            } else {
                paint(mask, at: 0, 0, style.color)
            }
        }
    }
}
