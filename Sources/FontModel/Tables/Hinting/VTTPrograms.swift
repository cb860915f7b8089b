/// VTT (Microsoft's Visual TrueType) keeps its sources in private tables so a font can be hinted
/// again: `TSI1` holds each glyph's program as TrueType assembly text and the `fpgm`, `prep`
/// ("ppgm") and `cvt` sources, indexed by `TSI0`; `TSI3` holds the VTTTalk sources, indexed by
/// `TSI2` (same formats). Read as fontTools reads them; written (by a fuse) as fontTools
/// compiles them: programs in glyph order, 2-byte aligned with carriage returns, then the extra
/// programs, and the index rebuilt with them.
public class VTTIndexTable: DecodableTable, DiffableTable, Equatable {
    public class var tableTag: Tag { "TSI0" }
    /// The magic record between the glyph entries and the four extra ones.
    static let magic = (glyph: 0xFFFE, length: 0, offset: 0xABFC_1F34)

    public struct Entry: Equatable, Sendable {
        public var glyph: Int, length: Int, offset: Int
    }
    /// Glyph program entries (glyph id, text length, offset into the text table).
    public let entries: [Entry]
    /// The four extra programs' entries (codes 0xFFFA–0xFFFD).
    public let extras: [Entry]
    public let bytes: [UInt8]
    public let isEdited = false

    public required init(entries: [Entry], extras: [Entry], bytes: [UInt8]) {
        self.entries = entries; self.extras = extras; self.bytes = bytes
    }

    public static func == (a: VTTIndexTable, b: VTTIndexTable) -> Bool { a.bytes == b.bytes }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        let count = reader.count / 8
        guard reader.count % 8 == 0, count >= 5 else {
            throw reader.error(
                "\(tableTag.trimmed) is \(reader.count) bytes: not a list of 8-byte entries ending in the magic record and four extras",
                at: 0)
        }
        let all = try (0..<count).map { k in
            Entry(
                glyph: Int(try reader.u16(at: 8 * k)), length: Int(try reader.u16(at: 8 * k + 2)),
                offset: Int(try reader.u32(at: 8 * k + 4)))
        }
        let m = all[count - 5]
        guard m.glyph == magic.glyph, m.length == magic.length, m.offset == magic.offset else {
            throw reader.error(
                "\(tableTag.trimmed) has no magic record (0xFFFE, 0, 0xABFC1F34) before its last four entries", at: 8 * (count - 5))
        }
        return Self(entries: Array(all[..<(count - 5)]), extras: Array(all[(count - 4)...]), bytes: Array(reader.bytes))
    }

    public func encode() throws -> [UInt8] { bytes }

    /// Which glyphs and extra programs the index lists, when that changed: offsets and lengths
    /// follow from the texts, whose changes TSI1's (TSI3's) diff names glyph by glyph.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? VTTIndexTable else { return nil }
        func listed(_ t: VTTIndexTable) -> String {
            "\(t.entries.count) glyph entries ("
                + Difference.summary(ofBytes: t.entries.flatMap { [UInt8($0.glyph >> 8), UInt8($0.glyph & 0xFF)] })
                + "), extras " + t.extras.map { String($0.glyph, radix: 16, uppercase: true) }.joined(separator: " ")
        }
        let a = listed(self), b = listed(other)
        return a == b ? [] : [Difference(kind: .changed, table: Self.tableTag.trimmed, item: "entries", old: a, new: b)]
    }

    static func encode(_ entries: [Entry], extras: [Entry]) -> [UInt8] {
        var w = BinaryWriter()
        for e in entries + [Entry(glyph: magic.glyph, length: magic.length, offset: magic.offset)] + extras {
            w.u16(UInt16(e.glyph)); w.u16(UInt16(e.length)); w.u32(UInt32(e.offset))
        }
        return w.bytes
    }
}

/// `TSI0`: the index of TSI1.
public final class TSI0Table: VTTIndexTable {
    override public class var tableTag: Tag { "TSI0" }
}

/// `TSI2`: the index of TSI3.
public final class TSI2Table: VTTIndexTable {
    override public class var tableTag: Tag { "TSI2" }
}

/// The program texts of TSI1 or TSI3, by glyph and by extra program name.
public class VTTProgramsTable: DecodableTable, DiffableTable, Equatable {
    public class var tableTag: Tag { "TSI1" }
    public class var indexTag: Tag { "TSI0" }
    /// The extra programs' names by code, in code order.
    public class var extraNames: [(code: Int, name: String)] {
        [(0xFFFA, "ppgm"), (0xFFFB, "cvt"), (0xFFFC, "reserved"), (0xFFFD, "fpgm")]
    }

    /// Glyph programs by glyph id (empty texts left out, as fontTools leaves them out).
    public let programs: [Int: String]
    /// Extra programs by name.
    public let extraPrograms: [String: String]
    public let bytes: [UInt8]
    public let isEdited = false

    public required init(programs: [Int: String], extraPrograms: [String: String], bytes: [UInt8]) {
        self.programs = programs; self.extraPrograms = extraPrograms; self.bytes = bytes
    }

