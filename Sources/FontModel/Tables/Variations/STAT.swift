/// `STAT`, style attributes: the design axes a family is organised by (tag, name, ordering)
/// and the named values on them ("Bold" at wght 700, "Condensed" from wdth 75 to 87.5, a
/// linked "Regular"↔"Bold", combinations in format 4) that apps build style names from.
/// Described once; binary, TTX, Lua (`face.STAT.AxisValueArray`) and diff follow. Names are
/// fontTools'. Axis records are assumed 8 bytes (DesignAxisRecordSize), as every known font
/// writes them; a table that says otherwise is refused rather than misread.
public final class STATTable: StructuredTable {
    override public class var tableTag: Tag { "STAT" }
    override public class var shape: Shape { description }

    override public class func checkBeforeDecoding(_ reader: BinaryReader) throws {
        let size = try reader.u16(at: 4)
        guard size == 8 else { throw reader.error("STAT axis records are \(size) bytes; only 8 is supported", at: 4) }
    }

    // swift-format-ignore
    static let axisRecord = Record("AxisRecord", [
        Member("AxisTag", .scalar(.tag)),
        Member("AxisNameID", .scalar(.uint16), ttx: .nameID),
        Member("AxisOrdering", .scalar(.uint16)),
    ])

    // swift-format-ignore
    static let axisValue: Shape = .formats(name: "AxisValue", [
        1: Record("AxisValueFormat1", [
            Member("AxisIndex", .scalar(.uint16)), Member("Flags", .scalar(.uint16), ttx: .axisValueFlags), Member("ValueNameID", .scalar(.uint16), ttx: .nameID),
            Member("Value", .scalar(.fixed)),
        ]),
        2: Record("AxisValueFormat2", [
            Member("AxisIndex", .scalar(.uint16)), Member("Flags", .scalar(.uint16), ttx: .axisValueFlags), Member("ValueNameID", .scalar(.uint16), ttx: .nameID),
            Member("NominalValue", .scalar(.fixed)), Member("RangeMinValue", .scalar(.fixed)), Member("RangeMaxValue", .scalar(.fixed)),
        ]),
        3: Record("AxisValueFormat3", [
            Member("AxisIndex", .scalar(.uint16)), Member("Flags", .scalar(.uint16), ttx: .axisValueFlags), Member("ValueNameID", .scalar(.uint16), ttx: .nameID),
            Member("Value", .scalar(.fixed)), Member("LinkedValue", .scalar(.fixed)),
        ]),
        4: Record("AxisValueFormat4", [
            Member("AxisCount", .scalar(.uint16)), Member("Flags", .scalar(.uint16), ttx: .axisValueFlags), Member("ValueNameID", .scalar(.uint16), ttx: .nameID),
            Member("AxisValueRecord", .record(Record("AxisValueRecord", [
                Member("AxisIndex", .scalar(.uint16)), Member("Value", .scalar(.fixed)),
            ])), count: "AxisCount"),
        ]),
    ])

    // swift-format-ignore
    static let description: Shape = .record(Record("STAT", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("DesignAxisRecordSize", .scalar(.uint16)),
        Member("DesignAxisCount", .scalar(.uint16)),
        Member("DesignAxisRecord", .offset32(.record(Record("AxisRecordArray", [
            Member("Axis", .record(axisRecord), count: "DesignAxisCount"),
        ])))),
        Member("AxisValueCount", .scalar(.uint16)),
        Member("AxisValueArray", .offset32(.record(Record("AxisValueArray", [
            Member("AxisValue", .offset16(axisValue), count: "AxisValueCount"),
        ])))),
        Member("ElidedFallbackNameID", .scalar(.uint16), since: 0x0001_0001, ttx: .nameID),
    ]))
}
