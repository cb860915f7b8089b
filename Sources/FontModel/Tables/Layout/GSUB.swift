/// GSUB, glyph substitution: ligatures, alternates, contextual forms. Lookup types 1–4 are read
/// as substitutions (input glyphs → output glyphs, as fontTools presents them); 5, 6 and 8 as
/// their structures; 7 (extension) as the subtable it points to. Described once in
/// `LayoutCommon`'s terms; binary, TTX, Lua (`face.GSUB.LookupList`) and diff follow.
public final class GSUBTable: StructuredTable {
    override public class var tableTag: Tag { "GSUB" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let subtables: [Int: SwitchCase] = [
        1: SwitchCase("SingleSubst", .substitutions(.single)),
        2: SwitchCase("MultipleSubst", .substitutions(.multiple)),
        3: SwitchCase("AlternateSubst", .substitutions(.alternate)),
        4: SwitchCase("LigatureSubst", .substitutions(.ligature)),
        5: SwitchCase("ContextSubst", LayoutCommon.context("Subst")),
        6: SwitchCase("ChainContextSubst", LayoutCommon.chainContext("Subst")),
        8: SwitchCase("ReverseChainSingleSubst", .formats(name: "ReverseChainSingleSubst", [1: Record("ReverseChainSingleSubstFormat1", [
            Member("Coverage", .offset16(.coverage), parallel: ["Substitute"]),
            Member("BacktrackGlyphCount", .scalar(.uint16)), Member("BacktrackCoverage", .offset16(.coverage), count: "BacktrackGlyphCount"),
            Member("LookAheadGlyphCount", .scalar(.uint16)), Member("LookAheadCoverage", .offset16(.coverage), count: "LookAheadGlyphCount"),
            Member("GlyphCount", .scalar(.uint16)), Member("Substitute", .glyph, count: "GlyphCount"),
        ])])),
    ]

    /// Offset overflows are resolved as font compilers do: lookups move behind extension
    /// subtables, then subtables still too big are split (`LayoutCommon.encodeFitting`).
    override public func encode() throws -> [UInt8] {
        try LayoutCommon.encodeFitting(self, extensionType: 7, subtables: Self.subtables)
    }

    static let description: Shape = {
        var types = subtables
        types[7] = SwitchCase("ExtensionSubst", LayoutCommon.extensionSubtable(subtables))
        return LayoutCommon.header("GSUB", lookups: types)
    }()
}
