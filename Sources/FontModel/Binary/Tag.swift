/// A four-byte OpenType tag such as `glyf` or `OS/2`.
public struct Tag: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// Pads short strings with spaces (`"CFF"` is `'CFF '`); nil for non-ASCII or longer than 4.
    public init?(string: String) {
        var value: UInt32 = 0, count = 0
        for byte in string.utf8 {
            guard count < 4, byte >= 0x20, byte < 0x7F else { return nil }
            value = value << 8 | UInt32(byte)
            count += 1
        }
        for _ in count..<4 { value = value << 8 | 0x20 }
        rawValue = value
    }

    /// Tags written as literals ("glyf", "OS/2", "CFF"): read straight from the literal's
    /// bytes (no String), since table lookups use them on every access. Short ones are padded
    /// with spaces; past four bytes is ignored.
    public init(stringLiteral value: StaticString) {
        var v: UInt32 = 0, count = 0
        if value.hasPointerRepresentation {
            let bytes = UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount)
            for byte in bytes.prefix(4) { v = v << 8 | UInt32(byte); count += 1 }
        } else {
            for byte in String(value.unicodeScalar).utf8.prefix(4) { v = v << 8 | UInt32(byte); count += 1 }
        }
        for _ in count..<4 { v = v << 8 | 0x20 }
        rawValue = v
    }

    /// A tag from text known only at run time, read as a literal is: the first four bytes,
    /// padded with spaces (`init(string:)` is the checked form).
    public init(text: String) {
        var v: UInt32 = 0, count = 0
        for byte in text.utf8.prefix(4) { v = v << 8 | UInt32(byte); count += 1 }
        for _ in count..<4 { v = v << 8 | 0x20 }
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

    /// The tag without its trailing spaces ("cvt ", "CFF " → "cvt", "CFF"), for names and files.
    public var trimmed: String {
        var s = description
        while s.count > 1 && s.last == " " { s.removeLast() }
        return s
    }

    public static func < (a: Tag, b: Tag) -> Bool { a.rawValue < b.rawValue }
}
