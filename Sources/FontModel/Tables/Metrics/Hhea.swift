/// `hhea` — horizontal header: the line metrics Apple platforms lay text out with.
public final class HheaTable: FieldTable {
    public override class var tableTag: Tag { "hhea" }

    // swift-format-ignore
    static let fieldList: [Field] = [
        Field("majorVersion", .uint16, ttx: "tableVersion", format: .versionHex), Field("minorVersion", .uint16, format: .omitted),
        Field("ascender", .int16, ttx: "ascent"), Field("descender", .int16, ttx: "descent"), Field("lineGap", .int16),
        Field("advanceWidthMax", .uint16), Field("minLeftSideBearing", .int16),
        Field("minRightSideBearing", .int16), Field("xMaxExtent", .int16),
        Field("caretSlopeRise", .int16), Field("caretSlopeRun", .int16), Field("caretOffset", .int16),
        Field("reserved0", .int16), Field("reserved1", .int16), Field("reserved2", .int16), Field("reserved3", .int16),
        Field("metricDataFormat", .int16), Field("numberOfHMetrics", .uint16, derivedFrom: "the advances in hmtx"),
    ]

    public override class func layout(version: UInt32, length: Int) throws -> [Field] {
        try requireLength(length, 36, "hhea")
        return fieldList
    }

    static let numberOfHMetricsAt = position(of: "numberOfHMetrics", in: fieldList)
    public var numberOfHMetrics: Int { int(at: Self.numberOfHMetricsAt) }
}
