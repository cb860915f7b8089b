/// `JSTF`, justification: per script, the glyphs that may be inserted to stretch a line (an
/// Arabic font's kashida), and per language system a priority list of what to try when a line
/// must shrink or extend: GSUB and GPOS lookups to switch on or off (by lookup index) and
/// GPOS lookups of its own (JstfMax) giving the most a line may change. Described once;
/// binary, TTX, Lua (`face.JSTF.JstfScriptRecord`) and diff follow. Names are fontTools'.
/// Version 1.0 (the one the spec has; fontTools' draft 1.1 with 24-bit glyphs is not read).
public final class JSTFTable: StructuredTable {
    override public class var tableTag: Tag { "JSTF" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static func modList(_ table: String) -> Shape {
        .offset16(.record(Record("Jstf\(table)ModList", [
            Member("LookupCount", .scalar(.uint16)),
            Member("\(table)LookupIndex", .scalar(.uint16), count: "LookupCount"),
        ])))
    }

    /// JstfMax's lookups are GPOS lookups, extension subtables included.
    // swift-format-ignore
    static let maxLookups: Shape = .offset16(.record(Record("JstfMax", [
        Member("LookupCount", .scalar(.uint16)),
        Member("Lookup", .offset16(.record(LayoutCommon.lookup({
            var types = GPOSTable.subtables
            types[9] = SwitchCase("ExtensionPos", LayoutCommon.extensionSubtable(GPOSTable.subtables))
            return types
        }()))), count: "LookupCount"),
    ])))

    // swift-format-ignore
    static let priority = Record("JstfPriority", [
        Member("ShrinkageEnableGSUB", modList("GSUB")),
        Member("ShrinkageDisableGSUB", modList("GSUB")),
        Member("ShrinkageEnableGPOS", modList("GPOS")),
        Member("ShrinkageDisableGPOS", modList("GPOS")),
        Member("ShrinkageJstfMax", maxLookups),
        Member("ExtensionEnableGSUB", modList("GSUB")),
        Member("ExtensionDisableGSUB", modList("GSUB")),
        Member("ExtensionEnableGPOS", modList("GPOS")),
        Member("ExtensionDisableGPOS", modList("GPOS")),
        Member("ExtensionJstfMax", maxLookups),
    ])

    // swift-format-ignore
    static let langSys = Record("JstfLangSys", [
        Member("JstfPriorityCount", .scalar(.uint16)),
        Member("JstfPriority", .offset16(.record(priority)), count: "JstfPriorityCount"),
    ])

    // swift-format-ignore
    static let script = Record("JstfScript", [
        Member("ExtenderGlyph", .offset16(.record(Record("ExtenderGlyph", [
            Member("GlyphCount", .scalar(.uint16)),
            Member("ExtenderGlyph", .glyph, count: "GlyphCount"),
        ])))),
        Member("DefJstfLangSys", .offset16(.record(langSys))),
        Member("JstfLangSysCount", .scalar(.uint16)),
        Member("JstfLangSysRecord", .record(Record("JstfLangSysRecord", [
            Member("JstfLangSysTag", .scalar(.tag)),
            Member("JstfLangSys", .offset16(.record(langSys))),
        ])), count: "JstfLangSysCount"),
    ])

    // swift-format-ignore
    static let description: Shape = .record(Record("JSTF", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("JstfScriptCount", .scalar(.uint16)),
        Member("JstfScriptRecord", .record(Record("JstfScriptRecord", [
            Member("JstfScriptTag", .scalar(.tag)),
            Member("JstfScript", .offset16(.record(script))),
        ])), count: "JstfScriptCount"),
    ]))
}
