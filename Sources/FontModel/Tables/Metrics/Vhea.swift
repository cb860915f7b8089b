/// `vhea` — vertical header. Version 1.1 names the first three metrics vertTypo*; the bytes are the same.
public final class VheaTable: FieldTable {
    public override class var tableTag: Tag { "vhea" }

    // hhea's layout with vertical names (the two specs mirror each other); kept as its own list,
    // since each field carries its own TTX name.
    public override class var record: Record { described }

    // swift-format-ignore
    static let described = Record("vhea", [
        Member("version", .version32, ttxName: "tableVersion", format: .hex8),
        Member("ascent", .int16), Member("descent", .int16), Member("lineGap", .int16),
        Member("advanceHeightMax", .uint16), Member("minTopSideBearing", .int16),
        Member("minBottomSideBearing", .int16), Member("yMaxExtent", .int16),
        Member("caretSlopeRise", .int16), Member("caretSlopeRun", .int16), Member("caretOffset", .int16),
        Member("reserved1", .int16), Member("reserved2", .int16), Member("reserved3", .int16), Member("reserved4", .int16),
        Member("metricDataFormat", .int16), Member("numOfLongVerMetrics", .uint16, ttxName: "numberOfVMetrics"),
    ])

    public var numOfLongVerMetrics: Int { int("numOfLongVerMetrics") }
}
