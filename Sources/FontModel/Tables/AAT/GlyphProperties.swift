/// `prop` (Apple), glyph properties: per glyph its Unicode-like directionality class, whether it
/// floats, hangs at a line's end or is mirrored (bits of a 16-bit value), with a default for
/// the glyphs format 1's lookup leaves out. Described once; binary, TTX (fontTools' otData
/// names), Lua (`face.prop.GlyphProperties.Properties.A`), diff and validate follow.
public final class GlyphPropertiesTable: StructuredTable {
    override public class var tableTag: Tag { "prop" }
    override public class var shape: Shape { description }
    override public class var readsGlyphCount: Bool { true }

    // swift-format-ignore
    static let description: Shape = .record(Record("prop", [
        Member("Version", .scalar(.fixed)),
        Member("GlyphProperties", .formats(name: "GlyphProperties", [
            0: Record("GlyphPropertiesFormat0", [Member("DefaultProperties", .scalar(.uint16))]),
            1: Record("GlyphPropertiesFormat1", [
                Member("DefaultProperties", .scalar(.uint16)),
                Member("Properties", .aatLookup(.scalar(.uint16))),
            ]),
        ])),
    ]))
}
