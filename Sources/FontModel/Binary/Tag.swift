/// A four-byte OpenType tag such as `glyf` or `OS/2`.
public struct Tag: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// Pads short strings with spaces (`"CFF"` is `'CFF '`); nil for non-ASCII or longer than 4.
    public init?(string: String) {
        let scalars = Array(string.unicodeScalars)
        guard scalars.count <= 4, scalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | (i < scalars.count ? scalars[i].value : 0x20) }
        rawValue = value
    }

    public init(stringLiteral value: String) {
        var v: UInt32 = 0
        let scalars = Array(value.unicodeScalars)
        for i in 0..<4 { v = v << 8 | (i < scalars.count ? scalars[i].value & 0xFF : 0x20) }
        rawValue = v
    }

    public var description: String {
        var s = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let b = UInt8((rawValue >> UInt32(shift)) & 0xFF)
            s.unicodeScalars.append(b >= 0x20 && b < 0x7F ? Unicode.Scalar(b) : "?")
        }
        return s
    }

    public static func < (a: Tag, b: Tag) -> Bool { a.rawValue < b.rawValue }
}
