#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PNGShim
import FontModel

/// An 8-bit RGBA image (straight alpha), rows top to bottom. What every preview returns.
public struct Image: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]
    /// tEXt chunks written with the PNG: which face, which parameters.
    public var metadata: [(key: String, value: String)] = []

    public init(width: Int, height: Int, background: Color = .white) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        if background != .clear { fill(x: 0, y: 0, width: self.width, height: self.height, background) }
    }

    /// Most pixels one preview may have (160 MB of RGBA). Options are bounded one by one; this
    /// bounds what they make together, and what a font's metrics make of them.
    public static let maximumPixels = 40_000_000

    /// Refuses a size over `maximumPixels`, saying which image and why it is so large.
    public static func checkSize(width: Int, height: Int, _ what: String) throws {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !pixels.overflow, pixels.partialValue <= maximumPixels else {
            throw RenderError("\(what) would be \(width)×\(height) px, over the limit of \(maximumPixels / 1_000_000) million pixels")
        }
    }

    /// A pixel dimension computed from font data, as an Int: refuses infinite, NaN or absurd
    /// values (Int(Double) would trap on them).
    public static func pixels(_ value: Double, _ what: @autoclosure () -> String) throws -> Int {
        guard value.isFinite, abs(value) < 1e9 else {
            throw RenderError("\(what()) is \(value) px: check the face's metrics and unitsPerEm")
        }
        return Int(value)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public func pixel(_ x: Int, _ y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        return Color(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Replaces the pixels of a rectangle (clipped).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            var i = (row * width + x0) * 4
            for _ in x0..<x1 {
                pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b; pixels[i + 3] = color.a
                i += 4
            }
        }
    }

    /// Source-over compositing of `color` at `coverage` (0...255) onto one pixel.
    @inline(__always)
    mutating func blend(index i: Int, _ color: Color, coverage: Int) {
        let sa = coverage * Int(color.a) / 255
        guard sa > 0 else { return }
        if sa == 255 {
            pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b; pixels[i + 3] = 255
            return
        }
        let da = Int(pixels[i + 3])
        let outA = sa + da * (255 - sa) / 255
        guard outA > 0 else { return }
        func channel(_ s: UInt8, _ d: UInt8) -> UInt8 {
            UInt8((Int(s) * sa + Int(d) * da * (255 - sa) / 255) / outA)
        }
        pixels[i] = channel(color.r, pixels[i])
        pixels[i + 1] = channel(color.g, pixels[i + 1])
        pixels[i + 2] = channel(color.b, pixels[i + 2])
        pixels[i + 3] = UInt8(outA)
    }

    public mutating func blend(_ x: Int, _ y: Int, _ color: Color, coverage: Int = 255) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        blend(index: (y * width + x) * 4, color, coverage: coverage)
    }

    /// A horizontal line one pixel high; `dash` > 0 draws dashes of that length.
    public mutating func horizontalLine(y: Int, from x0: Int, to x1: Int, _ color: Color, dash: Int = 0) {
        guard y >= 0, y < height else { return }
        for x in max(0, x0)..<max(max(0, x0), min(width, x1)) where dash == 0 || (x / dash) % 2 == 0 {
            blend(index: (y * width + x) * 4, color, coverage: 255)
        }
    }

    public mutating func verticalLine(x: Int, from y0: Int, to y1: Int, _ color: Color) {
        guard x >= 0, x < width else { return }
        for y in max(0, y0)..<max(max(0, y0), min(height, y1)) { blend(index: (y * width + x) * 4, color, coverage: 255) }
    }

    /// A one-pixel rectangle outline.
    public mutating func strokeRect(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        horizontalLine(y: y, from: x, to: x + w, color)
        horizontalLine(y: y + h - 1, from: x, to: x + w, color)
        verticalLine(x: x, from: y + 1, to: y + h - 1, color)
        verticalLine(x: x + w - 1, from: y + 1, to: y + h - 1, color)
    }

    /// Paints `color` through a coverage mask placed at (x, y).
    mutating func paint(_ mask: CoverageMask, at x: Int, _ y: Int, _ color: Color) {
        paint(mask, at: x, y) { _ in color }
    }

    /// Paints through a mask with a colour chosen per image row (gradients).
    mutating func paint(_ mask: CoverageMask, at x: Int, _ y: Int, colorForRow: (Int) -> Color) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + mask.width), y1 = min(height, y + mask.height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let color = colorForRow(row)
            var m = (row - y) * mask.width + (x0 - x)
            var i = (row * width + x0) * 4
            for _ in x0..<x1 {
                let c = Int(mask.values[m])
                if c > 0 { blend(index: i, color, coverage: c) }
                m += 1
                i += 4
            }
        }
    }

    /// Draws another image over this one at (x, y), source-over.
    public mutating func draw(_ image: Image, at x: Int, _ y: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            var s = ((row - y) * image.width + (x0 - x)) * 4
            var i = (row * width + x0) * 4
            for _ in x0..<x1 {
                let color = Color(image.pixels[s], image.pixels[s + 1], image.pixels[s + 2], image.pixels[s + 3])
                blend(index: i, color, coverage: 255)
                s += 4
                i += 4
            }
        }
    }

    /// Writes a PNG (8-bit RGBA, tEXt chunks from `metadata`) through `AtomicFile`: a failed
    /// write never leaves half a file, and a font open in this session is never replaced.
    public func savePNG(to path: String, compression: Int = 1) throws {
        guard width > 0, height > 0 else { throw RenderError("cannot save an empty image (\(width)x\(height))") }
        var message = [CChar](repeating: 0, count: 256)
        let keys = metadata.map { strdup($0.key) }, values = metadata.map { strdup($0.value) }
        defer { keys.forEach { free($0) }; values.forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer($0) }, valuePointers = values.map { UnsafePointer($0) }
        try AtomicFile.write(to: path) { fd in
            let status = pixels.withUnsafeBufferPointer { rgba in
                keyPointers.withUnsafeBufferPointer { k in
                    valuePointers.withUnsafeBufferPointer { v in
                        fs_png_write(
                            fd, rgba.baseAddress, UInt32(width), UInt32(height), k.baseAddress, v.baseAddress,
                            Int32(metadata.count), Int32(compression), &message, message.count)
                    }
                }
            }
            guard status == 0 else { throw RenderError("\(path): \(cText(message))") }
        }
    }

    /// The PNG file's bytes, in memory (through an unlinked temporary file: libpng writes to a
    /// descriptor).
    public func pngBytes() throws -> [UInt8] {
        guard width > 0, height > 0 else { throw RenderError("cannot encode an empty image (\(width)x\(height))") }
        var template = Array("/tmp/fontshell-png-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw RenderError("cannot make a temporary file for a PNG") }
        unlink(template.withUnsafeBufferPointer { $0.baseAddress! })
        defer { close(fd) }
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer { rgba in
            fs_png_write(fd, rgba.baseAddress, UInt32(width), UInt32(height), nil, nil, 0, 1, &message, message.count)
        }
        guard status == 0 else { throw RenderError("PNG: \(cText(message))") }
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0, lseek(fd, 0, SEEK_SET) == 0 else { throw RenderError("PNG: the temporary file is empty") }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            guard n > 0 else { throw RenderError("PNG: cannot read the temporary file back") }
            done += n
        }
        return bytes
    }

    /// Reads a PNG of any colour type as 8-bit RGBA.
    public static func loadPNG(_ path: String) throws -> Image {
        var pointer: UnsafeMutablePointer<UInt8>?
        var w: UInt32 = 0, h: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard fs_png_read(path, &pointer, &w, &h, &message, message.count) == 0, let pointer else {
            throw RenderError("\(path): \(cText(message))")
        }
        defer { fs_png_free(pointer) }
        let pixels = Array(UnsafeBufferPointer(start: pointer, count: Int(w) * Int(h) * 4))
        return Image(width: Int(w), height: Int(h), pixels: pixels)
    }
}

/// A NUL-terminated C buffer as a String.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
