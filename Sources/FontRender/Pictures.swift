import FontModel

/// Pictures that explain a face rather than set text with it: one glyph drawn large with its
/// points and metrics, a grid of glyphs with ids and names, a specimen. What `show(glyph)`,
/// `show(face.glyphs)` and `show(face)` put in the terminal, and `preview.glyph`,
/// `preview.glyphs`, `preview.specimen` return.
extension Preview {
    static let outlineFill = Color(214, 218, 228)
    static let pointOn = Color(30, 60, 160), pointOff = Color(200, 40, 40), contourStart = Color(20, 150, 60)
    static let polygon = Color(150, 170, 220)

    /// One glyph, `size` pixels to the em: the filled outline, the control polygon, on-curve
    /// points (filled squares) and off-curve ones (hollow), each contour's first point (green)
    /// with a tick toward the next (its direction), the advance box, and the face's baseline,
    /// ascender, descender, cap height and x-height, labelled.
    public static func glyphPicture(_ face: Face, glyph id: Int, size: Double = 360) throws -> Image {
        let count = try face.glyphCount
        guard (0..<count).contains(id) else { throw RenderError("glyph \(id) is not in the face (0...\(count - 1))") }
        guard size >= 16, size <= 2000 else { throw RenderError("size must be in 16...2000 px, got \(size)") }
        let upem = Double(try face.head.int("unitsPerEm"))
        let hhea = try face.hhea, os2 = try face.os2
        let ascender = hhea.int("ascender"), descender = hhea.int("descender")
        var lines: [(String, Int, Color)] = [
            ("baseline", 0, Color(60, 60, 60)), ("ascender", ascender, Color(40, 90, 200)),
            ("descender", descender, Color(40, 90, 200)),
        ]
        if let os2, os2.int("version") >= 2 {
            if os2.int("sCapHeight") != 0 { lines.append(("cap height", os2.int("sCapHeight"), Color(30, 140, 80))) }
            if os2.int("sxHeight") != 0 { lines.append(("x-height", os2.int("sxHeight"), Color(200, 120, 20))) }
        }
        let advance = try face.hmtx.advance(id)
        // A face of colour bitmaps alone (Noto Color Emoji) has no points to show.
        let hasOutlines = face.hasOutlines
        let points = hasOutlines ? try face.outlinePoints(id) : []
        let bounds = hasOutlines ? try face.glyphBounds(id) : GlyphBounds(xMin: 0, yMin: descender, xMax: advance, yMax: ascender)
        let scale = size / upem
        let xMin = min(0, bounds?.xMin ?? 0), xMax = max(advance, bounds?.xMax ?? 0, Int(upem * 0.25))
        let top = max(ascender, bounds?.yMax ?? 0), bottom = min(descender, bounds?.yMin ?? 0)
        let ui = try CaptionFont.load()
        let labelPx = 12.0
        let labels = try lines.map { try Caption("\($0.0) \($0.1)", font: ui, px: labelPx) }
        let name = (try? face.glyphName(id)) ?? "glyph\(id)"
        let pointCount = points.reduce(0) { $0 + $1.count }
        let shape = hasOutlines ? "\(points.count) contours, \(pointCount) points" : "a colour bitmap"
        let title = try Caption("glyph \(id) '\(name)' · advance \(advance) · \(shape)", font: ui, px: 14)
        let margin = 24, titleHeight = 28
        let labelWidth = Int((labels.map(\.width).max() ?? 0).rounded(.up)) + 16
        let drawingWidth = Int((Double(xMax - xMin) * scale).rounded(.up))
        let width = max(margin * 2 + drawingWidth + labelWidth, Int(title.width.rounded(.up)) + 2 * margin)
        let height = titleHeight + margin * 2 + Int((Double(top - bottom) * scale).rounded(.up))
        try Image.checkSize(width: width, height: height, "the glyph picture")
        func px(_ x: Int) -> Double { Double(margin) + Double(x - xMin) * scale }
        func py(_ y: Int) -> Double { Double(titleHeight + margin) + Double(top - y) * scale }

        var image = Image(width: width, height: height)
        try title.draw(into: &image, font: ui, x: Double(margin), top: 6)
        // The glyph itself, unhinted, under everything else.
        let font = try RenderFont(face: face)
        var mask = CoverageMask(width: width, height: height)
        if let color = try font.colorGlyph(UInt32(id), px: size, x: px(0), y: py(0)) {
            image.draw(color.image, at: color.x, color.y)
        } else {
            try font.rasterize(UInt32(id), px: size, x: px(0), y: py(0), hinting: false, into: &mask)
            image.paint(mask, at: 0, 0, outlineFill)
        }
        for ((label, y, colour), caption) in zip(lines, labels) {
            let row = Int(py(y).rounded())
            image.horizontalLine(y: row, from: margin / 2, to: margin + drawingWidth + 4, colour, dash: label == "baseline" ? 0 : 6)
            try caption.draw(into: &image, font: ui, x: Double(margin + drawingWidth + 10), top: Double(row) - labelPx * 0.6, color: colour)
        }
        for x in [0, advance] {
            image.verticalLine(x: Int(px(x).rounded()), from: Int(py(top)), to: Int(py(bottom)), Color(120, 120, 120))
        }
        for contour in points where !contour.isEmpty {
            for (k, p) in contour.enumerated() {
                let q = contour[(k + 1) % contour.count]
                image.line(from: (px(p.x), py(p.y)), to: (px(q.x), py(q.y)), polygon)
            }
            for p in contour {
                let x = Int(px(p.x).rounded()), y = Int(py(p.y).rounded())
                if p.onCurve {
                    image.fill(x: x - 2, y: y - 2, width: 5, height: 5, pointOn)
                } else {
                    image.strokeRect(x: x - 3, y: y - 3, width: 7, height: 7, pointOff)
                }
            }
            // The first point, and which way the contour runs from it.
            let first = contour[0], next = contour.count > 1 ? contour[1] : contour[0]
            let x0 = px(first.x), y0 = py(first.y), x1 = px(next.x), y1 = py(next.y)
            let length = max(1, ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot())
            let reach = min(28, length)
            image.fill(x: Int(x0.rounded()) - 4, y: Int(y0.rounded()) - 4, width: 9, height: 9, contourStart)
            for offset in [-1.0, 0, 1] {
                image.line(
                    from: (x0 + offset, y0), to: (x0 + (x1 - x0) / length * reach + offset, y0 + (y1 - y0) / length * reach), contourStart)
            }
        }
        image.metadata = [("Software", "FontShell"), ("Title", "glyph \(id) '\(name)'")]
        return image
    }

