/// The binary type of a table field, which fixes its size and valid range.
public enum FieldKind: Sendable, Equatable {
    case uint8, int8, uint16, int16, uint24, uint32, int32
    /// 16.16 signed fixed point, read and written as a Double.
    case fixed
    /// 2.14 signed fixed point.
    case f2dot14
    /// Seconds since 1904-01-01, 64-bit.
    case longDateTime
    /// Four ASCII characters.
    case tag
    /// A table version stored as a 32-bit number (0x00010000, 0x00005000); read and written as an integer.
    case version32

    public var size: Int {
        switch self {
        case .uint8, .int8: 1
        case .uint16, .int16, .f2dot14: 2
        case .uint24: 3
        case .uint32, .int32, .fixed, .tag, .version32: 4
        case .longDateTime: 8
        }
    }

    /// Valid range of the stored integer bits.
    public var rawRange: ClosedRange<Int64> {
        switch self {
        case .uint8: 0...0xFF
        case .int8: -0x80...0x7F
        case .uint16: 0...0xFFFF
        case .int16, .f2dot14: -0x8000...0x7FFF
        case .uint24: 0...0xFF_FFFF
        case .uint32, .tag, .version32: 0...0xFFFF_FFFF
        case .int32, .fixed: -0x8000_0000...0x7FFF_FFFF
        case .longDateTime: Int64.min...Int64.max
        }
    }

    /// The values the type holds, as an error message shows them: "0...65535"; in units for
    /// the fixed-point types ("-32768.0...32767.99998474121").
    public var rangeText: String {
        switch self {
        case .fixed: "\(Double(rawRange.lowerBound) / Fixed.scale)...\(Double(rawRange.upperBound) / Fixed.scale)"
        case .f2dot14: "\(Double(rawRange.lowerBound) / F2Dot14.scale)...\(Double(rawRange.upperBound) / F2Dot14.scale)"
        default: "\(rawRange.lowerBound)...\(rawRange.upperBound)"
        }
    }

    public var typeName: String {
        switch self {
        case .uint8: "UInt8"
        case .int8: "Int8"
        case .uint16: "UInt16"
        case .int16: "Int16"
        case .uint24: "UInt24"
        case .uint32: "UInt32"
        case .int32: "Int32"
        case .fixed: "Fixed"
        case .f2dot14: "F2Dot14"
        case .longDateTime: "LONGDATETIME"
        case .tag: "Tag"
        case .version32: "Version16Dot16"
        }
    }
}

public enum TTXFormat: Sendable, Equatable {
    /// Decimal integer, or for fixed-point kinds a float ("2.37"), for dates asctime, for tags text.
    case plain
    /// "0x5f0f3cf5" (lowercase, no padding).
    case hex
    /// "0x00011000" (eight digits).
    case hex8
    /// "00000000 00011111": bits in groups of eight.
    case binary
    /// Two uint16 fields (major, minor) written as one: head's "1.0" (fixed) or hhea's "0x00010000".
    case versionFixed, versionHex
    /// Not written on its own (the minor half of a version pair).
    case omitted
    /// A lookup's flags: the number, then a comment naming the flags set, as fontTools writes it.
    case lookupFlag
    /// Tenths of a point (the 'size' feature's sizes), written in points: 120 is "12.0".
    case deciPoints
    /// A name ID: the number, then a comment with the name it refers to, as fontTools writes it.
    case nameID
    /// STAT's axis value flags: the number, then a comment naming the flags set.
    case axisValueFlags
    /// A fixed-point value written exactly, as Python prints the float ("-15.300003051757812"):
    /// fontTools does so for post's fields, where it rounds others to the fewest digits.
    case exactFloat
    /// A uint32 variation index: 0xFFFFFFFF (none) is written as the bare element, as fontTools does.
    case varIndex
    /// An F2Dot14 angle in degrees (fractions of half a circle × 180), fontTools' Angle; the
    /// biased form adds 1 before scaling (COLR's sweep angles, so +360° fits).
    case angle, biasedAngle
    /// A uint8 enumeration written by name, lowercased (COLR's Extend and CompositeMode).
    case names([String])
    /// head's dates (LONGDATETIME) as fontTools reads them: the top bytes ignored, and a value
    /// before 1970 taken for seconds since 1970 (some tools wrote Unix time).
    case headDate
    /// A count written as a value, not a comment (fontTools does so for otData counts whose
    /// names do not end in "Count", such as TSIC's NumCVTEntries); read back and checked
    /// against the lengths of its arrays.
    case writtenCount
    /// The length in bytes of the record it opens (AAT's StructLength, from the record's first
    /// byte, its format number included, to the end of its own bytes): written as a comment,
    /// as fontTools writes it, and worked out when the record is written (its stored value is
    /// kept only to show).
    case structLength
}
