/// `maxp` — glyph count, and for TrueType (version 1.0) the maxima the rasterizer allocates for.
public final class MaxpTable: FieldTable {
    public override class var tableTag: Tag { "maxp" }
    public override class var versionFieldName: String? { "version" }

    public override class var record: Record { described }

    /// Version 0.5 (CFF fonts) has the first two; version 1.0 (TrueType) adds the rest.
    // swift-format-ignore
    static let described = Record("maxp", [
        Member("version", .version32, ttxName: "tableVersion", format: .hex),
        Member("numGlyphs", .uint16, derivedFrom: "the glyph count (glyf/loca or CFF charstrings)"),
        Member("maxPoints", .uint16, since: version10), Member("maxContours", .uint16, since: version10),
        Member("maxCompositePoints", .uint16, since: version10), Member("maxCompositeContours", .uint16, since: version10),
        Member("maxZones", .uint16, since: version10), Member("maxTwilightPoints", .uint16, since: version10),
        Member("maxStorage", .uint16, since: version10), Member("maxFunctionDefs", .uint16, since: version10),
        Member("maxInstructionDefs", .uint16, since: version10), Member("maxStackElements", .uint16, since: version10),
        Member("maxSizeOfInstructions", .uint16, since: version10),
        Member("maxComponentElements", .uint16, since: version10), Member("maxComponentDepth", .uint16, since: version10),
    ])
    static let version10: UInt32 = 0x0001_0000

    public override class func versionField(of reader: BinaryReader) -> UInt32 {
        (try? reader.u32(at: 0)) ?? 0
    }

    public override class func layout(version: UInt32, length: Int) throws -> [Member] {
        guard version == 0x0000_5000 || version == version10 else {
            throw FontError("unknown maxp version 0x\(String(version, radix: 16))")
        }
        let members = members(in: version)
        try requireLength(length, fieldsLength(members), "maxp version \(version == version10 ? "1.0" : "0.5")")
        return members
    }

    /// numGlyphs has the same position in both versions.
    static let numGlyphsAt = position(of: "numGlyphs", in: described.members)
    public var numGlyphs: Int { int(at: Self.numGlyphsAt) }
}
