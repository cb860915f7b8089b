/// `OS/2` — Windows metrics, weight/width class, vendor, Unicode and code page ranges. Versions 0–5.
public final class OS2Table: FieldTable {
    public override class var tableTag: Tag { "OS/2" }
    public override class var versionFieldName: String? { "version" }

    // swift-format-ignore
    static let version0Short: [Field] = [
        Field("version", .uint16, valid: 0...5), Field("xAvgCharWidth", .int16),
        Field("usWeightClass", .uint16, valid: 1...1000), Field("usWidthClass", .uint16, valid: 1...9), Field("fsType", .uint16, format: .binary),
        Field("ySubscriptXSize", .int16), Field("ySubscriptYSize", .int16),
        Field("ySubscriptXOffset", .int16), Field("ySubscriptYOffset", .int16),
        Field("ySuperscriptXSize", .int16), Field("ySuperscriptYSize", .int16),
        Field("ySuperscriptXOffset", .int16), Field("ySuperscriptYOffset", .int16),
        Field("yStrikeoutSize", .int16), Field("yStrikeoutPosition", .int16), Field("sFamilyClass", .int16),
        // PANOSE, ten bytes, named as fontTools names them.
        Field("bFamilyType", .uint8, group: "panose"), Field("bSerifStyle", .uint8, group: "panose"), Field("bWeight", .uint8, group: "panose"),
        Field("bProportion", .uint8, group: "panose"), Field("bContrast", .uint8, group: "panose"), Field("bStrokeVariation", .uint8, group: "panose"),
        Field("bArmStyle", .uint8, group: "panose"), Field("bLetterForm", .uint8, group: "panose"), Field("bMidline", .uint8, group: "panose"), Field("bXHeight", .uint8, group: "panose"),
        Field("ulUnicodeRange1", .uint32, format: .binary), Field("ulUnicodeRange2", .uint32, format: .binary),
        Field("ulUnicodeRange3", .uint32, format: .binary), Field("ulUnicodeRange4", .uint32, format: .binary),
        Field("achVendID", .tag), Field("fsSelection", .uint16, format: .binary),
        Field("usFirstCharIndex", .uint16), Field("usLastCharIndex", .uint16),
    ]
    // swift-format-ignore
    static let version0: [Field] = version0Short + [
        Field("sTypoAscender", .int16), Field("sTypoDescender", .int16), Field("sTypoLineGap", .int16),
        Field("usWinAscent", .uint16), Field("usWinDescent", .uint16),
    ]
    static let version1: [Field] =
        version0 + [Field("ulCodePageRange1", .uint32, format: .binary), Field("ulCodePageRange2", .uint32, format: .binary)]
    // swift-format-ignore
    static let version2: [Field] = version1 + [
        Field("sxHeight", .int16), Field("sCapHeight", .int16), Field("usDefaultChar", .uint16),
        Field("usBreakChar", .uint16), Field("usMaxContext", .uint16),
    ]
    // swift-format-ignore
    static let version5: [Field] = version2 + [
        Field("usLowerOpticalPointSize", .uint16), Field("usUpperOpticalPointSize", .uint16),
    ]

    public override class func layout(version: UInt32, length: Int) throws -> [Field] {
        let fields: [Field]
        switch version {
        // Some old Apple fonts end version 0 after usLastCharIndex (68 bytes).
        case 0: fields = length < fieldsLength(version0) ? version0Short : version0
        case 1: fields = version1
        case 2, 3, 4: fields = version2
        default: fields = version5
        }
        try requireLength(length, fieldsLength(fields), "OS/2 version \(version)")
        return fields
    }

    /// fsSelection bit 7: use sTypo* for line spacing.
    public var useTypoMetrics: Bool { int("fsSelection") & 0x80 != 0 }
}
