/// `TTFA`: the options ttfautohint hinted the font with, as text (one `name = value` a line),
/// so the hinting can be run again the same way. fontTools reads it as ASCII text.
public final class TTFATable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "TTFA"
    public let bytes: [UInt8]
    public let isEdited = false

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public static func == (a: TTFATable, b: TTFATable) -> Bool { a.bytes == b.bytes }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> TTFATable { TTFATable(bytes: Array(reader.bytes)) }

    public func encode() throws -> [UInt8] { bytes }

    /// The text, NUL bytes dropped (as fontTools drops them); nil when it is not ASCII.
    public var text: String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self)
    }

    /// Option lines added, removed or changed, by the option's name (the text before `=`).
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? TTFATable else { return nil }
        func items(_ t: TTFATable) -> [(String, String)] {
            guard let text = t.text else { return [("bytes", Difference.summary(ofBytes: t.bytes))] }
            return text.split(whereSeparator: \.isNewline).enumerated().map { k, line in
                let parts = line.split(separator: "=", maxSplits: 1).map {
                    String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
                }
                return parts.count == 2 ? (parts[0], parts[1]) : ("line \(k + 1)", String(line))
            }
        }
        return Difference.keyed(table: "TTFA", items(self), items(other))
    }
}
