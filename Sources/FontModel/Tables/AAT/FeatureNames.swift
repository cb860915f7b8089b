/// `feat` (Apple), AAT feature names: each feature type the font's morx rules use, its flags
/// (exclusive settings, default), its name ID and its settings with their name IDs. Not to be
/// confused with Graphite's `Feat` (`Tables/Graphite/Feat.swift`). Described once; binary, TTX
/// (fontTools' otData names), Lua (`face.feat.FeatureNames.FeatureName[1]`) and diff follow.
/// Settings offsets count from the table's start, which the FeatureName records (inline)
/// share as their base.
public final class FeatureNameTable: StructuredTable {
    override public class var tableTag: Tag { "feat" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let description: Shape = .record(Record("feat", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("FeatureNames", .record(Record("FeatureNames", [
            Member("FeatureNameCount", .scalar(.uint16)),
            Member("Reserved1", .scalar(.uint16)),
            Member("Reserved2", .scalar(.uint32)),
            Member("FeatureName", .record(Record("FeatureName", [
                Member("FeatureType", .scalar(.uint16)),
                Member("SettingsCount", .scalar(.uint16)),
                Member("Settings", .offset32(.record(Record("Settings", [
                    Member("Setting", .record(Record("Setting", [
                        Member("SettingValue", .scalar(.uint16)),
                        Member("SettingNameID", .scalar(.uint16), ttx: .nameID),
                    ])), count: "SettingsCount"),
                ])))),
                Member("FeatureFlags", .scalar(.uint16)),
                Member("FeatureNameID", .scalar(.uint16), ttx: .nameID),
            ])), count: "FeatureNameCount"),
        ]))),
    ]))
}
