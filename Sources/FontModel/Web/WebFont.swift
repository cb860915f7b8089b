/// What a web font file carries besides its sfnt, kept so a round trip loses nothing (and a
/// WOFF saved as WOFF2, or the other way, keeps it too).
public struct WebFontExtras: Equatable, Sendable {
    /// The header's version of the font package.
    public var majorVersion: Int
    public var minorVersion: Int
    /// Extended metadata: the XML, uncompressed (each format compresses it its own way).
    public var metadata: [UInt8]?
    /// Private data, as stored.
    public var privateData: [UInt8]?

    public init(majorVersion: Int = 1, minorVersion: Int = 0, metadata: [UInt8]? = nil, privateData: [UInt8]? = nil) {
        self.majorVersion = majorVersion; self.minorVersion = minorVersion
        self.metadata = metadata; self.privateData = privateData
    }

    func checkVersion(_ format: String) throws {
        guard (0...0xFFFF).contains(majorVersion), (0...0xFFFF).contains(minorVersion) else {
            throw FontError("\(format) version \(majorVersion).\(minorVersion): each part is UInt16 (0...65535)")
        }
    }
}

/// The container a font is written in.
public enum OutputFormat: String, Sendable, CaseIterable {
    case sfnt, woff, woff2

    /// The format a file name asks for: .woff and .woff2 by extension, anything else an sfnt.
    public static func from(path: String) -> OutputFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".woff2") { return .woff2 }
        if lower.hasSuffix(".woff") { return .woff }
        return .sfnt
    }
}

/// How a WOFF2 is compressed. Brotli quality 11 and a 4 MiB window are what `woff2_compress`
/// uses; a low quality (e.g. 4) saves in a fraction of the time while iterating.
public struct WOFF2Options: Equatable, Sendable {
    /// Brotli quality, 0...11.
    public var quality: Int
    /// Brotli window, log2 of its size: 10...24.
    public var window: Int
    /// The glyf/loca transform (TrueType outlines only); off stores glyf and loca as they are.
    public var transformGlyphs: Bool

    public init(quality: Int = 11, window: Int = 22, transformGlyphs: Bool = true) {
        self.quality = quality; self.window = window; self.transformGlyphs = transformGlyphs
    }

    func check() throws {
        guard (0...11).contains(quality) else { throw FontError("WOFF2 quality \(quality): Brotli takes 0...11") }
        guard (10...24).contains(window) else { throw FontError("WOFF2 window \(window): Brotli takes 10...24 (log2 of the window size)") }
    }
}
