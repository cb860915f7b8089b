#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The font captions, legends and sheet labels are drawn with: $FONTSHELL_UI_FONT, else the
/// first system UI font found (DejaVu Sans and Liberation Sans on Debian, Helvetica on macOS).
enum CaptionFont {
    static let candidates = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/System/Library/Fonts/Helvetica.ttc",
        "/System/Library/Fonts/Supplemental/Arial.ttf",
    ]

    static func load() throws -> RenderFont {
        if let chosen = getenv("FONTSHELL_UI_FONT").map({ String(cString: $0) }), !chosen.isEmpty {
            return try RenderFont(path: chosen)
        }
        guard let path = candidates.first(where: { access($0, R_OK) == 0 }) else {
            throw RenderError("no UI font for captions: install fonts-dejavu-core or set FONTSHELL_UI_FONT")
        }
        return try RenderFont(path: path)
    }
}

/// A line of UI text (caption, legend entry) at a size in pixels.
struct Caption {
    let layout: TextLayout
    let px: Double
    let width: Double

    init(_ text: String, font: RenderFont, px: Double) throws {
        self.px = px
        layout = try TextLayout(text, font: font, px: px, shaping: ShapingOptions())
        width = layout.lines.map(\.width).max() ?? 0
    }

    /// Draws with the top of the text box at `top` (the baseline is 0.8 em lower).
    func draw(into image: inout Image, font: RenderFont, x: Double, top: Double, color: Color = Color(40, 40, 40)) throws {
        var style = TextStyle()
        style.color = color
        let placements = layout.lines.indices.map { LinePlacement(x: x, baseline: top + px * (0.8 + 1.2 * Double($0))) }
        try image.draw(layout, placements: placements, font: font, px: px, style: style, hinting: true)
    }

    var height: Double { px * (1.2 * Double(layout.lines.count) - 0.2) + px * 0.25 }
}
