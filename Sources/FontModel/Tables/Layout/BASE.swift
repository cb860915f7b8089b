/// `BASE`, baselines: per axis (horizontal text, vertical text) the baseline tags a font knows
/// (romn, ideo, hang, math …) and, per script, where each baseline sits and the extent glyphs
/// reach (min/max, per language and feature). CJK fonts carry it to align with Latin. Described
/// once; binary, TTX, Lua (`face.BASE.HorizAxis`) and diff follow. Names are fontTools'.
public final class BASETable: StructuredTable {
    override public class var tableTag: Tag { "BASE" }
    override public class var shape: Shape { description }

    // swift-format-ignore
    static let coordinate: Shape = .formats(name: "BaseCoord", [
        1: Record("BaseCoordFormat1", [Member("Coordinate", .scalar(.int16))]),
        2: Record("BaseCoordFormat2", [
            Member("Coordinate", .scalar(.int16)), Member("ReferenceGlyph", .glyph), Member("BaseCoordPoint", .scalar(.uint16)),
        ]),
        3: Record("BaseCoordFormat3", [Member("Coordinate", .scalar(.int16)), Member("DeviceTable", .offset16(.device))]),
    ])

    // swift-format-ignore
    static let minMax = Record("MinMax", [
        Member("MinCoord", .offset16(coordinate)),
        Member("MaxCoord", .offset16(coordinate)),
        Member("FeatMinMaxCount", .scalar(.uint16)),
        Member("FeatMinMaxRecord", .record(Record("FeatMinMaxRecord", [
            Member("FeatureTableTag", .scalar(.tag)),
            Member("MinCoord", .offset16(coordinate)),
            Member("MaxCoord", .offset16(coordinate)),
        ])), count: "FeatMinMaxCount"),
    ])

    // swift-format-ignore
    static let script = Record("BaseScript", [
        Member("BaseValues", .offset16(.record(Record("BaseValues", [
            Member("DefaultIndex", .scalar(.uint16)),
            Member("BaseCoordCount", .scalar(.uint16)),
            Member("BaseCoord", .offset16(coordinate), count: "BaseCoordCount"),
        ])))),
        Member("DefaultMinMax", .offset16(.record(minMax))),
        Member("BaseLangSysCount", .scalar(.uint16)),
        Member("BaseLangSysRecord", .record(Record("BaseLangSysRecord", [
            Member("BaseLangSysTag", .scalar(.tag)),
            Member("MinMax", .offset16(.record(minMax))),
        ])), count: "BaseLangSysCount"),
    ])

    // swift-format-ignore
    static let axis: Shape = .record(Record("Axis", [
        Member("BaseTagList", .offset16(.record(Record("BaseTagList", [
            Member("BaseTagCount", .scalar(.uint16)),
            Member("BaselineTag", .scalar(.tag), count: "BaseTagCount"),
        ])))),
        Member("BaseScriptList", .offset16(.record(Record("BaseScriptList", [
            Member("BaseScriptCount", .scalar(.uint16)),
            Member("BaseScriptRecord", .record(Record("BaseScriptRecord", [
                Member("BaseScriptTag", .scalar(.tag)),
                Member("BaseScript", .offset16(.record(script))),
            ])), count: "BaseScriptCount"),
        ])))),
    ]))

    // swift-format-ignore
    static let description: Shape = .record(Record("BASE", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("HorizAxis", .offset16(axis)),
        Member("VertAxis", .offset16(axis)),
        Member("VarStore", .offset32(.record(GDEFTable.variationStore)), since: 0x0001_0001),
    ]))
}
