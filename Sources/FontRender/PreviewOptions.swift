/// Options shared by text and label previews. Sizes are in points; `scale` gives pixels per
/// point (2 and 3 for @2x/@3x screens).
public struct PreviewOptions: Sendable {
    /// Font size in points (pixels at scale 1). Default: 48 for text, 17 (iOS body text) for labels.
    public var size: Double?
    /// A location of a variable face: user coordinates by axis tag (wght = 700); empty draws
    /// the default instance.
    public var variations: [String: Double] = [:]
    public var scale: Double = 1
    /// iOS sizes as given, or as standard (macOS) text scaling shows them: 17 pt body ↔ 13 pt.
    public var scaling: TextScaling = .ios
    public var style = TextStyle()
    public var background: Color = .white
    public var shaping = ShapingOptions()
    /// FreeType's hinting (TrueType bytecode or the auto-hinter); off draws outlines as designed.
    public var hinting = false
    public var platform: Platform = .apple
    /// Forces one set of vertical metrics instead of the platform's.
    public var metrics: MetricsSource?
    /// Text previews: the image width in points (lines wrap at spaces to fit). Labels: the box width.
    public var width: Double?
    /// Labels: the box height in points.
    public var height: Double?
    /// Text previews: space around the text in points (default a quarter of the size, plus the style's reach).
    public var margin: Double?
    /// Default: left for text previews, centre for labels.
    public var textAlign: TextAlign?
    /// Labels: where the line box sits in the box.
    public var verticalAlign: VerticalAlign = .center
    /// Labels: draw the box, its centre, baseline, x-height, cap height, ascender and descender lines.
    public var guides = false
    /// Labels: a legend strip under the box naming each guide colour (default: with guides).
    public var legend: Bool?

    public init() {}

    /// The size in points, or the default for a text preview or a label.
    public func pointSize(label: Bool) -> Double { size ?? (label ? 17 : 48) }

    /// Pixels per em after scale and text scaling.
    public func pixelSize(label: Bool) -> Double { pointSize(label: label) * scale * scaling.factor }

    func validate(label: Bool) throws {
        if let size, !(size.isFinite && size > 0) { throw RenderError("size must be a positive number of points, got \(size.described)") }
        guard scale.isFinite, scale > 0, scale <= 16 else { throw RenderError("scale must be in (0, 16], got \(scale.described)") }
        guard pixelSize(label: label) <= 2000 else {
            throw RenderError("size × scale is \(pixelSize(label: label)) px; the limit is 2000 px")
        }
        if let width, !(width.isFinite && width > 0 && width * scale <= 16384) {
            throw RenderError("width must be in (0, 16384] px, got \(width.described) pt × \(scale)")
        }
        if let height, !(height.isFinite && height > 0 && height * scale <= 16384) {
            throw RenderError("height must be in (0, 16384] px, got \(height.described) pt × \(scale)")
        }
        if let margin, !(margin.isFinite && margin >= 0 && margin <= 1000) {
            throw RenderError("margin must be in 0...1000 points, got \(margin.described)")
        }
        // HarfBuzz applies each feature to every glyph: a flood of them is refused, not shaped for minutes.
        guard shaping.features.count <= 256 else { throw RenderError("at most 256 features, got \(shaping.features.count)") }
        if let long = shaping.features.first(where: { $0.utf8.count > 64 }) {
            throw RenderError("feature '\(long.prefix(20))…' is longer than 64 characters")
        }
        try style.validate()
    }
}

public enum TextScaling: String, CaseIterable, Sendable {
    case ios, standard
    /// Mac Catalyst's standard text scaling shows an iOS 17 pt body at 13 pt.
    public var factor: Double { self == .ios ? 1 : 13.0 / 17.0 }

    public init(parsing text: String) throws {
        guard let s = TextScaling(rawValue: text.lowercased()) else { throw RenderError("unknown scaling '\(text)': use ios or standard") }
        self = s
    }
}

public enum TextAlign: String, CaseIterable, Sendable {
    case left, center, right
    public init(parsing text: String) throws {
        guard let a = TextAlign(rawValue: text.lowercased()) else {
            throw RenderError("unknown textAlign '\(text)': use left, center or right")
        }
        self = a
    }
}

public enum VerticalAlign: String, CaseIterable, Sendable {
    case center, top, bottom
    public init(parsing text: String) throws {
        guard let a = VerticalAlign(rawValue: text.lowercased()) else {
            throw RenderError("unknown align '\(text)': use center, top or bottom")
        }
        self = a
    }
}
