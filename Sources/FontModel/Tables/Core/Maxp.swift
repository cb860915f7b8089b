/// `maxp` — glyph count, and for TrueType (version 1.0) the maxima the rasterizer allocates for.
public final class MaxpTable: FieldTable {
    public override class var tableTag: Tag { "maxp" }
    public override class var versionFieldName: String? { "version" }

    static let version05: [Field] = [
        Field("version", .version32, ttx: "tableVersion", format: .hex),
        Field("numGlyphs", .uint16, derivedFrom: "the glyph count (glyf/loca or CFF charstrings)"),
    ]
    // swift-format-ignore
    static let version10: [Field] = version05 + [
        Field("maxPoints", .uint16), Field("maxContours", .uint16),
        Field("maxCompositePoints", .uint16), Field("maxCompositeContours", .uint16),
        Field("maxZones", .uint16), Field("maxTwilightPoints", .uint16), Field("maxStorage", .uint16),
        Field("maxFunctionDefs", .uint16), Field("maxInstructionDefs", .uint16),
        Field("maxStackElements", .uint16), Field("maxSizeOfInstructions", .uint16),
        Field("maxComponentElements", .uint16), Field("maxComponentDepth", .uint16),
    ]

    public override class func versionField(of reader: BinaryReader) -> UInt32 {
        (try? reader.u32(at: 0)) ?? 0
    }

    public override class func layout(version: UInt32, length: Int) throws -> [Field] {
        switch version {
        case 0x0000_5000:
            try requireLength(length, 6, "maxp version 0.5")
            return version05
        case 0x0001_0000, .max:
            try requireLength(length, 32, "maxp version 1.0")
            return version10
        default:
            throw FontError("unknown maxp version 0x\(String(version, radix: 16))")
        }
    }

    /// numGlyphs has the same position in both versions.
    static let numGlyphsAt = position(of: "numGlyphs", in: version05)
    public var numGlyphs: Int { int(at: Self.numGlyphsAt) }
}
