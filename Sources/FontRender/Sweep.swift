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

    /// Said when the best value is the smallest or largest tried: the optimum may lie beyond.
    public var warning: String? {
        guard cells.count >= 3, let best, let low = cells.map(\.value).min(), let high = cells.map(\.value).max(), low < high else {
            return nil
        }
        if best.value == low {
            return "the best value, \(low), is the smallest tried: the optimum may lie below it; sweep lower values too"
        }
        if best.value == high {
            return "the best value, \(high), is the largest tried: the optimum may lie above it; sweep higher values too"
        }
        return nil
    }
}

extension Preview {
    /// Most cells one sweep draws: each is a full label render.
    public static let maximumSweepValues = 256

    /// Sets `field` ("hhea.ascender", "OS/2.usWinAscent") to each value in turn, renders the
    /// label, and puts the field back as it was, even when a render fails. The sheet captions
    /// each cell with its value and where the capitals sit ("caps 2.4 px low"), frames the best
    /// cell in green, and shows the guide colours once, under the cells.
    public static func sweep(
        _ face: Face, field: String, values: [Int], text: String, label options: PreviewOptions,
        columns: Int? = nil
    ) throws -> SweepResult {
        guard !values.isEmpty else { throw RenderError("a sweep needs at least one value") }
        guard values.count <= maximumSweepValues else {
            throw RenderError("a sweep draws at most \(maximumSweepValues) values (one cell each), got \(values.count); sweep in steps")
        }
        let (table, fieldName) = try face.field(path: field)
        let original = try table.rawValue(fieldName)
        let wasEdited = table.isEdited
        defer { try? table.restore(fieldName, raw: original, wasEdited: wasEdited) }
        // One legend per cell would repeat itself: the sheet shows it once unless asked per cell.
        var options = options
        let legendPerCell = options.legend == true
        if options.legend == nil { options.legend = false }
        var images: [Image] = [], cells: [SweepCell] = []
        for v in values {
            try table.set(fieldName, FieldValue.int(Int64(v)))
            let label = try Preview.label(face, text, options: options)
            images.append(label.image)
            cells.append(SweepCell(value: v, measurements: label.measurements))
        }
        var result = SweepResult(sheet: Image(width: 1, height: 1), cells: cells)
        let bestIndex = result.best.flatMap { b in cells.firstIndex { $0.value == b.value } }
        if let k = bestIndex {
            let thickness = max(2, Int((2 * options.scale).rounded()))
            for t in 0..<thickness {
                images[k].strokeRect(x: t, y: t, width: images[k].width - 2 * t, height: images[k].height - 2 * t, Color(20, 160, 60))
            }
        }
        let captions = cells.enumerated().map { k, c in
            "\(fieldName) \(c.value): \(capsPlacement(c.measurements.capCenterOffset))" + (k == bestIndex ? " ← best" : "")
        }
        var sheet = try Preview.sheet(images, columns: columns, captions: captions, captionSize: 12 * options.scale)
        if options.guides && !legendPerCell, let ui = try? CaptionFont.load() {
            let legend = try Legend(measurements: nil, font: ui, scale: options.scale, width: sheet.width)
            var framed = Image(width: sheet.width, height: sheet.height + legend.height)
            framed.draw(sheet, at: 0, 0)
            try legend.draw(into: &framed, font: ui, top: sheet.height)
            framed.metadata = sheet.metadata
            sheet = framed
        }
        result.sheet = sheet
        return result
    }
}
