/// `cidg` (Apple), CID to glyph: which glyph draws each CID of a character collection (Adobe-Japan1
/// …), so a PDF naming the collection can use a TrueType font (PingFang has one). Described as
/// fontTools' otData describes it, with two custom leaves of its own: `Char64` (the registry and
/// order names) and `CIDGlyphMap`. Binary, TTX, Lua, diff and validate follow.
public final class CIDToGlyphTable: StructuredTable {
    override public class var tableTag: Tag { "cidg" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let description: Shape = .record(Record("cidg", [
        Member("CIDGlyphMapping", .formats(name: "CIDGlyphMapping", [
            0: Record("CIDGlyphMappingFormat0", CIDMappingHeader.members + [Member("Mapping", .custom(CIDGlyphMap.self))]),
        ])),
    ]))
}

/// The members cidg and gcid share before their maps.
enum CIDMappingHeader {
    // swift-format-ignore
    static let members = [
        Member("DataFormat", .scalar(.uint16)), Member("StructLength", .scalar(.uint32), ttx: .structLength),
        Member("Registry", .scalar(.uint16)), Member("RegistryName", .custom(Char64.self)),
        Member("Order", .scalar(.uint16)), Member("OrderName", .custom(Char64.self)),
        Member("SupplementVersion", .scalar(.uint16)),
    ]
}

/// An ASCII name in 64 bytes, padded with zeros (gcid's and cidg's registry and order): its value
/// is the list of its bytes up to the first zero; TTX writes it as text, as fontTools does.
public enum Char64: CustomLeaf {
    public static func decode(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue {
        let bytes = try reader.bytes(64)
        return .list(bytes.prefix { $0 != 0 }.map { .int(Int64($0)) })
    }

    public static func encode(_ value: StructValue, into w: inout BinaryWriter, _ context: LeafContext) throws {
        let bytes = value.listItems.compactMap(\.int)
        guard bytes.count <= 64, bytes.allSatisfy({ (1...0xFF).contains($0) }) else {
            throw FontError("a name of 64 bytes must be at most 64 bytes, none of them 0")
        }
        w.append(bytes.map { UInt8($0) } + [UInt8](repeating: 0, count: 64 - bytes.count))
    }

    public static func ttx(_ value: StructValue, _ context: LeafContext) -> LeafXML {
        // fontTools replaces a byte past ASCII with U+FFFD.
        let scalars = value.listItems.compactMap(\.int).map { $0 < 0x80 ? Unicode.Scalar(UInt8($0)) : "\u{FFFD}" }
        let text = String(String.UnicodeScalarView(scalars))
        return LeafXML("", [("value", text)])
    }

    public static func value(fromTTX element: LeafXML, _ context: LeafContext) throws -> StructValue {
        let text = try element.attribute("value")
        guard text.unicodeScalars.count <= 64, text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value != 0 }) else {
            throw element.problem("\(element.name) must be at most 64 ASCII characters")
        }
        return .list(text.unicodeScalars.map { .int(Int64($0.value)) })
    }
}

/// cidg's map: a count, then a glyph id per CID from 0 (0xFFFF: no glyph). In TTX, as fontTools
/// writes it, a `<CID cid= glyph=/>` per CID that has a glyph.
public enum CIDGlyphMap: CustomLeaf {
    public static func decode(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue {
        try decodeWords(&reader, &context)
    }

    /// A count and that many 16-bit values (shared with gcid's map).
    static func decodeWords(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue {
        let count = Int(try reader.u16())
        guard count <= reader.remaining / 2 else { throw reader.error("the map claims \(count) entries, more than the table holds") }
        try context.spend(count, reader)
        return .list(try (0..<count).map { _ in .int(Int64(try reader.u16())) })
    }

    public static func encode(_ value: StructValue, into w: inout BinaryWriter, _ context: LeafContext) throws {
        let items = value.listItems.compactMap(\.int)
        guard items.count <= 0xFFFF, items.allSatisfy({ (0...0xFFFF).contains($0) }) else {
            throw FontError("a CID map holds at most 65,535 16-bit entries")
        }
        w.u16(UInt16(items.count))
        for v in items { w.u16(UInt16(v)) }
    }

    public static func ttx(_ value: StructValue, _ context: LeafContext) -> LeafXML {
        LeafXML(
            "", [],
            children: value.listItems.compactMap(\.int).enumerated().filter { $0.element != 0xFFFF }.map { cid, glyph in
                LeafXML("CID", [("cid", "\(cid)"), ("glyph", context.glyphName(Int(glyph)))])
            })
    }

    public static func value(fromTTX element: LeafXML, _ context: LeafContext) throws -> StructValue {
        var glyphs: [Int: Int64] = [:]
        for e in element.children {
            guard e.name == "CID" else { throw e.problem("<\(e.name)> in <\(element.name)>: expected <CID cid= glyph=/>") }
            let cid = Int(try e.integer("cid", 0...0xFFFE))
            glyphs[cid] = Int64(try context.glyph(e, "glyph"))
        }
        let count = (glyphs.keys.max() ?? -1) + 1
        return .list((0..<count).map { .int(glyphs[$0] ?? 0xFFFF) })
    }
}
