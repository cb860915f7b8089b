/// What app designers add to a label: a solid or gradient fill, a stroke, a drop shadow, a glow.
public struct TextStyle: Sendable {
    /// Solid fill colour, used when `gradient` is empty.
    public var color: Color = .black
    /// Vertical gradient stops, evenly spaced top to bottom over each line's ink (so no line
    /// bleeds into the next). Two or more colours.
    public var gradient: [Color] = []
    public var stroke: Stroke?
    public var shadow: Shadow?
    public var glow: Glow?

    public init() {}

    public struct Stroke: Sendable {
        /// Width in pixels outside the glyph outline.
        public var width: Double
        public var color: Color
        public init(width: Double, color: Color) { self.width = width; self.color = color }
    }

    public struct Shadow: Sendable {
        public var dx: Double, dy: Double
        public var blur: Double
        public var color: Color
        public init(dx: Double = 2, dy: Double = 2, blur: Double = 3, color: Color = Color(0, 0, 0, 128)) {
            self.dx = dx; self.dy = dy; self.blur = blur; self.color = color
        }
    }

    public struct Glow: Sendable {
        public var radius: Double
        public var color: Color
        public init(radius: Double = 6, color: Color = Color(255, 215, 0, 200)) { self.radius = radius; self.color = color }
    }

    /// How far the style reaches beyond the glyphs' ink, in pixels (to keep it inside a preview).
    var overhang: Double {
        var reach = stroke?.width ?? 0
        if let s = shadow { reach = max(reach, (stroke?.width ?? 0) + max(abs(s.dx), abs(s.dy)) + s.blur * 1.5) }
        if let g = glow { reach = max(reach, (stroke?.width ?? 0) + g.radius * 1.5) }
        return reach
    }

    func validate() throws {
        if gradient.count == 1 { throw RenderError("a gradient needs at least two colours") }
        if let s = stroke, !(s.width > 0 && s.width <= 100) { throw RenderError("stroke width must be in 0...100 px, got \(s.width)") }
        if let s = shadow, !(s.blur >= 0 && s.blur <= 100) { throw RenderError("shadow blur must be in 0...100 px, got \(s.blur)") }
        if let g = glow, !(g.radius > 0 && g.radius <= 100) { throw RenderError("glow radius must be in 0...100 px, got \(g.radius)") }
    }

    /// The gradient colour at t (0 top ... 1 bottom).
    func fillColor(at t: Double) -> Color {
        guard gradient.count >= 2 else { return color }
        let position = min(1, max(0, t)) * Double(gradient.count - 1)
        let i = min(gradient.count - 2, Int(position))
        return gradient[i].mixed(with: gradient[i + 1], position - Double(i))
    }
}
