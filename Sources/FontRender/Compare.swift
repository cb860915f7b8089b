/// Two images side by side and a third panel showing where they differ, with the numbers.
public struct Comparison: Sendable {
    public var image: Image
    /// Pixels whose colour or alpha differ at all, where the two images overlap.
    public var changedPixels: Int
    /// Pixels compared: the area both images cover (padding is not compared).
    public var totalPixels: Int
    /// The largest difference of any channel, 0...255.
    public var maxDifference: Int
    /// The smallest rectangle holding every changed pixel, or nil when identical.
    public var changedBounds: (x: Int, y: Int, width: Int, height: Int)?
    /// "300x200 → 320x200" when the images differ in size (reported apart from the pixels).
    public var sizeChange: String?
}

extension Preview {
    static let removedInk = Color(205, 0, 150), addedInk = Color(0, 150, 210), recoloured = Color(230, 120, 0)

    /// Compares two images pixel by pixel where they overlap (both aligned at the top left).
    /// Panels, each captioned: before, after, and the difference: unchanged pixels as a faint
    /// grey copy, ink only before in magenta (removed), ink only after in cyan (added), a colour
    /// change with the same ink in orange, the changed area outlined; what only one image covers
    /// is hatched and not counted (a size change is reported on its own).
    ///
    /// `shift` moves b down by that many pixels before comparing (aligning baselines);
    /// `rows` limits the comparison to the rows above it in a's frame (a label's box, not the
    /// legend strip under it, whose numbers differ whenever anything does).
    ///
    /// `inkOnly` gives the same two pictures without their guide lines (a label's baseline and
    /// line box): the difference is taken from them, so guides that move with the metrics are
    /// not counted as changed ink, while the before and after panels show the guides.
    public static func compare(_ a: Image, _ b: Image, gap: Int = 8, shift: Int = 0, rows: Int? = nil, inkOnly: (a: Image, b: Image)? = nil)
        -> Comparison
    {
        let shown = (a: a, b: b)
        let w = max(a.width, b.width), h = max(a.height, b.height)
        let (a, b) = inkOnly ?? (a, b)
        // The compared region in a's frame: x below both widths, y where both have rows.
        let overlapWidth = min(a.width, b.width)
        let top = max(0, shift), bottom = min(a.height, b.height + shift, rows ?? Int.max)
        let overlapHeight = max(0, bottom - top)
        var diff = Image(width: w, height: h, background: .white)
        var changed = 0, maxDifference = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        func ink(_ p: Color) -> Int { (255 - (Int(p.r) * 3 + Int(p.g) * 6 + Int(p.b)) / 10) * Int(p.a) / 255 }
        for y in 0..<h {
            for x in 0..<w {
                guard x < overlapWidth, y >= top, y < bottom else {
                    // Covered by one image only (or left out): hatched, not compared.
                    if (x + y) % 6 == 0 { diff.fill(x: x, y: y, width: 1, height: 1, Color(200, 200, 200)) }
                    continue
                }
                let pa = a.pixel(x, y) ?? .clear, pb = b.pixel(x, y - shift) ?? .clear
                let d = max(abs(Int(pa.r) - Int(pb.r)), abs(Int(pa.g) - Int(pb.g)), abs(Int(pa.b) - Int(pb.b)), abs(Int(pa.a) - Int(pb.a)))
                if d == 0 {
                    let faint = UInt8(255 - ink(pa) / 5)
                    diff.fill(x: x, y: y, width: 1, height: 1, Color(faint, faint, faint))
                    continue
                }
                changed += 1
                maxDifference = max(maxDifference, d)
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                let inkA = ink(pa), inkB = ink(pb)
                let colour = inkA > inkB ? removedInk : inkB > inkA ? addedInk : recoloured
                let strength = UInt8(min(255, 80 + max(abs(inkA - inkB), d)))
                diff.fill(x: x, y: y, width: 1, height: 1, Color(colour.r, colour.g, colour.b, strength))
            }
        }
        let bounds = maxX < 0 ? nil : (x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        if let bounds, bounds.width > 2, bounds.height > 2 {
            diff.strokeRect(x: bounds.x - 1, y: bounds.y - 1, width: bounds.width + 2, height: bounds.height + 2, Color(0, 120, 255))
        }
        let sizeChange = a.width == b.width && a.height == b.height ? nil : "\(a.width)x\(a.height) → \(b.width)x\(b.height)"
        // Captions above the panels (none when no UI font is installed: the numbers still are).
        let ui = try? CaptionFont.load()
        // A key under the panels whenever something changed, however narrow the panels are.
        let captionPx = 12.0, strip = ui == nil ? 0 : 20, keyStrip = ui == nil || changed == 0 ? 0 : 18
        var panel = Image(width: 3 * w + 2 * gap, height: h + strip + keyStrip, background: Color(220, 220, 220))
        panel.fill(x: 0, y: 0, width: panel.width, height: strip, .white)
        panel.fill(x: 0, y: strip, width: w, height: h, .white); panel.draw(shown.a, at: 0, strip)
        panel.fill(x: w + gap, y: strip, width: w, height: h, .white); panel.draw(shown.b, at: w + gap, strip)
        panel.draw(diff, at: 2 * (w + gap), strip)
        if keyStrip > 0, let ui {
            panel.fill(x: 0, y: strip + h, width: panel.width, height: keyStrip, .white)
            var x = 2.0
            for (colour, name) in [(removedInk, "removed"), (addedInk, "added"), (recoloured, "recoloured")] {
                panel.fill(x: Int(x), y: strip + h + 5, width: 10, height: 10, colour)
                x += 14
                guard let caption = try? Caption(name, font: ui, px: captionPx) else { continue }
                try? caption.draw(into: &panel, font: ui, x: x, top: Double(strip + h + 2))
                x += caption.width + 12
            }
        }
        if let ui {
            let titles = [
                ["before"], ["after"],
                changed == 0
                    ? ["no difference", "same"]
                    : ["difference: \(changed) px (magenta removed, cyan added)", "\(changed) px changed", "diff"],
            ]
            for (k, choices) in titles.enumerated() {
                // The longest wording that fits over its panel.
                let fitting = choices.lazy.compactMap { try? Caption($0, font: ui, px: captionPx) }.first { $0.width <= Double(w - 2) }
                if let caption = fitting { try? caption.draw(into: &panel, font: ui, x: Double(k * (w + gap) + 2), top: 3) }
            }
        }
        panel.metadata = [
            ("Software", "FontShell"),
            (
                "Comment",
                "compare: \(changed) of \(overlapWidth * overlapHeight) pixels changed, max channel difference \(maxDifference)"
                    + (sizeChange.map { ", size \($0)" } ?? "")
            ),
        ]
        return Comparison(
            image: panel, changedPixels: changed, totalPixels: overlapWidth * overlapHeight, maxDifference: maxDifference,
            changedBounds: bounds, sizeChange: sizeChange)
    }
}