    /// Glyphs in a grid, each drawn at `cellSize` pixels to the em and captioned "id name".
    public static func glyphGrid(_ face: Face, glyphs ids: [Int], cellSize: Double = 48, columns: Int = 10) throws -> Image {
        guard !ids.isEmpty else { throw RenderError("no glyphs to show") }
        guard ids.count <= 2000 else { throw RenderError("\(ids.count) glyphs is too many for one grid (at most 2,000)") }
        guard cellSize >= 8, cellSize <= 400 else { throw RenderError("cell size must be in 8...400 px, got \(cellSize)") }
        let count = try face.glyphCount
        let font = try RenderFont(face: face)
        let upem = Double(try face.head.int("unitsPerEm"))
        let ascender = Double(try face.hhea.int("ascender"))
        let descender = Double(try face.hhea.int("descender"))
        let scale = cellSize / upem
        let cellWidth = Int((cellSize * 1.3).rounded()), cellHeight = Int(((ascender - descender) * scale).rounded(.up)) + 4
        var cells: [Image] = [], captions: [String] = []
        for id in ids {
            guard (0..<count).contains(id) else { throw RenderError("glyph \(id) is not in the face (0...\(count - 1))") }
            var cell = Image(width: cellWidth, height: cellHeight, background: Color(248, 248, 250))
            let advance = Double(try face.hmtx.advance(id)) * scale
            var mask = CoverageMask(width: cellWidth, height: cellHeight)
            // A glyph that cannot be drawn (broken) leaves its cell empty; colour glyphs are in colour.
            let x = (Double(cellWidth) - advance) / 2, y = ascender * scale + 2
            if let color = try? font.colorGlyph(UInt32(id), px: cellSize, x: x, y: y) {
                cell.draw(color.image, at: color.x, color.y)
            } else {
                try? font.rasterize(UInt32(id), px: cellSize, x: x, y: y, hinting: false, into: &mask)
                cell.paint(mask, at: 0, 0, Color(20, 20, 20))
            }
            cells.append(cell)
            let name = (try? face.glyphName(id)) ?? ""
            captions.append("\(id) \(name.count > 14 ? String(name.prefix(13)) + "…" : name)")
        }
        return try sheet(cells, columns: min(columns, cells.count), captions: captions, captionSize: 10, gap: 8)
    }

