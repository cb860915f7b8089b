import FontScript

/// Text helpers for the batch and check reports, written here so the command does not link all
/// of Foundation (its CoreFoundation and ICU data cost every process start about 0.7 ms).
///
/// JSON values are the plain Swift ones: `[String: Any]`, `[Any]`, `String`, `Int` (integers),
/// `Double` (other numbers), `Bool` and `JSONNull`.
struct JSONNull: Equatable {}

enum JSONText {
    /// The value of a JSON text, or nil when it is not well-formed JSON. Nesting deeper than 512
    /// levels is refused (the records come from our own workers, but stay bounded anyway).
    static func parse(_ text: String) -> Any? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.at == parser.bytes.count ? value : nil
    }

    /// JSON text with object keys sorted bytewise, `/` not escaped; `pretty` indents by two spaces.
    /// Values that are not JSON (and NaN or infinite numbers) are written as null.
    static func write(_ value: Any, pretty: Bool = false) -> String {
        var out = ""
        write(value, pretty: pretty, indent: 0, into: &out)
        return out
    }

    /// A number read from a record: integers and other numbers alike.
    static func number(_ value: Any?) -> Double? {
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    private static func write(_ value: Any, pretty: Bool, indent: Int, into out: inout String) {
        let newline = pretty ? "\n" + String(repeating: " ", count: indent + 2) : ""
        let closing = pretty ? "\n" + String(repeating: " ", count: indent) : ""
        switch value {
        case let s as String: quote(s, into: &out)
        case let b as Bool: out += b ? "true" : "false"
        case let i as Int: out += String(i)
        case let d as Double: out += d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)) : "null"
        case let object as [String: Any]:
            guard !object.isEmpty else { out += "{}"; return }
            out += "{"
            for (k, (key, item)) in object.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                out += (k > 0 ? "," : "") + newline
                quote(key, into: &out)
                out += pretty ? ": " : ":"
                write(item, pretty: pretty, indent: indent + 2, into: &out)
            }
            out += closing + "}"
        case let array as [Any]:
            guard !array.isEmpty else { out += "[]"; return }
            out += "["
            for (k, item) in array.enumerated() {
                out += (k > 0 ? "," : "") + newline
                write(item, pretty: pretty, indent: indent + 2, into: &out)
            }
            out += closing + "]"
        default: out += "null"
        }
    }

    private static func quote(_ s: String, into out: inout String) { out += FontJob.jsonString(s) }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard at + w.count <= bytes.count, bytes[at..<(at + w.count)].elementsEqual(w) else { return false }
            at += w.count
            return true
        }

        mutating func value(depth: Int) -> Any? {
            guard depth < 512 else { return nil }
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var object: [String: Any] = [:]
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return object }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                    at += 1
                    guard let v = value(depth: depth + 1) else { return nil }
                    object[key] = v
                    skipSpace()
                    guard at < bytes.count else { return nil }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "}") { at += 1; return object }
                    return nil
                }
            case UInt8(ascii: "["):
                at += 1
                var array: [Any] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return array }
                while true {
                    guard let v = value(depth: depth + 1) else { return nil }
                    array.append(v)
                    skipSpace()
                    guard at < bytes.count else { return nil }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "]") { at += 1; return array }
                    return nil
                }
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true") ? true : nil
            case UInt8(ascii: "f"): return literal("false") ? false : nil
            case UInt8(ascii: "n"): return literal("null") ? JSONNull() : nil
            default: return number()
            }
        }

        mutating func number() -> Any? {
            let start = at
            var integral = true
            while at < bytes.count {
                let c = bytes[at]
                if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") { at += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") {
                    integral = false; at += 1; continue
                }
                break
            }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            if integral, let i = Int(text) { return i }
            return Double(text)
        }

        mutating func string() -> String? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
            at += 1
            var out: [UInt8] = []
            var pendingHigh: UInt32?
            while at < bytes.count {
                let c = bytes[at]
                at += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard c == UInt8(ascii: "\\") else { out.append(c); continue }
                guard at < bytes.count else { return nil }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard at + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else { return nil }
                    at += 4
                    var scalar = v
                    if (0xD800..<0xDC00).contains(v) { pendingHigh = v; continue }
                    if (0xDC00..<0xE000).contains(v), let high = pendingHigh { scalar = 0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00) }
                    pendingHigh = nil
                    out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
                default: out.append(e)   // \" \\ \/
                }
            }
            return nil
        }
    }
}

/// `value` with `digits` decimals ("%.2f" without Foundation's String(format:)).
func fixedPoint(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return String(value) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return String(value) }
    let whole = Int(scaled)
    var text = String(whole / Int(scale))
    if digits > 0 {
        let fraction = String(whole % Int(scale))
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return (value < 0 && whole != 0 ? "-" : "") + text
}

/// A path with the bytes a URI path may not hold written as %XX (RFC 3986: unreserved,
/// sub-delims, ':', '@' and '/' stay).
func percentEncodedPath(_ path: String) -> String {
    var out = ""
    for b in path.utf8 {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            out.unicodeScalars.append(Unicode.Scalar(b))
        case _ where "-._~!$&'()*+,;=:@/".utf8.contains(b): out.unicodeScalars.append(Unicode.Scalar(b))
        default:
            let hex = String(b, radix: 16, uppercase: true)
            out += "%" + (hex.count == 1 ? "0" : "") + hex
        }
    }
    return out
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: SubSequence {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let start = firstIndex { !blank($0) } ?? endIndex
        let end = lastIndex { !blank($0) }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}

/// At least four uppercase hex digits ("%04X").
func hex4(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
