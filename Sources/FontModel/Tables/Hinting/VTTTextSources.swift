/// VTT's sources for other tables, each one text: `TSIV` (the variation CVT window), `TSIB`
/// (BASE), `TSID` (GDEF), `TSIJ` (JSTF), `TSIP` (GPOS), `TSIS` (GSUB). Lines end in carriage
/// returns in the font; fontTools writes them as newlines. One format, so one file.
public class VTTTextTable: DecodableTable, DiffableTable, Equatable {
    public class var tableTag: Tag { "TSIV" }
    public let bytes: [UInt8]
    public let isEdited = false

    public required init(bytes: [UInt8]) { self.bytes = bytes }

    public static func == (a: VTTTextTable, b: VTTTextTable) -> Bool { a.bytes == b.bytes }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self { Self(bytes: Array(reader.bytes)) }

    public func encode() throws -> [UInt8] { bytes }

    /// The text with NUL bytes dropped and carriage returns as newlines, as fontTools writes it;
    /// nil when it is not ASCII (fontTools reads ASCII only).
    public var text: String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(decoding: bytes.filter { $0 != 0 }.map { $0 == 0x0D ? 0x0A : $0 }, as: UTF8.self)
    }

    /// The table's bytes for a text written with newlines (carriage returns in the font).
    public static func encode(text: String) -> [UInt8] { Array(text.utf8).map { $0 == 0x0A ? 0x0D : $0 } }

    /// Lines added, removed or changed, by line number.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? VTTTextTable else { return nil }
        func items(_ t: VTTTextTable) -> [(String, String)] {
            guard let text = t.text else { return [("bytes", Difference.summary(ofBytes: t.bytes))] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                ("line \($0.offset + 1)", String($0.element))
            }
        }
        return Difference.keyed(table: Self.tableTag.trimmed, items(self), items(other))
    }
}

public final class TSIVTable: VTTTextTable { override public class var tableTag: Tag { "TSIV" } }
public final class TSIBTable: VTTTextTable { override public class var tableTag: Tag { "TSIB" } }
public final class TSIDTable: VTTTextTable { override public class var tableTag: Tag { "TSID" } }
public final class TSIJTable: VTTTextTable { override public class var tableTag: Tag { "TSIJ" } }
public final class TSIPTable: VTTTextTable { override public class var tableTag: Tag { "TSIP" } }
public final class TSISTable: VTTTextTable { override public class var tableTag: Tag { "TSIS" } }
