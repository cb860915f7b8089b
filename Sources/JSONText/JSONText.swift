#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one JSON writer (and reader) of the program: `JSONWriter` writes the leaves (strings,
// numbers) for every JSON text FontShell makes — the Lua module's `fontshell.json` (LuaJSON),
// batch records and check reports, `validate --json`, `diff --json`, the registry's lists and
// manifest — so they escape and format alike. No Foundation: linking it costs every process
// start about 0.7 ms.

/// Appends JSON text to a byte buffer. Strings: `"` `\` and control characters escaped (\n, \t,
/// \r, \b, \f or \u00XX, and DEL as \u007f), `/` not escaped; bytes that are not UTF-8 read as
/// Latin-1. Numbers: integers as digits, others with 14 significant digits (as Lua prints
/// them), NaN and infinities as null.
public struct JSONWriter {
    public var bytes: [UInt8] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    public mutating func string(_ text: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (names, keys) are printable ASCII with nothing to escape: copied whole.
        if !text.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let isUTF8 = Self.isUTF8(text)
        for b in text {
            switch b {
            case UInt8(ascii: "\""): bytes += [92, 34]
            case UInt8(ascii: "\\"): bytes += [92, 92]
            case 8: bytes += [92, UInt8(ascii: "b")]
            case 12: bytes += [92, UInt8(ascii: "f")]
            case 10: bytes += [92, UInt8(ascii: "n")]
            case 13: bytes += [92, UInt8(ascii: "r")]
            case 9: bytes += [92, UInt8(ascii: "t")]
            case 0..<32, 127:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
            case 128...255 where !isUTF8:
                // Latin-1: the byte is the code point, written as two UTF-8 bytes.
                bytes += [0xC0 | b >> 6, 0x80 | b & 0x3F]
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Decimal digits, written in place (no String in between).
    /// (Concrete, not generic over BinaryInteger: the generic one's arithmetic went through
    /// witness tables, 2,700 instructions a number in a batch record.)
    public mutating func integer(_ n: Int64) {
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    public mutating func integer(_ n: Int) { integer(Int64(n)) }

    public mutating func number(_ v: Double) {
        guard v.isFinite else { append("null"); return }
        // Integral values that fit print as "%.14g" would (no exponent below 1e14).
        if v == v.rounded(), abs(v) < 1e14 {
            if v == 0 && v.sign == .minus { append("-0") } else { integer(Int64(v)) }
            return
        }
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            let count = withVaList([v]) { vsnprintf(buffer.baseAddress, 40, "%.14g", $0) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(count, 39)))))
        }
    }

    /// Lua's utf8.len test: well-formed, no surrogates, nothing past U+10FFFF.
    public static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var k = 0
        while k < bytes.count {
            let b = bytes[k]
            if b < 0x80 { k += 1; continue }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
            guard length > 0, b < 0xF5, k + length <= bytes.count else { return false }
            var code = UInt32(b) & (0x7F >> UInt32(length))
            for j in 1..<length {
                let c = bytes[k + j]
                guard c & 0xC0 == 0x80 else { return false }
                code = code << 6 | UInt32(c & 0x3F)
            }
            let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard code >= smallest, code <= 0x10FFFF, !(0xD800...0xDFFF).contains(code) else { return false }
            k += length
        }
        return true
    }
}

/// JSON values as plain Swift ones: `[String: Any]`, `[Any]`, `String`, `Int` (integers),
/// `Double` (other numbers), `Bool` and `JSONNull`.
public struct JSONNull: Equatable {
    public init() {}
}

public enum JSONText {
    /// The value of a JSON text, or nil when it is not well-formed JSON. Nesting deeper than 512
    /// levels is refused (the records come from our own workers, but stay bounded anyway).
    public static func parse(_ text: String) -> Any? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.at == parser.bytes.count ? value : nil
    }

    /// JSON text with object keys sorted bytewise; `pretty` indents by two spaces. Values that
    /// are not JSON are written as null; an optional that is nil as an object's member is left
    /// out (as Codable leaves it out).
    public static func write(_ value: Any, pretty: Bool = false) -> String {
        var out = JSONWriter()
        write(value, pretty: pretty, indent: 0, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A JSON string literal.
    public static func quoted(_ text: String) -> String {
        var out = JSONWriter(capacity: text.utf8.count + 2)
        out.string(text)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A number read from a record: integers and other numbers alike.
    public static func number(_ value: Any?) -> Double? {
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    private static func write(_ value: Any, pretty: Bool, indent: Int, into out: inout JSONWriter) {
        func newline(_ depth: Int) {
            guard pretty else { return }
            out.bytes.append(10)
            out.bytes += repeatElement(UInt8(ascii: " "), count: depth)
        }
        switch value {
        case let s as String: out.string(s)
        case let b as Bool: out.append(b ? "true" : "false")
        case let i as Int: out.integer(i)
        case let d as Double: out.number(d)
        case let object as [String: Any]:
            let members = object.filter { !isNil($0.value) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            guard !members.isEmpty else { out.append("{}"); return }
            out.append("{")
            for (k, (key, item)) in members.enumerated() {
                if k > 0 { out.append(",") }
                newline(indent + 2)
                out.string(key)
                if pretty { out.append(": ") } else { out.append(":") }
                write(item, pretty: pretty, indent: indent + 2, into: &out)
            }
            newline(indent)
            out.append("}")
        case let array as [Any]:
            guard !array.isEmpty else { out.append("[]"); return }
            out.append("[")
            for (k, item) in array.enumerated() {
                if k > 0 { out.append(",") }
                newline(indent + 2)
                write(item, pretty: pretty, indent: indent + 2, into: &out)
            }
            newline(indent)
            out.append("]")
        default:
            if !isNil(value), let unwrapped = unwrapOptional(value) {
                write(unwrapped, pretty: pretty, indent: indent, into: &out)
            } else {
                out.append("null")
            }
        }
    }

    private static func isNil(_ value: Any) -> Bool {
        guard let optional = value as? any OptionalProtocol else { return false }
        return optional.wrapped == nil
    }

    /// The value inside an `Optional` passed as `Any` (`face: Int?` in an object literal).
    private static func unwrapOptional(_ value: Any) -> Any? {
        guard let optional = value as? any OptionalProtocol else { return nil }
        return optional.wrapped
    }

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
                    guard at + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else {
                        return nil
                    }
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

private protocol OptionalProtocol { var wrapped: Any? { get } }
extension Optional: OptionalProtocol {
    var wrapped: Any? { self.map { $0 as Any } }
}
