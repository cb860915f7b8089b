/// `TSI5`: VTT's character groups, one number per glyph (which group of glyphs, such as
/// uppercase or figures, VTT's autohinter treats it as).
public final class TSI5Table: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "TSI5"
    /// The group of each glyph, by glyph id.
    public let groups: [Int]
    public let isEdited = false

    public init(groups: [Int]) { self.groups = groups }

    public static func == (a: TSI5Table, b: TSI5Table) -> Bool { a.groups == b.groups }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> TSI5Table {
        guard reader.count % 2 == 0 else { throw reader.error("TSI5 is \(reader.count) bytes: not a list of 16-bit groups", at: 0) }
        return TSI5Table(groups: try (0..<(reader.count / 2)).map { Int(try reader.u16(at: 2 * $0)) })
    }

    public func encode() throws -> [UInt8] { Self.encode(groups) }

    static func encode(_ groups: [Int]) -> [UInt8] {
        var w = BinaryWriter()
        for g in groups { w.u16(UInt16(truncatingIfNeeded: g)) }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? { differences(to: other, namesA: [], namesB: []) }

    /// Glyphs whose group changed, by name.
    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? {
        guard let other = other as? TSI5Table else { return nil }
        func items(_ t: TSI5Table, _ names: [String]) -> [(String, String)] {
            t.groups.enumerated().map { (glyphName($0.offset, in: names), String($0.element)) }
        }
        return Difference.keyed(table: "TSI5", items(self, namesA), items(other, namesB))
    }
}
