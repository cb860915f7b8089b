import FontModel

/// A scalar member's `value` text, both ways: every described member (a field table's, a
/// structured table's) writes and reads its value here, by its binary type and TTX format.
/// What a record adds around it (a version pair's two halves, a lookup flag's comment) is the
/// record writer's.
extension TTX {
    /// The text of a scalar's value attribute, before XML escaping.
    static func scalarText(_ v: Int64, _ kind: FieldKind, _ format: TTXFormat) -> String {
        switch format {
        case .angle: return multipleText((Double(v) / F2Dot14.scale) * 180, factor: 180.0 / F2Dot14.scale)
        case .biasedAngle: return multipleText((Double(v) / F2Dot14.scale + 1) * 180, factor: 180.0 / F2Dot14.scale)
        case .names(let names): return v >= 0 && v < names.count ? names[Int(v)] : String(v)
        case .hex8: return "0x" + paddedHex(UInt32(truncatingIfNeeded: v), 8)
        case .hex: return "0x" + String(UInt32(truncatingIfNeeded: v), radix: 16)
        case .deciPoints: return "\(Double(v) / 10)"
        case .exactFloat: return pythonFloatText(Double(v) / Fixed.scale)
        case .binary:
            let bits = kind.size * 8
            let digits = String(UInt64(UInt32(truncatingIfNeeded: v)), radix: 2)
            let padded = String(repeating: "0", count: max(0, bits - digits.count)) + digits
            return stride(from: 0, to: bits, by: 8).map { String(padded.dropFirst($0).prefix(8)) }.joined(separator: " ")
        case .headDate:
            var date = v > 0xFFFF_FFFF ? v & 0xFFFF_FFFF : v
            if date < 0x7C25_9DC0 { date += 0x7C25_9DC0 }
            return asctime1904(date)
        default:
            switch kind {
            case .fixed, .version32: return decimalText(v, scale: Fixed.scale)
            case .f2dot14: return decimalText(v, scale: F2Dot14.scale)
            case .longDateTime: return asctime1904(v)
            case .tag:
                // As fontTools writes a tag: its bytes as a Python string literal's body (Latin-1),
                // so a NUL is "\x00" and survives the XML.
                let t = UInt32(truncatingIfNeeded: v)
                return [t >> 24, t >> 16 & 0xFF, t >> 8 & 0xFF, t & 0xFF].map { pythonEscaped(UInt8($0)) }.joined()
            default: return String(v)
            }
        }
    }

    /// A scalar's stored bits from its value attribute's text; nil when the text is not a value
    /// of that type and format. The range of the binary type is the caller's to check.
    static func scalarValue(_ text: String, _ kind: FieldKind, _ format: TTXFormat) -> Int64? {
        let trimmed = text.trimmingWhitespace()
        switch format {
        case .angle, .biasedAngle:
            // Degrees to F2Dot14 fractions of half a circle, as fontTools' Angle.toInt.
            guard let degrees = Double(trimmed), degrees.isFinite else { return nil }
            let bias: Double = format == .biasedAngle ? 1 : 0
            let steps = (degrees / 180 - bias) * F2Dot14.scale
            guard abs(steps) < 1e9 else { return nil }   // far outside F2Dot14; no Int64 trap
            return Int64((steps + 0.5).rounded(.down))
        case .names(let names):
            if let i = names.firstIndex(of: trimmed.lowercased()) { return Int64(i) }
            return parseInteger(trimmed)
        case .exactFloat: return Double(trimmed).flatMap { scaled($0, Fixed.scale) }
        case .deciPoints: return Double(trimmed).flatMap { scaled($0, 10) }
        case .binary: return Int64(trimmed.filter { $0 != " " }, radix: 2) ?? parseInteger(trimmed)
        case .headDate: return parseAsctime1904(trimmed)
        default:
            switch kind {
            case .fixed, .version32:
                return trimmed.hasPrefix("0x") ? parseInteger(trimmed) : Double(trimmed).flatMap { scaled($0, Fixed.scale) }
            case .f2dot14: return Double(trimmed).flatMap { scaled($0, F2Dot14.scale) }
            case .longDateTime: return parseAsctime1904(trimmed)
            case .tag:
                // Spaces are part of a tag (" RQD"): the text untrimmed, padded with spaces.
                guard let bytes = pythonUnescaped(text), (1...4).contains(bytes.count) else { return nil }
                let padded = bytes + Array(repeating: 0x20, count: 4 - bytes.count)
                return Int64(padded.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            default: return parseInteger(trimmed)
            }
        }
    }

    /// What a scalar's text must be, for an error message: "a UInt16", "binary digits" …
    static func scalarExpectation(_ kind: FieldKind, _ format: TTXFormat) -> String {
        switch format {
        case .names(let names): "one of \(names.joined(separator: ", "))"
        case .angle: "an angle in -360…360 degrees"
        case .biasedAngle: "an angle in -180…540 degrees"
        case .deciPoints: "a size in points"
        case .binary: "binary digits"
        case .headDate: "a date like 'Fri Mar 10 08:35:35 2023'"
        default:
            switch kind {
            case .longDateTime: "a date like 'Fri Mar 10 08:35:35 2023'"
            case .tag: "1 to 4 characters (\\x00 escapes allowed)"
            default: "a \(kind.typeName)"
            }
        }
    }

    /// A decimal number times a scale, rounded; nil when it is not finite or far beyond any
    /// field (so a hostile "1e300" is refused, not a trap converting it to Int64).
    static func scaled(_ value: Double, _ scale: Double) -> Int64? {
        let v = (value * scale).rounded()
        guard v.isFinite, abs(v) < 9e18 else { return nil }
        return Int64(v)
    }
}

extension FieldKind {
    /// Written in TTX as its plain decimal integer when its format is plain (what most members
    /// are, written without building a string).
    var isPlainInteger: Bool {
        switch self {
        case .uint8, .int8, .uint16, .int16, .uint24, .uint32, .int32: true
        case .fixed, .f2dot14, .longDateTime, .tag, .version32: false
        }
    }
}
