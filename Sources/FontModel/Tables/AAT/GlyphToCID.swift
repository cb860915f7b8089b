/// `gcid` (Apple), glyph to CID: the CID of a character collection each glyph stands for. The
/// same header as cidg (`CIDMappingHeader`), then `GlyphCIDMap`. Described as fontTools' otData
/// describes it; binary, TTX, Lua, diff and validate follow.
public final class GlyphToCIDTable: StructuredTable {
    override public class var tableTag: Tag { "gcid" }
    override public class var shape: Shape { description }
    override public class var readsGlyphCount: Bool { true }

    // swift-format-ignore
    static let description: Shape = .record(Record("gcid", [
        Member("GlyphCIDMapping", .formats(name: "GlyphCIDMapping", [
            0: Record("GlyphCIDMappingFormat0", CIDMappingHeader.members + [Member("Mapping", .custom(GlyphCIDMap.self))]),
        ])),
    ]))
}

/// gcid's map: a count, then a CID per glyph from 0 (0xFFFF: none). In TTX, as fontTools writes
/// it, a `<CID glyph= value=/>` per glyph of the font that has a CID, sorted by glyph name
/// (entries past the font's glyphs are not shown, as fontTools drops them).
public enum GlyphCIDMap: CustomLeaf {
    public static func decode(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue {
        try CIDGlyphMap.decodeWords(&reader, &context)
    }

    public static func encode(_ value: StructValue, into w: inout BinaryWriter, _ context: LeafContext) throws {
        try CIDGlyphMap.encode(value, into: &w, context)
    }

    public static func ttx(_ value: StructValue, _ context: LeafContext) -> LeafXML {
        let cids = value.listItems.compactMap(\.int)
        let shown = (0..<min(cids.count, context.glyphCount ?? cids.count)).filter { cids[$0] != 0xFFFF }
        let named = shown.map { (name: context.glyphName($0), cid: cids[$0]) }
            .sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
        return LeafXML("", [], children: named.map { LeafXML("CID", [("glyph", $0.name), ("value", "\($0.cid)")]) })
    }

    public static func value(fromTTX element: LeafXML, _ context: LeafContext) throws -> StructValue {
        var cids: [Int: Int64] = [:]
        for e in element.children {
            guard e.name == "CID" else { throw e.problem("<\(e.name)> in <\(element.name)>: expected <CID glyph= value=/>") }
            cids[try context.glyph(e, "glyph")] = try e.integer("value", 0...0xFFFF)
        }
        let count = (cids.keys.max() ?? -1) + 1
        return .list((0..<count).map { .int(cids[$0] ?? 0xFFFF) })
    }
}
