/// `vhea` — vertical header. Version 1.1 names the first three metrics vertTypo*; the bytes are the same.
public final class VheaTable: FieldTable {
    public override class var tableTag: Tag { "vhea" }

    // hhea's layout with vertical names (the two specs mirror each other); kept as its own list,
    // since each field carries its own TTX name.
    // swift-format-ignore
    static let fieldList: [Field] = [
        Field("version", .version32, ttx: "tableVersion", format: .hex8),
        Field("ascent", .int16), Field("descent", .int16), Field("lineGap", .int16),
        Field("advanceHeightMax", .uint16), Field("minTopSideBearing", .int16),
        Field("minBottomSideBearing", .int16), Field("yMaxExtent", .int16),
        Field("caretSlopeRise", .int16), Field("caretSlopeRun", .int16), Field("caretOffset", .int16),
        Field("reserved1", .int16), Field("reserved2", .int16), Field("reserved3", .int16), Field("reserved4", .int16),
        Field("metricDataFormat", .int16), Field("numOfLongVerMetrics", .uint16, ttx: "numberOfVMetrics"),
    ]

    public override class func layout(version: UInt32, length: Int) throws -> [Field] {
        try requireLength(length, 36, "vhea")
        return fieldList
    }

    public var numOfLongVerMetrics: Int { int("numOfLongVerMetrics") }
}
