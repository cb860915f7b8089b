/// `MATH`, the mathematical typesetting table: layout constants (script scale-downs, fraction
/// and radical gaps), per-glyph italic corrections, accent attachment points and cut-in kerns,
/// and the larger variants and assemblies (top, extenders, bottom) of stretchy glyphs such as
/// parentheses and integrals. Described once; binary, TTX, Lua (`face.MATH.MathConstants`) and
/// diff follow. Names are fontTools'.
public final class MATHTable: StructuredTable {
    override public class var tableTag: Tag { "MATH" }
    override public class var shape: Shape { description }

    /// A value in font units, with an optional Device table adjusting it per size (or a
    /// variation index).
    // swift-format-ignore
    static let valueRecord: Shape = .record(Record("MathValueRecord", [
        Member("Value", .scalar(.int16)),
        Member("DeviceTable", .offset16(.device)),
    ]))

    static let constantNames = [
        "MathLeading", "AxisHeight", "AccentBaseHeight", "FlattenedAccentBaseHeight", "SubscriptShiftDown", "SubscriptTopMax",
        "SubscriptBaselineDropMin", "SuperscriptShiftUp", "SuperscriptShiftUpCramped", "SuperscriptBottomMin",
        "SuperscriptBaselineDropMax", "SubSuperscriptGapMin", "SuperscriptBottomMaxWithSubscript", "SpaceAfterScript",
        "UpperLimitGapMin", "UpperLimitBaselineRiseMin", "LowerLimitGapMin", "LowerLimitBaselineDropMin", "StackTopShiftUp",
        "StackTopDisplayStyleShiftUp", "StackBottomShiftDown", "StackBottomDisplayStyleShiftDown", "StackGapMin",
        "StackDisplayStyleGapMin", "StretchStackTopShiftUp", "StretchStackBottomShiftDown", "StretchStackGapAboveMin",
        "StretchStackGapBelowMin", "FractionNumeratorShiftUp", "FractionNumeratorDisplayStyleShiftUp", "FractionDenominatorShiftDown",
        "FractionDenominatorDisplayStyleShiftDown", "FractionNumeratorGapMin", "FractionNumDisplayStyleGapMin", "FractionRuleThickness",
        "FractionDenominatorGapMin", "FractionDenomDisplayStyleGapMin", "SkewedFractionHorizontalGap", "SkewedFractionVerticalGap",
        "OverbarVerticalGap", "OverbarRuleThickness", "OverbarExtraAscender", "UnderbarVerticalGap", "UnderbarRuleThickness",
        "UnderbarExtraDescender", "RadicalVerticalGap", "RadicalDisplayStyleVerticalGap", "RadicalRuleThickness",
        "RadicalExtraAscender", "RadicalKernBeforeDegree", "RadicalKernAfterDegree",
    ]

    // swift-format-ignore
    static let constants = Record("MathConstants", [
        Member("ScriptPercentScaleDown", .scalar(.int16)),
        Member("ScriptScriptPercentScaleDown", .scalar(.int16)),
        Member("DelimitedSubFormulaMinHeight", .scalar(.uint16)),
        Member("DisplayOperatorMinHeight", .scalar(.uint16)),
    ] + constantNames.map { Member($0, valueRecord) } + [
        Member("RadicalDegreeBottomRaisePercent", .scalar(.uint16)),
    ])

    /// Cut-in kerning at one corner of a glyph: kern values between correction heights.
    // swift-format-ignore
    static let kern = Record("MathKern", [
        Member("HeightCount", .scalar(.uint16)),
        Member("CorrectionHeight", valueRecord, count: "HeightCount"),
        Member("KernValue", valueRecord, count: "HeightCount", bias: 1),
    ])

    // swift-format-ignore
    static let glyphInfo = Record("MathGlyphInfo", [
        Member("MathItalicsCorrectionInfo", .offset16(.record(Record("MathItalicsCorrectionInfo", [
            Member("Coverage", .offset16(.coverage)),
            Member("ItalicsCorrectionCount", .scalar(.uint16)),
            Member("ItalicsCorrection", valueRecord, count: "ItalicsCorrectionCount"),
        ])))),
        Member("MathTopAccentAttachment", .offset16(.record(Record("MathTopAccentAttachment", [
            Member("TopAccentCoverage", .offset16(.coverage)),
            Member("TopAccentAttachmentCount", .scalar(.uint16)),
            Member("TopAccentAttachment", valueRecord, count: "TopAccentAttachmentCount"),
        ])))),
        Member("ExtendedShapeCoverage", .offset16(.coverage)),
        Member("MathKernInfo", .offset16(.record(Record("MathKernInfo", [
            Member("MathKernCoverage", .offset16(.coverage)),
            Member("MathKernCount", .scalar(.uint16)),
            Member("MathKernInfoRecords", .record(Record("MathKernInfoRecord", [
                Member("TopRightMathKern", .offset16(.record(kern))),
                Member("TopLeftMathKern", .offset16(.record(kern))),
                Member("BottomRightMathKern", .offset16(.record(kern))),
                Member("BottomLeftMathKern", .offset16(.record(kern))),
            ])), count: "MathKernCount"),
        ])))),
    ])

    /// A stretchy glyph's larger variants, and how to assemble it from parts beyond them.
    // swift-format-ignore
    static let construction = Record("MathGlyphConstruction", [
        Member("GlyphAssembly", .offset16(.record(Record("GlyphAssembly", [
            Member("ItalicsCorrection", valueRecord),
            Member("PartCount", .scalar(.uint16)),
            Member("PartRecords", .record(Record("GlyphPartRecord", [
                Member("glyph", .glyph),
                Member("StartConnectorLength", .scalar(.uint16)),
                Member("EndConnectorLength", .scalar(.uint16)),
                Member("FullAdvance", .scalar(.uint16)),
                Member("PartFlags", .scalar(.uint16)),
            ])), count: "PartCount"),
        ])))),
        Member("VariantCount", .scalar(.uint16)),
        Member("MathGlyphVariantRecord", .record(Record("MathGlyphVariantRecord", [
            Member("VariantGlyph", .glyph),
            Member("AdvanceMeasurement", .scalar(.uint16)),
        ])), count: "VariantCount"),
    ])

    // swift-format-ignore
    static let variants = Record("MathVariants", [
        Member("MinConnectorOverlap", .scalar(.uint16)),
        Member("VertGlyphCoverage", .offset16(.coverage)),
        Member("HorizGlyphCoverage", .offset16(.coverage)),
        Member("VertGlyphCount", .scalar(.uint16)),
        Member("HorizGlyphCount", .scalar(.uint16)),
        Member("VertGlyphConstruction", .offset16(.record(construction)), count: "VertGlyphCount"),
        Member("HorizGlyphConstruction", .offset16(.record(construction)), count: "HorizGlyphCount"),
    ])

    // swift-format-ignore
    static let description: Shape = .record(Record("MATH", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("MathConstants", .offset16(.record(constants))),
        Member("MathGlyphInfo", .offset16(.record(glyphInfo))),
        Member("MathVariants", .offset16(.record(variants))),
    ]))
}
