/// `gasp`, grid-fitting and scan-conversion procedure: for each range of sizes (up to
/// rangeMaxPPEM), whether to hint (1, gridfit), smooth (2, grey), and in version 1 hint and
/// smooth symmetrically (4, 8). Described once; binary, Lua (`face.gasp.GaspRange[1]`), diff
/// and validate follow; TTX is fontTools' own dialect (`FontXML/Tables/gasp+TTX.swift`).
public final class GaspTable: StructuredTable {
    override public class var tableTag: Tag { "gasp" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let description: Shape = .record(Record("gasp", [
        Member("Version", .scalar(.uint16)),
        Member("NumRanges", .scalar(.uint16)),
        Member("GaspRange", .record(Record("GaspRange", [
            Member("rangeMaxPPEM", .scalar(.uint16)),
            Member("rangeGaspBehavior", .scalar(.uint16)),
        ])), count: "NumRanges"),
    ]))

    /// The ranges as (rangeMaxPPEM, rangeGaspBehavior) pairs, in table order.
    public var ranges: [(maxPPEM: Int, behavior: Int)] {
        get throws {
            guard case .list(let items)? = try root["GaspRange"] else { return [] }
            return items.map { (Int($0.fields?["rangeMaxPPEM"]?.int ?? 0), Int($0.fields?["rangeGaspBehavior"]?.int ?? 0)) }
        }
    }

    /// A table of ranges, sorted by size, with the version fontTools gives it: 1 when a range
    /// uses the symmetric flags (4, 8), else 0.
    public static func make(ranges: [(maxPPEM: Int, behavior: Int)]) throws -> GaspTable {
        for r in ranges where !(0...0xFFFF).contains(r.maxPPEM) || !(0...0xFFFF).contains(r.behavior) {
            throw FontError("gasp range \(r.maxPPEM): sizes and behaviours are UInt16 (0...65535)")
        }
        let sorted = ranges.sorted { $0.maxPPEM < $1.maxPPEM }
        let version: Int64 = sorted.contains { $0.behavior & ~3 != 0 } ? 1 : 0
        var fields = StructFields()
        fields["Version"] = .int(version)
        fields["GaspRange"] = .list(
            sorted.map { r in
                var f = StructFields()
                f["rangeMaxPPEM"] = .int(Int64(r.maxPPEM))
                f["rangeGaspBehavior"] = .int(Int64(r.behavior))
                return .record(f)
            })
        return GaspTable(root: fields)
    }
}
