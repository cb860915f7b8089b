/// One record of the `name` table. `text` is the decoded string for Unicode/Windows (UTF-16BE) and
/// Mac Roman records; other encodings keep only their bytes.
public struct NameRecord: Equatable, Sendable {
    public var platformID: Int
    public var encodingID: Int
    public var languageID: Int
    public var nameID: Int
    public var bytes: [UInt8]

    public init(platformID: Int, encodingID: Int, languageID: Int, nameID: Int, bytes: [UInt8]) {
        self.platformID = platformID; self.encodingID = encodingID; self.languageID = languageID
        self.nameID = nameID; self.bytes = bytes
    }

    /// Encodes `text` for the record's platform; nil when that platform's encoding is not one we write.
    public init?(platformID: Int, encodingID: Int, languageID: Int, nameID: Int, text: String) throws {
        guard let bytes = try NameRecord.encode(text, platformID: platformID, encodingID: encodingID) else { return nil }
        self.init(platformID: platformID, encodingID: encodingID, languageID: languageID, nameID: nameID, bytes: bytes)
    }

    public var isUTF16: Bool { platformID == 0 || platformID == 3 }
    public var isMacRoman: Bool { platformID == 1 && encodingID == 0 }

    public var text: String? {
        if isUTF16 {
            // Most names are ASCII: those bytes are copied straight into the string.
            var ascii = true
            var k = 0
            while k + 1 < bytes.count { if bytes[k] != 0 || bytes[k + 1] >= 0x80 { ascii = false; break }; k += 2 }
            if ascii && bytes.count % 2 == 0 {
                return String(unsafeUninitializedCapacity: bytes.count / 2) { out in
                    for k in 0..<bytes.count / 2 { out[k] = bytes[2 * k + 1] }
                    return bytes.count / 2
                }
            }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 0
            while i + 1 < bytes.count { units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])); i += 2 }
            return String(decoding: units, as: UTF16.self)
        }
        if isMacRoman {
            var s = String.UnicodeScalarView()
            for b in bytes {
                let v = b < 0x80 ? UInt32(b) : macRomanHigh[Int(b) - 0x80]
                if let scalar = Unicode.Scalar(v) { s.append(scalar) }
            }
            return String(s)
        }
        return nil
    }

    static func encode(_ text: String, platformID: Int, encodingID: Int) throws -> [UInt8]? {
        if platformID == 0 || platformID == 3 {
            return text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        if platformID == 1 && encodingID == 0 {
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                if scalar.value < 0x80 { out.append(UInt8(scalar.value)); continue }
                guard let i = macRomanHigh.firstIndex(of: scalar.value) else {
                    throw FontError(
                        "'\(scalar)' (U+\(String(scalar.value, radix: 16, uppercase: true))) cannot be written in a Mac Roman name record",
                        table: "name")
                }
                out.append(UInt8(0x80 + i))
            }
            return out
        }
        // Other Macintosh scripts share ASCII's letters, digits and punctuation (not the
        // backslash and tilde, which some, like Japanese, put other characters at).
        if platformID == 1, text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) && $0 != "\\" && $0 != "~" }) {
            return Array(text.utf8)
        }
        return nil
    }
}

/// `name` — the font's names: family, style, PostScript name, copyright... Format 0 and 1
/// (with language tags). Records are kept in order; the table is rebuilt only when edited.
public final class NameTable: DecodableTable {
    public static let tableTag: Tag = "name"

    public private(set) var records: [NameRecord]
    /// Format 1 language tags (language IDs 0x8000, 0x8001, ... refer to them).
    public private(set) var languageTags: [String]
    public private(set) var isEdited = false

