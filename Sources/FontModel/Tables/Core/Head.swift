/// `head` — font header: units per em, bounds, loca format, checksum adjustment.
public final class HeadTable: FieldTable {
    public override class var tableTag: Tag { "head" }

    // swift-format-ignore
    static let fieldList: [Field] = [
        Field("majorVersion", .uint16, ttx: "tableVersion", format: .versionFixed), Field("minorVersion", .uint16, format: .omitted),
        Field("fontRevision", .fixed), Field("checkSumAdjustment", .uint32, format: .hex),
        Field("magicNumber", .uint32, format: .hex), Field("flags", .uint16, format: .binary), Field("unitsPerEm", .uint16, valid: 16...16384),
        Field("created", .longDateTime), Field("modified", .longDateTime),
        Field("xMin", .int16), Field("yMin", .int16), Field("xMax", .int16), Field("yMax", .int16),
        Field("macStyle", .uint16, format: .binary), Field("lowestRecPPEM", .uint16), Field("fontDirectionHint", .int16),
        Field("indexToLocFormat", .int16, derivedFrom: "the loca offsets"), Field("glyphDataFormat", .int16),
    ]

    public override class func layout(version: UInt32, length: Int) throws -> [Field] {
        try requireLength(length, 54, "head")
        return fieldList
    }

    static let unitsPerEmAt = position(of: "unitsPerEm", in: fieldList)
    static let indexToLocFormatAt = position(of: "indexToLocFormat", in: fieldList)
    public var unitsPerEm: Int { int(at: Self.unitsPerEmAt) }
    public var indexToLocFormat: Int { int(at: Self.indexToLocFormatAt) }
    /// Byte offset of checkSumAdjustment in the table, zeroed when the table's checksum is taken.
    static let checkSumAdjustmentOffset = 8
}
