/// The values a feature file spells out, as the parser hands them to the builder.

/// A device table's (size, delta) pairs.
typealias DeviceSyntax = [(size: Int, delta: Int)]

/// `<x y xAdvance yAdvance <device>…>`, or a bare number (an advance).
struct ValueRecordSyntax: Equatable {
    var xPlacement = 0, yPlacement = 0, xAdvance = 0, yAdvance = 0
    var devices: [[Int]?] = [nil, nil, nil, nil]   // flattened size, delta pairs
    /// In a vertical feature (vkrn …), where a bare number is a y advance.
    var vertical = false
    /// `<NULL>`: no value at all (a pair's side without a ValueRecord), where `<0 0 0 0>` is zeros.
    var isNull = false

    var isEmpty: Bool { xPlacement == 0 && yPlacement == 0 && xAdvance == 0 && yAdvance == 0 && devices.allSatisfy { $0 == nil } }
}

/// `<anchor x y [contourpoint n] [<device> <device>]>`.
struct AnchorSyntax: Equatable, Hashable {
    var x: Int, y: Int
    var contourPoint: Int?
    var xDevice: [Int]?
    var yDevice: [Int]?
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
