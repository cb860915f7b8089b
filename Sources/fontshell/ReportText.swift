import JSONText
import FontScript

// Text helpers for the batch and check reports, written here so the command does not link all
// of Foundation (its CoreFoundation and ICU data cost every process start about 0.7 ms).

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
