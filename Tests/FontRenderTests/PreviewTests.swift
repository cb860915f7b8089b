import Foundation
import Testing
import FontModel
@testable import FontRender

enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let golden = root.appendingPathComponent("Golden").path
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let liberation = "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"
    static let noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    /// A face whose font stays open for the whole run (a Face holds its Font weakly).
    static func face(_ path: String = dejavu, _ index: Int = 0) throws -> Face {
        let font = try Font(path: path)
        openFonts.withLock { $0.append(font) }
        return font.faces[index]
    }
    static let openFonts = Locked<[Font]>([])

    static func label(width: Double = 200, height: Double = 44, size: Double = 17, scale: Double = 2, align: VerticalAlign = .center)
        -> PreviewOptions
    {
        var o = PreviewOptions()
        o.width = width; o.height = height; o.size = size; o.scale = scale; o.verticalAlign = align
        return o
    }

    /// The lowest row holding ink darker than mid-grey in columns x0..<x1: for "H", the baseline row.
    static func inkBottom(_ image: Image, rows: Range<Int>? = nil) -> Int? {
        var bottom: Int?
        for y in rows ?? 0..<image.height {
            for x in 0..<image.width where (image.pixel(x, y)?.r ?? 255) < 128 { bottom = y; break }
        }
        return bottom
    }

    static func inkTop(_ image: Image, rows: Range<Int>) -> Int? {
        for y in rows { for x in 0..<image.width where (image.pixel(x, y)?.a ?? 0) > 0 && (image.pixel(x, y) != .white) { return y } }
        return nil
    }
}

@Suite struct GoldenImageTests {
    /// Compares with a committed reference made by this code and checked by eye. Rendering on
    /// one machine is deterministic; the tolerance absorbs FreeType/HarfBuzz patch releases.
    /// FONTSHELL_UPDATE_GOLDEN=1 rewrites the references (look at them before committing).
    func check(_ image: Image, _ name: String) throws {
        let path = Fixtures.golden + "/" + name + ".png"
        if ProcessInfo.processInfo.environment["FONTSHELL_UPDATE_GOLDEN"] == "1" {
            try image.savePNG(to: path, compression: 9)
        }
        let reference = try Image.loadPNG(path)
        #expect(
            reference.width == image.width && reference.height == image.height,
            "\(name): size \(image.width)x\(image.height), reference \(reference.width)x\(reference.height)")
        let c = Preview.compare(reference, image)
        let farOff = (0..<image.height).reduce(0) { n, y in
            n
                + (0..<image.width).filter { x in
                    guard let a = reference.pixel(x, y), let b = image.pixel(x, y) else { return true }
                    return max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) > 24
                }.count
        }
        #expect(Double(farOff) <= 0.002 * Double(c.totalPixels), "\(name): \(farOff) pixels differ by more than 24 (of \(c.totalPixels))")
    }

    @Test func text() throws {
        var o = PreviewOptions()
        o.size = 28
        try check(try Preview.text(try Fixtures.face(), "Hamburgefonstiv\nffi → Wavy", options: o).image, "text-dejavu")
    }

    @Test func labelWithGuidesAndLegend() throws {
        var o = Fixtures.label(width: 160, height: 44, size: 17, scale: 2)
        o.guides = true
        try check(try Preview.label(try Fixtures.face(Fixtures.liberation), "Hxgy Label", options: o).image, "label-liberation-guides")
    }

    @Test func styledText() throws {
        var o = PreviewOptions()
        o.size = 40
        o.style.gradient = [Color(255, 80, 0), Color(120, 0, 200)]
        o.style.stroke = .init(width: 2, color: .black)
        o.style.shadow = .init(dx: 3, dy: 3, blur: 4, color: Color(0, 0, 0, 140))
        o.style.glow = .init(radius: 6, color: Color(255, 215, 0, 180))
        try check(try Preview.text(try Fixtures.face(), "Glow\nAB", options: o).image, "styled-dejavu")
    }

    @Test func cjkFromCollectionFace() throws {
        var o = PreviewOptions()
        o.size = 32
        try check(try Preview.text(try Fixtures.face(Fixtures.noto, 2), "漢字かな", options: o).image, "text-noto-cjk-face2")
    }
}

