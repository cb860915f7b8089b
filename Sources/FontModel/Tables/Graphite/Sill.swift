/// `Sill`, Graphite's languages: for each language code (up to four ASCII letters, such as
/// "ur" or "snd"), the feature values it switches on by default.
public final class SillTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "Sill"

    // Record types in the shape of Feat's (small value structs); different fields.
    public struct FeatureValue: Equatable, Sendable {
        public var feature: UInt32
        public var value: UInt16
        public init(feature: UInt32, value: UInt16) { self.feature = feature; self.value = value }
    }

    public struct Language: Equatable, Sendable {
        public var code: String
        public var values: [FeatureValue]
        public init(code: String, values: [FeatureValue]) { self.code = code; self.values = values }
    }

    public let version: UInt32
    /// In table order (sorted by code in fonts the Graphite compiler made).
    public let languages: [Language]
    public let isEdited = false

    public static func == (a: SillTable, b: SillTable) -> Bool { a.version == b.version && a.languages == b.languages }

    public init(version: UInt32, languages: [Language]) { self.version = version; self.languages = languages }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> SillTable {
        var r = reader
        let version = try r.u32(), count = Int(try r.u16())
        try r.skip(6)
        guard count <= r.remaining / 8 else { throw r.error("Sill claims \(count) languages, more than the table holds") }
        let languages: [Language] = try (0..<count).map { k in
            let codeBytes = try r.bytes(4).filter { $0 != 0 }
            guard codeBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw reader.error("Sill language \(k): its code is not ASCII text", at: r.offset - 4)
            }
            // Values are 8-byte records after the 12-byte header, so a valid offset is 4 more than
            // a multiple of 8; one that is not is read as fontTools reads it, at 8·⌊offset/8⌋ + 4.
            let valueCount = Int(try r.u16()), offset = Int(try r.u16()) / 8 * 8 + 4
            guard offset <= reader.count, valueCount <= (reader.count - offset) / 8 else {
                throw reader.error(
                    "Sill language \(k): \(valueCount) feature values at \(offset) run past the end of the table (\(reader.count) bytes)",
                    at: r.offset - 2)
            }
            var v = try reader.sub(offset, 8 * valueCount)
            let values = try (0..<valueCount).map { _ -> FeatureValue in
                defer { v.offset += 2 }   // padding
                return FeatureValue(feature: try v.u32(), value: try v.u16())
            }
            return Language(code: String(decoding: codeBytes, as: UTF8.self), values: values)
        }
        return SillTable(version: version, languages: languages)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u32(version)
        try Graphite.writeSearchHeader(&w, count: languages.count)
        // The language records and a closing one (code 0x80808080) whose offset ends the values.
        var at = 12 + 8 * (languages.count + 1)
        for l in languages {
            let code = Array(l.code.utf8)
            guard code.count <= 4 else { throw FontError("Sill language code '\(l.code)' is longer than four letters", table: "Sill") }
            w.append(code + Array(repeating: 0, count: 4 - code.count))
            try w.u16(l.values.count, "Sill feature value count"); try w.u16(at, "Sill values offset")
            at += 8 * l.values.count
        }
        w.u32(0x8080_8080); w.u16(0); try w.u16(at, "Sill values offset")
        for l in languages { for v in l.values { w.u32(v.feature); w.u16(v.value); w.u16(0) } }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? SillTable else { return nil }
        func items(_ t: SillTable) -> [(String, String)] {
            [("version", Graphite.versionText(t.version))]
                + t.languages.map { l in
                    ("language \(l.code)", l.values.map { "\(Graphite.featureIDText($0.feature))=\($0.value)" }.joined(separator: " "))
                }
        }
        return Difference.keyed(table: "Sill", items(self), items(other))
    }
}
