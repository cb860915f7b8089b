/// Two images side by side and a third panel showing where they differ, with the numbers.
public struct Comparison: Sendable {
    public var image: Image
    /// Pixels whose colour or alpha differ at all.
    public var changedPixels: Int
    public var totalPixels: Int
    /// The largest difference of any channel, 0...255.
    public var maxDifference: Int
    /// The smallest rectangle holding every changed pixel, or nil when identical.
    public var changedBounds: (x: Int, y: Int, width: Int, height: Int)?
}

extension Preview {
    /// Compares two images pixel by pixel (the smaller one padded with transparent pixels).
    /// Panels: a, b, then the difference: unchanged pixels as a faint copy of a, changed ones in
    /// red (stronger for larger differences) inside an outline of the changed area.
    public static func compare(_ a: Image, _ b: Image, gap: Int = 8) -> Comparison {
        let w = max(a.width, b.width), h = max(a.height, b.height)
        var diff = Image(width: w, height: h, background: .white)
        var changed = 0, maxDifference = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<h {
            for x in 0..<w {
                let pa = a.pixel(x, y) ?? .clear, pb = b.pixel(x, y) ?? .clear
                let d = max(abs(Int(pa.r) - Int(pb.r)), abs(Int(pa.g) - Int(pb.g)), abs(Int(pa.b) - Int(pb.b)), abs(Int(pa.a) - Int(pb.a)))
                if d == 0 {
                    // A faint grey copy of the unchanged picture, for orientation.
                    let luma = (Int(pa.r) * 3 + Int(pa.g) * 6 + Int(pa.b)) / 10
                    let faint = UInt8(255 - (255 - luma) * Int(pa.a) / 255 / 5)
                    diff.fill(x: x, y: y, width: 1, height: 1, Color(faint, faint, faint))
                } else {
                    changed += 1
                    maxDifference = max(maxDifference, d)
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    diff.fill(x: x, y: y, width: 1, height: 1, Color(255, 0, 0, UInt8(min(255, 96 + d))))
                }
            }
        }
        let bounds = maxX < 0 ? nil : (x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        if let bounds, bounds.width > 2, bounds.height > 2 {
            diff.strokeRect(x: bounds.x - 1, y: bounds.y - 1, width: bounds.width + 2, height: bounds.height + 2, Color(0, 120, 255))
        }
        var panel = Image(width: 3 * w + 2 * gap, height: h, background: Color(220, 220, 220))
        panel.fill(x: 0, y: 0, width: w, height: h, .white); panel.draw(a, at: 0, 0)
        panel.fill(x: w + gap, y: 0, width: w, height: h, .white); panel.draw(b, at: w + gap, 0)
        panel.draw(diff, at: 2 * (w + gap), 0)
        panel.metadata = [("Software", "FontShell"), ("Comment", "compare: \(changed) of \(w * h) pixels changed, max channel difference \(maxDifference)")]
        return Comparison(image: panel, changedPixels: changed, totalPixels: w * h, maxDifference: maxDifference, changedBounds: bounds)
    }
}