@Suite struct LabelGeometryTests {
    /// Lowering hhea.ascender by N units: a centred line box shrinks and is centred again, so the
    /// baseline rises by N/2 × size/upem; at the top it rises by N × size/upem. Checked on the
    /// reported baseline, capCenterOffset and the ink of "H" in the pixels.
    @Test(arguments: [VerticalAlign.center, .top])
    func loweringTheAscenderRaisesTheBaseline(align: VerticalAlign) throws {
        let face = try Fixtures.face()
        let options = Fixtures.label(width: 120, height: 60, size: 24, scale: 2, align: align)
        let upem = Double(try face.head.unitsPerEm), px = options.pixelSize(label: true)
        let before = try Preview.label(face, "HHH", options: options)
        let n = 400
        try face.hhea.set("ascender", .int(Int64(try face.hhea.int("ascender") - n)))
        let after = try Preview.label(face, "HHH", options: options)
        let expected = Double(n) * px / upem * (align == .center ? 0.5 : 1)
        let rise = before.measurements.baseline - after.measurements.baseline
        #expect(abs(rise - expected) <= 1, "baseline rose \(rise) px, expected \(expected)")
        let capShift = before.measurements.capCenterOffset - after.measurements.capCenterOffset
        #expect(abs(capShift - rise) < 1e-9)
        let inkBefore = try #require(Fixtures.inkBottom(before.image)), inkAfter = try #require(Fixtures.inkBottom(after.image))
        #expect(abs(Double(inkBefore - inkAfter) - expected) <= 1, "ink of H rose \(inkBefore - inkAfter) px, expected \(expected)")
        // The H sits on the reported baseline (its bottom row is the one just above it).
        #expect(abs(Double(inkAfter + 1) - after.measurements.baseline) <= 1)
    }

    @Test func appleCentresTheLineBoxAndWindowsFollowsUseTypoMetrics() throws {
        let face = try Fixtures.face(Fixtures.liberation)
        let o = Fixtures.label(width: 100, height: 40, size: 20, scale: 1)
        let apple = try Preview.label(face, "H", options: o).measurements
        #expect(apple.metrics == .hhea)
        #expect(abs((apple.lineTop + apple.lineBottom) / 2 - 20) < 1e-9)
        #expect(abs(apple.lineBottom - apple.lineTop - (apple.ascent + apple.descent + apple.lineGap)) < 1e-9)
        var w = o
        w.platform = .windows
        let os2 = try #require(try face.os2)
        let flags = os2.int("fsSelection")
        try os2.set("fsSelection", .int(Int64(flags & ~0x80)))
        #expect(try Preview.label(face, "H", options: w).measurements.metrics == .win)
        try os2.set("fsSelection", .int(Int64(flags | 0x80)))
        let typo = try Preview.label(face, "H", options: w).measurements
        #expect(typo.metrics == .typo)
        #expect(abs(typo.ascent - Double(os2.int("sTypoAscender")) * 20 / 2048) < 1e-9)
        var forced = o
        forced.metrics = .win
        #expect(try Preview.label(face, "H", options: forced).measurements.metrics == .win)
    }

    @Test func standardScalingShowsIOSBodyAt13Points() throws {
        var o = Fixtures.label()
        o.size = 17
        o.scaling = .standard
        #expect(abs(o.pixelSize(label: true) - 13 * 2) < 1e-9)
        let face = try Fixtures.face()
        let ios = try Preview.label(face, "H", options: Fixtures.label(size: 17)).measurements
        let standard = try Preview.label(face, "H", options: o).measurements
        #expect(abs(standard.capHeight / ios.capHeight - 13.0 / 17.0) < 1e-9)
    }
}

@Suite struct PreviewBehaviourTests {
    /// An unsaved caps edit: "abc" now draws the capitals' outlines and advances, pixel for pixel
    /// what "ABC" drew before (kerning off, since kern pairs are per glyph).
    /// TrueType (glyf re-encoded) and a CFF collection face (CFF re-serialized, read through the
    /// in-place view of the edited face).
    @Test(arguments: [(Fixtures.dejavu, 0), (Fixtures.noto, 3)])
    func previewShowsAnUnsavedGlyphEdit(path: String, index: Int) throws {
        var o = PreviewOptions()
        o.size = 32
        o.shaping.features = ["kern=0", "palt=0"]
        let original = try Fixtures.face(path, index)
        let capitals = try Preview.text(original, "abcxyz", options: o).image
        let upper = try Preview.text(original, "ABCXYZ", options: o).image
        let edited = try Fixtures.face(path, index)
        #expect(try edited.copyCapitalsOntoLowercase() >= 26)
        let after = try Preview.text(edited, "abcxyz", options: o).image
        #expect(Preview.compare(after, upper).changedPixels == 0)
        #expect(Preview.compare(after, capitals).changedPixels > 100)
    }

