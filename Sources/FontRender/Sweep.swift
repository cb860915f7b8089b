import FontModel

/// One value of a sweep and where it put the capitals.
public struct SweepCell: Sendable {
    public var value: Int
    public var measurements: LabelMeasurements
}

public struct SweepResult: Sendable {
    public var sheet: Image
    public var cells: [SweepCell]
    /// The value whose capitals sit closest to the box centre.
    public var best: SweepCell? { cells.min { abs($0.measurements.capCenterOffset) < abs($1.measurements.capCenterOffset) } }
}

extension Preview {
    /// Sets `field` ("hhea.ascender", "OS/2.usWinAscent") to each value in turn, renders the
    /// label, and puts the field back as it was, even when a render fails.
    /// Most cells one sweep draws: each is a full label render.
    public static let maximumSweepValues = 256

    public static func sweep(_ face: Face, field: String, values: [Int], text: String, label options: PreviewOptions,
                             columns: Int? = nil) throws -> SweepResult {
        guard !values.isEmpty else { throw RenderError("a sweep needs at least one value") }
        guard values.count <= maximumSweepValues else {
            throw RenderError("a sweep draws at most \(maximumSweepValues) values (one cell each), got \(values.count); sweep in steps")
        }
        let (table, fieldName) = try face.field(path: field)
        let original = try table.rawValue(fieldName)
        let wasEdited = table.isEdited
        defer { try? table.restore(fieldName, raw: original, wasEdited: wasEdited) }
        // One legend per cell would repeat itself: the sheet shows guides without it unless asked.
        var options = options
        if options.legend == nil { options.legend = false }
        var images: [Image] = [], cells: [SweepCell] = []
        for v in values {
            try table.set(fieldName, FieldValue.int(Int64(v)))
            let label = try Preview.label(face, text, options: options)
            images.append(label.image)
            cells.append(SweepCell(value: v, measurements: label.measurements))
        }
        let captions = cells.map { c in
            let o = c.measurements.capCenterOffset
            return "\(fieldName) \(c.value): caps \(o > 0 ? "+" : "")\(rounded(o)) px"
        }
        let sheet = try Preview.sheet(images, columns: columns, captions: captions, captionSize: 12 * options.scale)
        return SweepResult(sheet: sheet, cells: cells)
    }
}
