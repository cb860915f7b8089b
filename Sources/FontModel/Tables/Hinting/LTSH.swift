/// `LTSH`, linear threshold: per glyph, the size (ppem) from which its advance width scales
/// linearly despite hinting (1: always). Described once; binary, Lua (`face.LTSH.yPels[1]`),
/// diff and validate follow; TTX is fontTools' own dialect (`FontXML/Tables/LTSH+TTX.swift`).
public final class LTSHTable: StructuredTable {
    override public class var tableTag: Tag { "LTSH" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let description: Shape = .record(Record("LTSH", [
        Member("version", .scalar(.uint16)),
        Member("numGlyphs", .scalar(.uint16)),
        Member("yPels", .scalar(.uint8), count: "numGlyphs"),
    ]))

    /// The threshold of each glyph, by glyph ID.
    public var thresholds: [Int] {
        get throws {
            guard case .list(let items)? = try root["yPels"] else { return [] }
            return items.map { if case .int(let v) = $0 { Int(v) } else { 0 } }
        }
    }

    public static func make(thresholds: [Int]) throws -> LTSHTable {
        guard thresholds.allSatisfy({ (0...255).contains($0) }) else {
            throw FontError("LTSH thresholds are ppem sizes in 0...255", table: "LTSH")
        }
        var fields = StructFields()
        fields["version"] = .int(0)
        fields["yPels"] = .list(thresholds.map { .int(Int64($0)) })
        return LTSHTable(root: fields)
    }
}
