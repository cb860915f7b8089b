extension Preview {
    /// A contact sheet: images in a grid of `columns` (default up to 4), each cell as large as
    /// the largest image, with its caption (UI font) underneath.
    public static func sheet(
        _ images: [Image], columns: Int? = nil, captions: [String] = [], captionSize: Double = 12,
        gap: Int = 12, background: Color = .white
    ) throws -> Image {
        guard !images.isEmpty else { throw RenderError("a sheet needs at least one image") }
        let columns = columns ?? min(images.count, 4)
        guard columns > 0, columns <= 1000 else { throw RenderError("columns must be in 1...1000, got \(columns)") }
        guard captions.isEmpty || captions.count == images.count else {
            throw RenderError("\(captions.count) captions for \(images.count) images: give one per image or none")
        }
        let ui = captions.isEmpty ? nil : try CaptionFont.load()
        guard captionSize > 0, captionSize <= 200 else { throw RenderError("captionSize must be in (0, 200] px, got \(captionSize)") }
        let captionPx = captionSize
        let laid = try ui.map { font in try captions.map { try Caption($0, font: font, px: captionPx) } } ?? []
        let captionHeight = Int((laid.map(\.height).max() ?? 0).rounded(.up))
        let cellWidth = max(images.map(\.width).max() ?? 0, Int((laid.map(\.width).max() ?? 0).rounded(.up)))
        let cellHeight = (images.map(\.height).max() ?? 0) + (laid.isEmpty ? 0 : captionHeight + gap / 3)
        let rows = (images.count + columns - 1) / columns
        let width = gap + columns * (cellWidth + gap), height = gap + rows * (cellHeight + gap)
        guard width <= 32768, height <= 32768 else {
            throw RenderError("the sheet would be \(width)x\(height) px; use more or fewer columns")
        }
        try Image.checkSize(width: width, height: height, "the sheet of \(images.count) images")
        var sheet = Image(width: width, height: height, background: background)
        for (i, image) in images.enumerated() {
            let x = gap + (i % columns) * (cellWidth + gap), y = gap + (i / columns) * (cellHeight + gap)
            sheet.draw(image, at: x, y)
            if let ui, i < laid.count {
                try laid[i].draw(into: &sheet, font: ui, x: Double(x), top: Double(y + image.height + gap / 3))
            }
        }
        sheet.metadata = [("Software", "FontShell"), ("Comment", "sheet of \(images.count) images, \(columns) columns")]
        return sheet
    }
}
