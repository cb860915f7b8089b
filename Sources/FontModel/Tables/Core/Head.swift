/// `head` — font header: units per em, bounds, loca format, checksum adjustment.
public final class HeadTable: FieldTable {
    public override class var tableTag: Tag { "head" }

    public override class var record: Record { described }

    // swift-format-ignore
    static let described = Record("head", [
        Member("majorVersion", .uint16, ttxName: "tableVersion", format: .versionFixed), Member("minorVersion", .uint16, format: .omitted),
        Member("fontRevision", .fixed), Member("checkSumAdjustment", .uint32, format: .hex),
        Member("magicNumber", .uint32, format: .hex), Member("flags", .uint16, format: .binary), Member("unitsPerEm", .uint16, valid: 16...16384),
        Member("created", .longDateTime, format: .headDate), Member("modified", .longDateTime, format: .headDate),
        Member("xMin", .int16), Member("yMin", .int16), Member("xMax", .int16), Member("yMax", .int16),
        Member("macStyle", .uint16, format: .binary), Member("lowestRecPPEM", .uint16), Member("fontDirectionHint", .int16),
        Member("indexToLocFormat", .int16, derivedFrom: "the loca offsets"), Member("glyphDataFormat", .int16),
    ])

    static let unitsPerEmAt = position(of: "unitsPerEm", in: described.members)
    static let indexToLocFormatAt = position(of: "indexToLocFormat", in: described.members)
    public var unitsPerEm: Int { int(at: Self.unitsPerEmAt) }
    public var indexToLocFormat: Int { int(at: Self.indexToLocFormatAt) }
    /// Byte offset of checkSumAdjustment in the table, zeroed when the table's checksum is taken.
    static let checkSumAdjustmentOffset = 8
}
