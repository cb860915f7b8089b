/// A file name made from text the user did not type as a path: a PostScript or family name
/// read from a font, a `--name` option. It names a file inside the folder given, never another
/// folder or a hidden file: separators, control characters and characters Windows and macOS
/// refuse become "_", leading dots and spaces go, and it is at most 150 bytes of UTF-8 (room
/// for a suffix such as ".12.woff2" within the 255 a file system allows).
public enum SafeFileName {
    public static let maximumBytes = 150

    public static func from(_ text: String, fallback: String = "font") -> String {
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let replaced: Unicode.Scalar = isUnsafe(scalar) ? "_" : scalar
            let width = UTF8.width(replaced)
            guard bytes + width <= maximumBytes else { break }
            out.unicodeScalars.append(replaced)
            bytes += width
        }
        while let first = out.first, first == "." || first == " " { out.removeFirst() }
        while let last = out.last, last == " " || last == "." { out.removeLast() }
        return out.isEmpty ? fallback : out
    }

    static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F..<0xA0: return true   // control characters
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true   // bidi controls (a name that reads backwards)
        default: return "/\\:*?\"<>|".unicodeScalars.contains(s)
        }
    }
}