    /// The features a specimen's character rows are drawn without: the characters are shown
    /// each as itself, so Inter's `<=>` stays three glyphs rather than its arrow.
    static let characterRowFeatures = ["-calt", "-clig", "-liga", "-dlig", "-hlig", "-kern"]

    /// The specimen's rows of the first characters the face maps (from U+0021), or nil.
    static func characterRows(_ face: Face, _ chars: [UInt32]) throws -> Image? {
        let overview = String(String.UnicodeScalarView(chars.filter { $0 >= 0x21 }.prefix(96).compactMap(Unicode.Scalar.init)))
        guard !overview.isEmpty else { return nil }
        var options = PreviewOptions()
        options.size = 28
        options.width = 900
        options.margin = 2
        options.shaping.features = characterRowFeatures
        return try text(face, overview, options: options).image
    }

    /// A specimen: the names, the metrics, a waterfall of a sample in the face's own script,
    /// and the first characters it maps.
    public static func specimen(_ face: Face) throws -> Image {
        let ui = try CaptionFont.load()
        let family = (try? face.familyName) ?? nil, full = (try? face.fullName) ?? nil
        let upem = try face.head.int("unitsPerEm")
        let hhea = try face.hhea
        let mapping = try face.cmap?.bestUnicodeSubtable()?.mapping() ?? [:]
        let chars = mapping.keys.sorted()
        let latin = "The quick brown fox jumps over the lazy dog 0123456789"
        let sample: String
        if latin.unicodeScalars.allSatisfy({ $0 == " " || mapping[$0.value] != nil }) {
            sample = latin
        } else {
            // Twenty characters of the face's largest block past ASCII.
            let blocks = Dictionary(grouping: chars.filter { $0 > 0x7F }) { $0 >> 8 }
            let block = blocks.max { $0.value.count < $1.value.count }?.value ?? chars
            sample = String(String.UnicodeScalarView(block.prefix(20).compactMap(Unicode.Scalar.init)))
        }
        var parts: [Image] = []
        var header = Image(width: 10, height: 10)
        let title = try Caption(full ?? family ?? "face \(face.index)", font: ui, px: 20)
        let facts = try Caption(
            "\(try face.glyphCount) glyphs · \(chars.count) characters · \(upem) units per em · ascender \(hhea.int("ascender")), descender \(hhea.int("descender")), line gap \(hhea.int("lineGap"))",
            font: ui, px: 12)
        header = Image(width: Int(max(title.width, facts.width).rounded(.up)) + 4, height: 52)
        try title.draw(into: &header, font: ui, x: 0, top: 0)
        try facts.draw(into: &header, font: ui, x: 0, top: 30)
        parts.append(header)
        // The large sizes set the start of the sample, so the sheet stays a screen wide.
        let words = sample.split(separator: " ")
        let short = words.count > 4 ? words.prefix(4).joined(separator: " ") : String(sample.prefix(8))
        for size in [12.0, 18, 24, 36, 48, 72] {
            var options = PreviewOptions()
            options.size = size
            options.margin = 2
            parts.append(try text(face, size >= 48 ? short : sample, options: options).image)
        }
        if let overview = try characterRows(face, chars) { parts.append(overview) }
        let width = min(1600, (parts.map(\.width).max() ?? 100) + 32)
        let height = parts.reduce(16) { $0 + $1.height + 10 } + 6
        try Image.checkSize(width: width, height: height, "the specimen")
        var image = Image(width: width, height: height)
        var y = 16
        for part in parts {
            image.draw(part, at: 16, y)
            y += part.height + 10
        }
        image.metadata = [("Software", "FontShell"), ("Title", "specimen of \(full ?? family ?? "a face")")]
        return image
    }
}

extension Image {
    /// A one-pixel line (DDA), blended.
    mutating func line(from a: (Double, Double), to b: (Double, Double), _ color: Color) {
        let steps = Int(max(abs(b.0 - a.0), abs(b.1 - a.1)).rounded(.up))
        guard steps > 0 else { blend(Int(a.0.rounded()), Int(a.1.rounded()), color); return }
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            let x = Int((a.0 + (b.0 - a.0) * t).rounded()), y = Int((a.1 + (b.1 - a.1) * t).rounded())
            guard x >= 0, y >= 0, x < width, y < height else { continue }
            blend(x, y, color)
        }
    }
}
