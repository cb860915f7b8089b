/// 8-bit coverage (0 = none, 255 = full) over a rectangle: what glyphs rasterize into before
/// styles colour them.
struct CoverageMask {
    let width: Int
    let height: Int
    var values: [UInt8]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        values = [UInt8](repeating: 0, count: self.width * self.height)
    }

    /// Adds a glyph bitmap at (x, y) as a union of coverages: a + b - ab, so touching
    /// anti-aliased edges of neighbouring glyphs do not darken where they meet.
    mutating func add(_ bitmap: UnsafeBufferPointer<UInt8>, width w: Int, rows h: Int, pitch: Int, at x: Int, _ y: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            var s = (row - y) * pitch + (x0 - x)
            var d = row * width + x0
            for _ in x0..<x1 {
                let b = Int(bitmap[s])
                if b > 0 {
                    let a = Int(values[d])
                    values[d] = UInt8(a + b - a * b / 255)
                }
                s += 1
                d += 1
            }
        }
    }

    /// Union with another mask of the same size.
    /// Adds another mask of the same width whose row 0 is this mask's row `top`.
    mutating func add(_ other: CoverageMask, at top: Int = 0) {
        guard other.width == width, top >= 0 else { return }
        let start = top * width
        for i in 0..<max(0, min(other.values.count, values.count - start)) {
            let a = Int(values[start + i]), b = Int(other.values[i])
            if b > 0 { values[start + i] = UInt8(a + b - a * b / 255) }
        }
    }

    /// Rows and columns that have any coverage, or nil when empty.
    var inkBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = y * width
            for x in 0..<width where values[row + x] > 0 {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX, maxY)
    }

    /// A Gaussian-like blur: three box blurs in each direction (radius in pixels).
    func blurred(radius: Double) -> CoverageMask {
        let box = Int((radius / 2).rounded(.up))
        guard box > 0 else { return self }
        var a = values.map { Int($0) }, b = a
        for _ in 0..<3 {
            boxBlur(&a, into: &b, count: width, stride: 1, lines: height, lineStride: width, radius: box)
            boxBlur(&b, into: &a, count: height, stride: width, lines: width, lineStride: 1, radius: box)
        }
        var out = self
        for i in 0..<a.count { out.values[i] = UInt8(min(255, max(0, a[i]))) }
        return out
    }

    /// Scales coverage (a glow's strength), clamped to 255.
    func amplified(_ factor: Double) -> CoverageMask {
        var out = self
        for i in 0..<values.count { out.values[i] = UInt8(min(255, (Double(values[i]) * factor).rounded())) }
        return out
    }

    private func boxBlur(_ source: inout [Int], into target: inout [Int], count: Int, stride: Int, lines: Int, lineStride: Int, radius: Int)
    {
        let span = 2 * radius + 1
        for line in 0..<lines {
            let base = line * lineStride
            var sum = 0
            for k in -radius...radius where k >= 0 && k < count { sum += source[base + k * stride] }
            for i in 0..<count {
                target[base + i * stride] = sum / span
                let leaving = i - radius, entering = i + radius + 1
                if leaving >= 0 { sum -= source[base + leaving * stride] }
                if entering < count { sum += source[base + entering * stride] }
            }
        }
    }
}
