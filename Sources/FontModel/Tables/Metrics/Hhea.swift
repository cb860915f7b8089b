/// `hhea` — horizontal header: the line metrics Apple platforms lay text out with.
public final class HheaTable: FieldTable {
    public override class var tableTag: Tag { "hhea" }

    public override class var record: Record { described }

    // swift-format-ignore
    static let described = Record("hhea", [
        Member("majorVersion", .uint16, ttxName: "tableVersion", format: .versionHex), Member("minorVersion", .uint16, format: .omitted),
        Member("ascender", .int16, ttxName: "ascent"), Member("descender", .int16, ttxName: "descent"), Member("lineGap", .int16),
        Member("advanceWidthMax", .uint16), Member("minLeftSideBearing", .int16),
        Member("minRightSideBearing", .int16), Member("xMaxExtent", .int16),
        Member("caretSlopeRise", .int16), Member("caretSlopeRun", .int16), Member("caretOffset", .int16),
        Member("reserved0", .int16), Member("reserved1", .int16), Member("reserved2", .int16), Member("reserved3", .int16),
        Member("metricDataFormat", .int16), Member("numberOfHMetrics", .uint16, derivedFrom: "the advances in hmtx"),
    ])

    static let numberOfHMetricsAt = position(of: "numberOfHMetrics", in: described.members)
    public var numberOfHMetrics: Int { int(at: Self.numberOfHMetricsAt) }
}
