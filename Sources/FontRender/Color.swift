import FontModel

/// An 8-bit sRGB colour with straight (not premultiplied) alpha.
public struct Color: Equatable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public static let black = Color(0, 0, 0)
    public static let white = Color(255, 255, 255)
    public static let clear = Color(0, 0, 0, 0)

    static let named: [String: Color] = [
        "black": .black, "white": .white, "clear": .clear, "transparent": .clear,
        "red": Color(255, 0, 0), "green": Color(0, 128, 0), "blue": Color(0, 0, 255),
        "gray": Color(128, 128, 128), "grey": Color(128, 128, 128), "yellow": Color(255, 255, 0),
        "orange": Color(255, 165, 0), "purple": Color(128, 0, 128), "cyan": Color(0, 255, 255),
        "magenta": Color(255, 0, 255),
    ]

    /// "#rgb", "#rrggbb", "#rrggbbaa" or a CSS basic colour name.
    public init(parsing text: String) throws {
        if let c = Color.named[text.lowercased()] { self = c; return }
        var hex = Array(text.utf8)
        guard hex.first == UInt8(ascii: "#") else {
            throw RenderError(
                "colour '\(text)' is not #rgb, #rrggbb, #rrggbbaa or a name (\(Color.named.keys.sorted().joined(separator: ", ")))")
        }
        hex.removeFirst()
        if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
        guard hex.count == 6 || hex.count == 8 else { throw RenderError("colour '\(text)' must have 3, 6 or 8 hex digits") }
        var bytes: [UInt8] = []
        var i = 0
        while i < hex.count {
            guard let hi = Color.hexValue(hex[i]), let lo = Color.hexValue(hex[i + 1]) else {
                throw RenderError("colour '\(text)' has a character that is not a hex digit")
            }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        self.init(bytes[0], bytes[1], bytes[2], bytes.count == 4 ? bytes[3] : 255)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public var description: String {
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in (a == 255 ? [r, g, b] : [r, g, b, a]) { s.append(digits[Int(v >> 4)]); s.append(digits[Int(v & 15)]) }
        return s
    }

    /// Linear interpolation in sRGB, t in 0...1.
    func mixed(with other: Color, _ t: Double) -> Color {
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * t).rounded()) }
        return Color(mix(r, other.r), mix(g, other.g), mix(b, other.b), mix(a, other.a))
    }
}

/// A rendering failure: bad options, a face that cannot be drawn, a file that cannot be written.
public struct RenderError: ToolError, Sendable {
    public let description: String
    public init(_ message: String) { description = message }
}