    @Test func gradientRunsPerLine() throws {
        var o = PreviewOptions()
        o.size = 40
        o.background = .clear   // pixels then carry the fill colour itself, coverage in alpha
        o.style.gradient = [Color(255, 0, 0), Color(0, 0, 255)]
        let r = try Preview.text(try Fixtures.face(), "HH\nHH", options: o)
        let image = r.image
        func inkRows(_ rows: Range<Int>) -> [Int] { rows.filter { y in (0..<image.width).contains { (image.pixel($0, y)?.a ?? 0) > 0 } } }
        let split = Int(r.baselines[0]) + 1
        let lineOne = inkRows(0..<split), lineTwo = inkRows(split..<image.height)
        let lineTwoTop = try #require(lineTwo.first), lineOneBottom = try #require(lineOne.last)
        func opaquest(_ y: Int) -> Color { (0..<image.width).compactMap { image.pixel($0, y) }.max { $0.a < $1.a } ?? .clear }
        let top = opaquest(lineTwoTop), bottom = opaquest(lineOneBottom)
        #expect(top.r > 240 && top.b < 15, "top row of line 2 is \(top), expected the first colour (red)")
        #expect(bottom.b > 240 && bottom.r < 15, "bottom row of line 1 is \(bottom), expected the last colour (blue)")
    }

    @Test func missingGlyphsAreDrawnAsNotdefAndReported() throws {
        // DejaVu Sans has no CJK ideographs.
        let r = try Preview.text(try Fixtures.face(), "A\u{4E00}B\u{4E00}", options: PreviewOptions())
        #expect(r.missing == ["U+4E00 '\u{4E00}'"])
        let label = try Preview.label(try Fixtures.face(), "A\u{4E00}", options: Fixtures.label())
        #expect(label.measurements.missing.count == 1)
    }

    @Test func badInputIsRefusedWithAClearError() throws {
        let face = try Fixtures.face()
        #expect(throws: RenderError.self) { try Platform(parsing: "mac") }
        var negative = PreviewOptions()
        negative.size = -3
        #expect { try Preview.text(face, "x", options: negative) } throws: { "\($0)".contains("size must be a positive") }
        #expect { try Preview.text(face, "", options: PreviewOptions()) } throws: { "\($0)".contains("text is empty") }
        #expect { try Preview.label(face, "x", options: PreviewOptions()) } throws: { "\($0)".contains("width and height") }
        var badFeature = PreviewOptions()
        badFeature.shaping.features = ["=="]
        #expect { try Preview.text(face, "x", options: badFeature) } throws: { "\($0)".contains("feature '=='") }
        let bare = try Fixtures.face()
        bare.removeTable("glyf")
        #expect { try Preview.text(bare, "x", options: PreviewOptions()) } throws: { "\($0)".contains("has no outlines") }
        #expect(throws: RenderError.self) { try Color(parsing: "#12345") }
    }

