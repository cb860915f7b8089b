/// The values a feature file spells out, as the parser hands them to the builder.

/// A device table's (size, delta) pairs.
typealias DeviceSyntax = [(size: Int, delta: Int)]

/// `<x y xAdvance yAdvance <device>…>`, or a bare number (an advance).
struct ValueRecordSyntax: Equatable {
    var xPlacement = 0, yPlacement = 0, xAdvance = 0, yAdvance = 0
    var devices: [[Int]?] = [nil, nil, nil, nil]   // flattened size, delta pairs
    /// Fields given as variable scalars: the row of deltas each varies by (nil when its value
    /// is the same everywhere). A field given so is written even when its default is zero.
    var variations: [VariableField?] = [nil, nil, nil, nil]
    /// In a vertical feature (vkrn …), where a bare number is a y advance.
    var vertical = false
    /// `<NULL>`: no value at all (a pair's side without a ValueRecord), where `<0 0 0 0>` is zeros.
    var isNull = false

    var isEmpty: Bool {
        xPlacement == 0 && yPlacement == 0 && xAdvance == 0 && yAdvance == 0 && devices.allSatisfy { $0 == nil }
            && variations.allSatisfy { $0 == nil }
    }
}

/// A value record field given as a variable scalar (`(wght=200:-10 wght=900:-30)`): the id of
/// its row of deltas in the builder's variation store, nil when the scalar does not vary.
struct VariableField: Hashable {
    var row: Int?
}

/// `<anchor x y [contourpoint n] [<device> <device>]>`.
struct AnchorSyntax: Equatable, Hashable {
    var x: Int, y: Int
    var contourPoint: Int?
    var xDevice: [Int]?
    var yDevice: [Int]?
    /// Rows of deltas for a coordinate given as a varying scalar.
    var xVariation: Int?
    var yVariation: Int?
}

/// A mark class: its glyphs in definition order, each with its anchor.
final class MarkClassSyntax {
    let name: String
    var glyphs: [Int] = []
    var anchors: [Int: AnchorSyntax] = [:]
    init(name: String) { self.name = name }
}

/// A glyph class as written: glyph ids in the order given (repeats kept, as feaLib keeps them),
/// and the mark class it names when it is `@MARKCLASS`.
struct GlyphClassSyntax {
    var glyphs: [Int]
    var markClass: MarkClassSyntax?
    /// A single glyph name rather than a class (pair rules treat the two differently).
    var isSingleGlyph = false
    /// `NULL` (deletion, after `by`).
    var isNull = false
}

/// The words of the feature-file syntax, for completion in the REPL.
public enum FeatureFileWords {
    public static let keywords: [String] = Set(
        [
            "anchor", "anchorDef", "anonymous", "Attach", "base", "by", "contourpoint", "cursive", "cvParameters", "device", "enum",
            "exclude_dflt", "feature", "featureNames", "from", "GlyphClassDef", "ignore", "IgnoreBaseGlyphs", "IgnoreLigatures",
            "IgnoreMarks",
            "include", "include_dflt", "language", "languagesystem", "LigatureCaretByIndex", "LigatureCaretByPos", "ligature",
            "ligComponent",
            "lookup", "lookupflag", "mark", "MarkAttachmentType", "markClass", "name", "nameid", "NULL", "parameters", "pos", "position",
            "required", "reversesub", "RightToLeft", "rsub", "script", "sizemenuname", "sub", "substitute", "subtable", "table",
            "useExtension", "UseMarkFilteringSet", "valueRecordDef",
            // Variable feature files, and the STAT, vmtx and BASE table blocks.
            "conditionset", "variation", "DesignAxis", "AxisValue", "ElidedFallbackName", "ElidedFallbackNameID", "location", "flag",
            "ElidableAxisValueName", "OlderSiblingFontAttribute", "VertOriginY", "VertAdvanceY", "HorizAxis.BaseTagList",
            "HorizAxis.BaseScriptList", "HorizAxis.MinMax", "VertAxis.BaseTagList", "VertAxis.BaseScriptList", "VertAxis.MinMax",
            // …and the statements of the head, hhea, vhea and OS/2 blocks (`Ascender`, `Vendor` …).
        ] + FeatureParser.tableFields.values.flatMap(\.keys)
    ).sorted()

    /// Whether `text` (the statement typed so far) ends inside the string of an
    /// `addFeatures[[ … ]]` or `addFeatures"…"` call, where feature-file words complete.
    public static func endsInsideFeatureText(_ text: String) -> Bool {
        let bytes = Array(text.utf8), word = Array("addFeatures".utf8)
        guard bytes.count >= word.count,
            let start = (0...(bytes.count - word.count)).reversed().first(where: { bytes[$0..<($0 + word.count)].elementsEqual(word) })
        else { return false }
        var rest = Substring(String(decoding: bytes[(start + word.count)...], as: UTF8.self)).drop { $0 == " " || $0 == "(" }
        if rest.hasPrefix("[[") {
            rest = rest.dropFirst(2)
            return !rest.contains("]]")
        }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return false }
        return !rest.dropFirst().contains(quote)
    }
}