    init(records: [NameRecord], languageTags: [String]) {
        self.records = records
        self.languageTags = languageTags
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> NameTable {
        var r = reader
        let format = try r.u16()
        guard format <= 1 else { throw r.error("unknown name table format \(format)", at: 0) }
        let count = Int(try r.u16())
        let storage = Int(try r.u16())
        var records: [NameRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            let platform = Int(try r.u16()), encoding = Int(try r.u16()), language = Int(try r.u16()), id = Int(try r.u16())
            let length = Int(try r.u16()), offset = Int(try r.u16())
            let bytes = try reader.sub(storage + offset, length).bytes
            records.append(NameRecord(platformID: platform, encodingID: encoding, languageID: language, nameID: id, bytes: Array(bytes)))
        }
        var tags: [String] = []
        if format == 1 {
            let tagCount = Int(try r.u16())
            for _ in 0..<tagCount {
                let length = Int(try r.u16()), offset = Int(try r.u16())
                let bytes = Array(try reader.sub(storage + offset, length).bytes)
                tags.append(NameRecord(platformID: 0, encodingID: 0, languageID: 0, nameID: 0, bytes: bytes).text ?? "")
            }
        }
        return NameTable(records: records, languageTags: tags)
    }

    /// The best string for a name ID: Windows English (US), then any Windows, Unicode, Mac Roman English.
    public func string(_ nameID: Int) -> String? {
        let candidates = records.filter { $0.nameID == nameID }
        func rank(_ r: NameRecord) -> Int {
            switch (r.platformID, r.languageID) {
            case (3, 0x409): return 0
            case (3, _): return 1
            case (0, _): return 2
            case (1, 0): return 3
            default: return 4
            }
        }
        var best: (rank: Int, text: String)?
        for r in candidates where best == nil || rank(r) < best!.rank {
            if let text = r.text { best = (rank(r), text) }
        }
        return best?.text
    }

    /// The name as fontTools' getDebugName picks it (for the comments TTX writes after name
    /// IDs): Windows English (US), else the first Mac English, else the last record of the ID.
    public func debugName(_ nameID: Int) -> String? {
        var macEnglish: String?, some: String?
        for r in records where r.nameID == nameID {
            guard let text = r.text else { continue }
            some = text
            if (r.platformID, r.languageID) == (3, 0x409) { return text }
            if (r.platformID, r.languageID) == (1, 0), macEnglish == nil { macEnglish = text }
        }
        return macEnglish ?? some
    }

    /// Sets a name. With no platform given, every existing record for `nameID` that we can encode
    /// is updated; when there is none, a Windows English record is added (and a Mac Roman one if
    /// the table has Mac records and the text can be written in Mac Roman). With a platform, that one record is set or added.
    public func set(_ nameID: Int, _ text: String, platformID: Int? = nil, encodingID: Int? = nil, languageID: Int? = nil) throws {
        for (what, v) in [
            ("name ID", nameID), ("platform ID", platformID ?? 0), ("encoding ID", encodingID ?? 0), ("language ID", languageID ?? 0),
        ] {
            guard (0...0xFFFF).contains(v) else { throw FontError("\(what) \(v) out of range (0...65535)", table: "name") }
        }
        if let platformID {
            let encoding = encodingID ?? (platformID == 3 ? 1 : 0)
            let language = languageID ?? (platformID == 3 ? 0x409 : 0)
            guard
                let record = try NameRecord(platformID: platformID, encodingID: encoding, languageID: language, nameID: nameID, text: text)
            else {
                throw FontError("cannot encode text for platform \(platformID) encoding \(encoding)", table: "name")
            }
            if let i = records.firstIndex(where: {
                $0.platformID == platformID && $0.encodingID == encoding && $0.languageID == language && $0.nameID == nameID
            }) {
                if records[i] != record { records[i] = record; isEdited = true }
            } else {
                records.append(record); isEdited = true
            }
            return
        }
        var updated = false
        for i in records.indices where records[i].nameID == nameID {
            guard let bytes = try NameRecord.encode(text, platformID: records[i].platformID, encodingID: records[i].encodingID) else {
                continue
            }
            if records[i].bytes != bytes { records[i].bytes = bytes; isEdited = true }
            updated = true
        }
        if !updated {
            try set(nameID, text, platformID: 3, encodingID: 1, languageID: 0x409)
            // A Mac Roman twin only when the table has Mac records and the text fits Mac Roman.
            if records.contains(where: { $0.platformID == 1 && $0.encodingID == 0 }),
                (try? NameRecord.encode(text, platformID: 1, encodingID: 0)) != nil
            {
                try set(nameID, text, platformID: 1, encodingID: 0, languageID: 0)
            }
        }
    }

    /// Sets a record as given (its bytes already encoded), replacing the one with the same
    /// platform, encoding, language and name ID.
    public func set(record: NameRecord) {
        if let i = records.firstIndex(where: {
            ($0.platformID, $0.encodingID, $0.languageID, $0.nameID) == (
                record.platformID, record.encodingID, record.languageID, record.nameID
            )
        }) {
            if records[i] != record { records[i] = record; isEdited = true }
        } else {
            records.append(record); isEdited = true
        }
    }

    /// Removes records matching the given fields; returns how many were removed.
    @discardableResult
    public func remove(_ nameID: Int, platformID: Int? = nil, encodingID: Int? = nil, languageID: Int? = nil) -> Int {
        let before = records.count
        records.removeAll {
            $0.nameID == nameID && (platformID == nil || $0.platformID == platformID)
                && (encodingID == nil || $0.encodingID == encodingID) && (languageID == nil || $0.languageID == languageID)
        }
        if records.count != before { isEdited = true }
        return before - records.count
    }

    /// Replaces every record (a fused name table).
    public func replaceRecords(_ new: [NameRecord]) {
        if new != records { records = new; isEdited = true }
    }

    /// Name IDs that have a record.
    public var nameIDs: [Int] { Array(Set(records.map(\.nameID))).sorted() }

    public func encode() throws -> [UInt8] {
        let sorted = records.sorted {
            ($0.platformID, $0.encodingID, $0.languageID, $0.nameID) < ($1.platformID, $1.encodingID, $1.languageID, $1.nameID)
        }
        var storage: [UInt8] = []
        var placed: [[UInt8]: Int] = [:]
        func place(_ bytes: [UInt8]) throws -> Int {
            if let o = placed[bytes] { return o }
            let o = storage.count
            guard o + bytes.count <= 0xFFFF else { throw FontError("name strings exceed 64 KB of storage", table: "name") }
            storage.append(contentsOf: bytes)
            placed[bytes] = o
            return o
        }
        let format = languageTags.isEmpty ? 0 : 1
        let headerSize = 6 + 12 * sorted.count + (format == 1 ? 2 + 4 * languageTags.count : 0)
        var w = BinaryWriter(capacity: headerSize + 1024)
        w.u16(UInt16(format)); try w.u16(sorted.count, "number of name records"); try w.u16(headerSize, "name storage offset")
        for r in sorted {
            guard r.bytes.count <= 0xFFFF else { throw FontError("name record \(r.nameID) is longer than 65535 bytes", table: "name") }
            guard [r.platformID, r.encodingID, r.languageID, r.nameID].allSatisfy({ (0...0xFFFF).contains($0) }) else {
                throw FontError(
                    "name record IDs must be 0...65535 (\(r.platformID)/\(r.encodingID)/\(r.languageID)/\(r.nameID))", table: "name")
            }
            w.u16(UInt16(r.platformID)); w.u16(UInt16(r.encodingID)); w.u16(UInt16(r.languageID)); w.u16(UInt16(r.nameID))
            w.u16(UInt16(r.bytes.count)); w.u16(UInt16(try place(r.bytes)))
        }
        if format == 1 {
            try w.u16(languageTags.count, "number of language tags")
            for tag in languageTags {
                let bytes = tag.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                try w.u16(bytes.count, "language tag length"); w.u16(UInt16(try place(bytes)))
            }
        }
        w.append(storage)
        return w.bytes
    }
}

extension NameTable: DiffableTable {
    /// Records added, removed or changed, by name ID, platform, encoding and language.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? NameTable else { return nil }
        let a = self, b = other
        struct Key: Hashable, Comparable {
            let id: Int, platform: Int, encoding: Int, language: Int
            static func < (a: Key, b: Key) -> Bool {
                (a.id, a.platform, a.encoding, a.language) < (b.id, b.platform, b.encoding, b.language)
            }
            var label: String { "\(id) (\(platform)/\(encoding)/0x\(String(language, radix: 16)))" }
        }
        func key(_ r: NameRecord) -> Key { Key(id: r.nameID, platform: r.platformID, encoding: r.encodingID, language: r.languageID) }
        let ra = Dictionary(a.records.map { (key($0), $0) }, uniquingKeysWith: { x, _ in x })
        let rb = Dictionary(b.records.map { (key($0), $0) }, uniquingKeysWith: { x, _ in x })
        var out: [Difference] = []
        for k in Set(ra.keys).union(rb.keys).sorted() {
            let x = ra[k], y = rb[k]
            guard x != y else { continue }
            let text = { (r: NameRecord?) in r.map { $0.text ?? "\($0.bytes.count) bytes" } }
            out.append(
                Difference(
                    kind: x == nil ? .added : y == nil ? .removed : .changed, table: "name", item: k.label, old: text(x), new: text(y)))
        }
        return out
    }
}
