/// A point in a variable font's design space: user coordinates (wght=700) and the normalized
/// coordinates (-1…1 per axis, avar applied, quantized to F2Dot14) that variation data uses.
public struct VariationLocation: Equatable, Sendable {
    /// One user coordinate per fvar axis, in axis order (defaults filled in, clamped).
    public var user: [Double]
    /// One normalized coordinate per fvar axis.
    public var normalized: [Double]
    /// The axis tags, in order.
    public var tags: [Tag]
    /// What was adjusted on the way (coordinates clamped into an axis's range).
    public var warnings: [String]

    public var isDefault: Bool { normalized.allSatisfy { $0 == 0 } }

    /// The user coordinate of an axis, by tag.
    public func user(_ tag: Tag) -> Double? { tags.firstIndex(of: tag).map { user[$0] } }
}

extension Face {
    /// The design axes (empty for a static font).
    public var variationAxes: [FvarTable.Axis] { get throws { try table(FvarTable.self)?.axes ?? [] } }

    public var isVariable: Bool { has("fvar") }

    /// Resolves user coordinates by axis tag ("wght" → 700) to a location. Axes not given take
    /// their default. A coordinate outside an axis's range is clamped to it with a warning, or
    /// refused when `clamp` is false; an unknown tag is refused, naming the closest axis.
    public func location(_ coordinates: [String: Double], clamp: Bool = true) throws -> VariationLocation {
        guard let fvar = try table(FvarTable.self) else {
            throw FontError("the face is not a variable font (it has no 'fvar' table)", path: path, face: faceLabel)
        }
        let tags = fvar.axes.map(\.tag.trimmed)
        var seen = Set<String>()
        for tag in tags where !seen.insert(tag).inserted {
            throw FontError(
                "fvar lists axis '\(tag)' more than once, so a location by axis tag is ambiguous", path: path, face: faceLabel,
                table: "fvar")
        }
        for key in coordinates.keys where !tags.contains(key) {
            var message = "no axis '\(key)' in this font (axes: \(tags.joined(separator: ", ")))"
            if let near = closestName(to: key, in: tags) { message += "; did you mean '\(near)'?" }
            throw FontError(message, path: path, face: faceLabel, table: "fvar")
        }
        let avar = try table(AvarTable.self)
        var user: [Double] = [], mapped: [Double] = [], warnings: [String] = []
        for (i, axis) in fvar.axes.enumerated() {
            var v = coordinates[axis.tag.trimmed] ?? axis.defaultValue
            guard v.isFinite else { throw FontError("axis '\(axis.tag.trimmed)': \(v) is not a number", path: path, face: faceLabel) }
            if v < axis.minimum || v > axis.maximum {
                let range = "\(Self.short(axis.minimum))…\(Self.short(axis.maximum))"
                guard clamp else {
                    throw FontError(
                        "axis '\(axis.tag.trimmed)': \(Self.short(v)) is outside its range \(range)", path: path, face: faceLabel)
                }
                let clamped = min(max(v, axis.minimum), axis.maximum)
                warnings.append("axis '\(axis.tag.trimmed)': \(Self.short(v)) is outside \(range); using \(Self.short(clamped))")
                v = clamped
            }
            user.append(v)
            var n = Self.normalize(v, axis)
            if let avar { n = avar.map(n, axis: i) }
            mapped.append(n)
        }
        // Quantized to F2Dot14 after the segment maps; avar 2 then moves each axis.
        let normalized = avar?.applyVersion2(mapped) ?? mapped.map { F2Dot14(clamping: $0).value }
        return VariationLocation(user: user, normalized: normalized, tags: fvar.axes.map(\.tag), warnings: warnings)
    }

    /// The default location (every axis at its default).
    public func defaultLocation() throws -> VariationLocation { try location([:]) }

    /// -1 at the minimum, 0 at the default, 1 at the maximum, linear in between.
    static func normalize(_ v: Double, _ axis: FvarTable.Axis) -> Double {
        if v == axis.defaultValue || axis.minimum == axis.maximum { return 0 }
        if v < axis.defaultValue {
            return axis.defaultValue == axis.minimum ? 0 : (v - axis.defaultValue) / (axis.defaultValue - axis.minimum)
        }
        return axis.maximum == axis.defaultValue ? 0 : (v - axis.defaultValue) / (axis.maximum - axis.defaultValue)
    }

    /// A coordinate as people write it: 700, not 700.0; 62.5 as is.
    public static func short(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}

extension Double {
    /// Rounds half up (floor(x + 0.5)), the rounding fontTools and the OpenType spec use for
    /// coordinates, so instances match theirs unit for unit.
    public var otRounded: Double { (self + 0.5).rounded(.down) }
    public var otRoundedInt: Int { Int((self + 0.5).rounded(.down)) }
}