    @Test func sweepRestoresTheFieldAndPicksTheCentredValue() throws {
        let face = try Fixtures.face()
        let original = try face.hhea.int("ascender")
        let values = [1500, 1700, 1900, 2100]
        let result = try Preview.sweep(face, field: "hhea.ascender", values: values, text: "Hello", label: Fixtures.label())
        #expect(try face.hhea.int("ascender") == original)
        #expect(result.cells.map(\.value) == values)
        let offsets = result.cells.map(\.measurements.capCenterOffset)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
        #expect(
            result.best?.value == result.cells.min { abs($0.measurements.capCenterOffset) < abs($1.measurements.capCenterOffset) }?.value)
        #expect(result.sheet.width > 4 * 400)
        #expect { try Preview.sweep(face, field: "hhea.ascendr", values: [1], text: "H", label: Fixtures.label()) } throws: {
            "\($0)".contains("ascendr")
        }
        #expect(try face.hhea.int("ascender") == original)
    }

    @Test func compareCountsChangedPixels() throws {
        var a = Image(width: 10, height: 5)
        #expect(Preview.compare(a, a).changedPixels == 0)
        #expect(Preview.compare(a, a).changedBounds == nil)
        var b = a
        b.fill(x: 3, y: 2, width: 2, height: 1, Color(250, 255, 255))
        let c = Preview.compare(a, b)
        #expect(c.changedPixels == 2 && c.maxDifference == 5)
        #expect(c.changedBounds?.x == 3 && c.changedBounds?.width == 2 && c.changedBounds?.height == 1)
        #expect(c.image.width == 3 * 10 + 2 * 8)
        #expect(c.sizeChange == nil && c.totalPixels == 50)
        // Sizes differ: only the overlap is compared, the size change reported apart.
        a = Image(width: 12, height: 5)
        let padded = Preview.compare(a, b)
        #expect(padded.changedPixels == 2 && padded.totalPixels == 50 && padded.sizeChange == "12x5 → 10x5")
        // Ink only before is magenta (removed), ink only after cyan (added).
        var before = Image(width: 40, height: 20), after = before
        before.fill(x: 2, y: 5, width: 10, height: 10, .black)
        after.fill(x: 20, y: 5, width: 10, height: 10, .black)
        let inks = Preview.compare(before, after)
        // Panels under the captions (20 px), the colour key (18 px) under them; no strips without a UI font.
        let panelTop = inks.image.height > 20 ? 20 : 0, diffLeft = 2 * (40 + 8)
        #expect(inks.image.height == 20 || inks.image.height == 20 + 20 + 18)
        #expect(inks.image.pixel(diffLeft + 5, panelTop + 8).map { $0.r > 150 && $0.g < 100 && $0.b > 100 } == true)   // magenta
        #expect(inks.image.pixel(diffLeft + 25, panelTop + 8).map { $0.r < 100 && $0.b > 150 } == true)   // cyan
    }

    @Test func pngRoundTripKeepsPixelsAndWritesText() throws {
        let folder = NSTemporaryDirectory() + "fontshell-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try Preview.label(try Fixtures.face(), "Hello", options: Fixtures.label())
        let path = folder + "/label.png"
        try r.image.savePNG(to: path)
        let back = try Image.loadPNG(path)
        #expect(back.width == r.image.width && back.pixels == r.image.pixels)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("tEXtTitle\0DejaVuSans".utf8)) != nil)
        #expect(bytes.range(of: Data("capCenterOffset".utf8)) != nil)
        #expect { try r.image.savePNG(to: folder + "/no/such/dir/x.png") } throws: { "\($0)".contains("no/such/dir/x.png") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["label.png"])   // no temporary left behind
        #expect(throws: RenderError.self) { try Image.loadPNG(Fixtures.dejavu) }
    }
}

final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(&value) }
}

@Suite struct ShapingTests {
    /// HarfBuzz shapes with the face's tables: Arabic joins and runs right to left, kerning and
    /// ligatures apply unless switched off.
    @Test func arabicJoinsAndRunsRightToLeft() throws {
        let font = try RenderFont(face: try Fixtures.face())
        let beh: Unicode.Scalar = "\u{0628}"
        let alone = try font.shape([beh], px: 32, options: ShapingOptions())
        let joined = try font.shape([beh, beh, beh], px: 32, options: ShapingOptions())
        #expect(joined.count == 3)
        #expect(Set(joined.map(\.id)).count == 3, "initial, medial and final forms differ: \(joined.map(\.id))")
        #expect(!joined.contains { $0.id == alone[0].id })
        #expect(joined.map(\.cluster) == [2, 1, 0])   // visual order: the first character is drawn rightmost
    }

    @Test func kerningAndLigaturesFollowFeatures() throws {
        let font = try RenderFont(face: try Fixtures.face())
        var off = ShapingOptions()
        off.features = ["kern=0", "liga=0"]
        let width = { (g: [ShapedGlyph]) in g.reduce(0) { $0 + $1.xAdvance } }
        #expect(
            width(try font.shape(Array("AVAV".unicodeScalars), px: 48, options: ShapingOptions()))
                < width(try font.shape(Array("AVAV".unicodeScalars), px: 48, options: off)))
        #expect(try font.shape(Array("ffi".unicodeScalars), px: 48, options: ShapingOptions()).count == 1)
        #expect(try font.shape(Array("ffi".unicodeScalars), px: 48, options: off).count == 3)
    }

    @Test func hintingChangesThePixels() throws {
        var o = PreviewOptions()
        o.size = 12
        let plain = try Preview.text(try Fixtures.face(), "Hamburg", options: o).image
        o.hinting = true
        let hinted = try Preview.text(try Fixtures.face(), "Hamburg", options: o).image
        #expect(Preview.compare(plain, hinted).changedPixels > 0)
    }
}