    public static func == (a: VTTProgramsTable, b: VTTProgramsTable) -> Bool {
        a.programs == b.programs && a.extraPrograms == b.extraPrograms
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        guard let raw = try face.rawTable(indexTag) else {
            throw reader.error("\(tableTag.trimmed) needs its index, \(indexTag.trimmed), which the face lacks", at: 0)
        }
        let index = try face.context(indexTag) { try raw.withUnsafeBytes { try VTTIndexTable.decode(BinaryReader($0), face: face) } }
        let data = Array(reader.bytes)
        /// The texts of one list of entries; a length of 0x8000 means "up to the next entry".
        func texts(_ entries: [VTTIndexTable.Entry], extra: Bool) throws -> [(Int, String)] {
            var out: [(Int, String)] = []
            for (i, e) in entries.enumerated() where e.offset <= data.count {
                var length = e.length
                if length == 0x8000 {
                    let next =
                        i + 1 < entries.count ? entries[i + 1].offset : (extra ? data.count : (index.extras.first?.offset ?? data.count))
                    guard next >= e.offset else {
                        throw reader.error(
                            "\(tableTag.trimmed) entry \(i): the next program starts before it (entries not sorted by offset)", at: e.offset
                        )
                    }
                    length = min(next, data.count) - e.offset
                } else if length > 0x8000 {
                    throw reader.error("\(tableTag.trimmed) entry \(i): length \(length) is more than 32768", at: e.offset)
                }
                guard e.offset + length <= data.count else {
                    throw reader.error(
                        "\(tableTag.trimmed) entry \(i): \(length) bytes at \(e.offset) run past the table's end", at: e.offset)
                }
                let text = String(decoding: data[e.offset..<(e.offset + length)], as: UTF8.self)
                if !text.isEmpty { out.append((e.glyph, text)) }
            }
            return out
        }
        var programs: [Int: String] = [:]
        for (glyph, text) in try texts(index.entries, extra: false) { programs[glyph] = text }
        var extras: [String: String] = [:]
        let names = Dictionary(extraNames.map { ($0.code, $0.name) }, uniquingKeysWith: { a, _ in a })
        for (code, text) in try texts(index.extras, extra: true) {
            guard let name = names[code] else {
                throw reader.error(
                    "\(indexTag.trimmed) names an extra program with code 0x\(String(code, radix: 16, uppercase: true)), not one of 0xFFFA–0xFFFD",
                    at: 0)
            }
            extras[name] = text
        }
        return Self(programs: programs, extraPrograms: extras, bytes: data)
    }

    public func encode() throws -> [UInt8] { bytes }

    /// A program's text with its carriage returns (VTT's line ends) as newlines, scalar by
    /// scalar (a CR LF pair becomes two newlines, as in fontTools): how dumps and Lua show it.
    public static func withNewlines(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.map { $0 == "\r" ? "\n" : $0 })
        return String(scalars)
    }

    /// The text table and its index for these programs, as fontTools compiles them: every
    /// glyph of the face in order (empty when it has no program), then the extras in code order.
    public static func compile(
        programs: [Int: String], extraPrograms: [String: String], extraNames: [(code: Int, name: String)],
        glyphCount: Int
    ) -> (text: [UInt8], index: [UInt8]) {
        var data: [UInt8] = []
        func place(_ code: Int, _ text: String?) -> VTTIndexTable.Entry {
            if data.count % 2 == 1 { data.append(0x0D) }   // 2-byte alignment, padded with a carriage return
            let bytes = Array((text ?? "").utf8)
            defer { data += bytes }
            return VTTIndexTable.Entry(glyph: code, length: min(bytes.count, 0x8000), offset: data.count)
        }
        let entries = (0..<glyphCount).map { place($0, programs[$0]) }
        let extras = extraNames.map { place($0.code, extraPrograms[$0.name]) }
        return (data, VTTIndexTable.encode(entries, extras: extras))
    }

    public func differences(to other: FontTable) -> [Difference]? { differences(to: other, namesA: [], namesB: []) }

    /// Programs added, removed or changed, by glyph name (or extra program name).
    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? {
        guard let other = other as? VTTProgramsTable else { return nil }
        func items(_ t: VTTProgramsTable, _ names: [String]) -> [(String, String)] {
            t.programs.keys.sorted().map { (glyphName($0, in: names), summary(t.programs[$0] ?? "")) }
                + t.extraPrograms.keys.sorted().map { ($0, summary(t.extraPrograms[$0] ?? "")) }
        }
        return Difference.keyed(table: Self.tableTag.trimmed, items(self, namesA), items(other, namesB))
    }

    /// A program as one diff value: its line count and a checksum (programs run to hundreds of lines).
    func summary(_ text: String) -> String {
        "\(text.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).count) lines, " + Difference.summary(ofBytes: Array(text.utf8))
    }
}

/// `TSI1`: glyph programs as TrueType assembly, and the fpgm, prep ("ppgm") and cvt sources.
public final class TSI1Table: VTTProgramsTable {
    override public class var tableTag: Tag { "TSI1" }
    override public class var indexTag: Tag { "TSI0" }
}

/// `TSI3`: glyph programs in VTTTalk, VTT's high-level hinting language.
public final class TSI3Table: VTTProgramsTable {
    override public class var tableTag: Tag { "TSI3" }
    override public class var indexTag: Tag { "TSI2" }
    override public class var extraNames: [(code: Int, name: String)] {
        [(0xFFFA, "reserved0"), (0xFFFB, "reserved1"), (0xFFFC, "reserved2"), (0xFFFD, "reserved3")]
    }
}
