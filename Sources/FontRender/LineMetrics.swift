import FontModel

/// Which platform's single-line layout a label imitates (docs/previews.md gives the rules).
public enum Platform: String, CaseIterable, Sendable {
    /// UIKit/AppKit (CoreText): hhea ascender, descender and lineGap.
    case apple
    /// DirectWrite/GDI: OS/2 usWinAscent/usWinDescent, or sTypo* when USE_TYPO_METRICS is set.
    case windows

    public init(parsing text: String) throws {
        guard let p = Platform(rawValue: text.lowercased()) else {
            throw RenderError("unknown platform '\(text)': use \(Platform.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        self = p
    }
}

/// A set of vertical metrics forced instead of the platform's choice.
public enum MetricsSource: String, CaseIterable, Sendable {
    case hhea, typo, win

    public init(parsing text: String) throws {
        guard let m = MetricsSource(rawValue: text.lowercased()) else {
            throw RenderError("unknown metrics '\(text)': use \(MetricsSource.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = m
    }
}

/// Ascent and descent (both positive, downwards for descent) and line gap in font units, and
/// which set they came from.
public struct LineMetrics: Sendable {
    public var ascent: Double
    public var descent: Double
    public var lineGap: Double
    public var source: MetricsSource
    public var unitsPerEm: Double

    public var lineHeight: Double { ascent + descent + lineGap }

    /// The metrics a platform lays one line out with, or the forced set.
    public static func of(_ face: Face, platform: Platform, forced: MetricsSource? = nil) throws -> LineMetrics {
        let source: MetricsSource
        if let forced {
            source = forced
        } else {
            switch platform {
            case .apple: source = .hhea
            case .windows: source = (try face.os2)?.useTypoMetrics == true ? .typo : .win
            }
        }
        let upem = Double(try face.head.int("unitsPerEm"))
        guard upem > 0 else { throw RenderError("head.unitsPerEm is 0: the face cannot be laid out") }
        switch source {
        case .hhea:
            let hhea = try face.hhea
            return LineMetrics(
                ascent: Double(hhea.int("ascender")), descent: Double(-hhea.int("descender")),
                lineGap: Double(hhea.int("lineGap")), source: .hhea, unitsPerEm: upem)
        case .typo, .win:
            guard let os2 = try face.os2 else { throw RenderError("the face has no OS/2 table, so it has no \(source.rawValue) metrics") }
            if source == .typo {
                return LineMetrics(
                    ascent: Double(os2.int("sTypoAscender")), descent: Double(-os2.int("sTypoDescender")),
                    lineGap: Double(os2.int("sTypoLineGap")), source: .typo, unitsPerEm: upem)
            }
            return LineMetrics(
                ascent: Double(os2.int("usWinAscent")), descent: Double(os2.int("usWinDescent")),
                lineGap: 0, source: .win, unitsPerEm: upem)
        }
    }
}

/// Heights of the capitals and lower case in font units: OS/2 sCapHeight and sxHeight when the
/// table has them (version 2 and later, non-zero), else measured from 'H' and 'x'.
func capAndXHeight(_ face: Face) throws -> (cap: Double, x: Double) {
    let os2 = try face.os2
    func measured(_ c: Unicode.Scalar) throws -> Double? {
        guard let id = try face.glyphID(for: c), let b = try face.glyphBounds(id) else { return nil }
        return Double(b.yMax)
    }
    let upem = Double(try face.head.int("unitsPerEm"))
    var cap = Double(os2?.int("sCapHeight") ?? 0), x = Double(os2?.int("sxHeight") ?? 0)
    if cap <= 0 { cap = try measured("H") ?? 0.7 * upem }
    if x <= 0 { x = try measured("x") ?? 0.5 * upem }
    return (cap, x)
}
