/// `OS/2` — Windows metrics, weight/width class, vendor, Unicode and code page ranges. Versions 0–5.
public final class OS2Table: FieldTable {
    public override class var tableTag: Tag { "OS/2" }
    public override class var versionFieldName: String? { "version" }

    public override class var record: Record { described }

    // swift-format-ignore
    static let described = Record("OS/2", [
        Member("version", .uint16, valid: 0...5), Member("xAvgCharWidth", .int16),
        Member("usWeightClass", .uint16, valid: 1...1000), Member("usWidthClass", .uint16, valid: 1...9), Member("fsType", .uint16, format: .binary),
        Member("ySubscriptXSize", .int16), Member("ySubscriptYSize", .int16),
        Member("ySubscriptXOffset", .int16), Member("ySubscriptYOffset", .int16),
        Member("ySuperscriptXSize", .int16), Member("ySuperscriptYSize", .int16),
        Member("ySuperscriptXOffset", .int16), Member("ySuperscriptYOffset", .int16),
        Member("yStrikeoutSize", .int16), Member("yStrikeoutPosition", .int16), Member("sFamilyClass", .int16),
        // PANOSE, ten bytes, named as fontTools names them.
        Member("bFamilyType", .uint8, group: "panose"), Member("bSerifStyle", .uint8, group: "panose"), Member("bWeight", .uint8, group: "panose"),
        Member("bProportion", .uint8, group: "panose"), Member("bContrast", .uint8, group: "panose"), Member("bStrokeVariation", .uint8, group: "panose"),
        Member("bArmStyle", .uint8, group: "panose"), Member("bLetterForm", .uint8, group: "panose"), Member("bMidline", .uint8, group: "panose"), Member("bXHeight", .uint8, group: "panose"),
        Member("ulUnicodeRange1", .uint32, format: .binary), Member("ulUnicodeRange2", .uint32, format: .binary),
        Member("ulUnicodeRange3", .uint32, format: .binary), Member("ulUnicodeRange4", .uint32, format: .binary),
        Member("achVendID", .tag), Member("fsSelection", .uint16, format: .binary),
        Member("usFirstCharIndex", .uint16), Member("usLastCharIndex", .uint16),
        Member("sTypoAscender", .int16), Member("sTypoDescender", .int16), Member("sTypoLineGap", .int16),
        Member("usWinAscent", .uint16), Member("usWinDescent", .uint16),
        Member("ulCodePageRange1", .uint32, format: .binary, since: 1), Member("ulCodePageRange2", .uint32, format: .binary, since: 1),
        Member("sxHeight", .int16, since: 2), Member("sCapHeight", .int16, since: 2), Member("usDefaultChar", .uint16, since: 2),
        Member("usBreakChar", .uint16, since: 2), Member("usMaxContext", .uint16, since: 2),
        Member("usLowerOpticalPointSize", .uint16, since: 5), Member("usUpperOpticalPointSize", .uint16, since: 5),
    ])

    public override class func layout(version: UInt32, length: Int) throws -> [Member] {
        var members = members(in: version)
        // Some old Apple fonts end version 0 after usLastCharIndex (68 bytes).
        if version == 0 && length < fieldsLength(members) { members = Array(members.prefix { $0.name != "sTypoAscender" }) }
        try requireLength(length, fieldsLength(members), "OS/2 version \(version)")
        return members
    }

    /// fsSelection bit 7: use sTypo* for line spacing.
    public var useTypoMetrics: Bool { int("fsSelection") & 0x80 != 0 }
}
