/// `TSIC`: VTT's variation CVT window, the cvt values VTT sets at each master of a variable
/// font (what it compiles into cvar): the axes in fvar order, each record's location, and per
/// record an optional name (UTF-16 code units) and its cvt numbers with their values. Described
/// once, as fontTools' otData describes it; binary, TTX, Lua (`face.TSIC.Record[1].CVTArray`)
/// and diff follow.
public final class TSICTable: StructuredTable {
    override public class var tableTag: Tag { "TSIC" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let description: Shape = .record(Record("TSIC", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("Flags", .scalar(.uint16)),
        Member("AxisCount", .scalar(.uint16)),
        Member("RecordCount", .scalar(.uint16)),
        Member("Reserved", .scalar(.uint16)),
        Member("AxisArray", .scalar(.tag), count: "AxisCount"),
        Member("RecordLocations", .record(Record("LocationRecord", [
            Member("Axis", .scalar(.f2dot14), count: "AxisCount"),
        ])), count: "RecordCount"),
        Member("Record", .record(Record("TSICRecord", [
            Member("Flags", .scalar(.uint16)),
            // Counts fontTools writes as values (their names do not end in "Count").
            Member("NumCVTEntries", .scalar(.uint16), ttx: .writtenCount),
            Member("NameLength", .scalar(.uint16), ttx: .writtenCount),
            Member("NameArray", .scalar(.uint16), count: "NameLength"),
            Member("CVTArray", .scalar(.uint16), count: "NumCVTEntries"),
            Member("CVTValueArray", .scalar(.int16), count: "NumCVTEntries"),
        ])), count: "RecordCount"),
    ]))
}
