import Foundation
import Testing
import FontModel
@testable import FontRender

/// Issue 33, item 4: colour glyphs are drawn in colour — Noto Color Emoji's bitmaps (one
/// 109 px strike, scaled to the size asked for) and COLR version 0 layers in their CPAL colours.
@Suite struct ColorGlyphTests {
    /// Pixels whose colour is far from grey (an emoji's yellow, a layer's blue).
    static func saturated(_ image: Image, where test: (Color) -> Bool = { _ in true }) -> Int {
        var n = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let c = image.pixel(x, y) else { continue }
                let channels = [Int(c.r), Int(c.g), Int(c.b)]
                if (channels.max() ?? 0) - (channels.min() ?? 0) > 100 && test(c) { n += 1 }
            }
        }
        return n
    }

    @Test func emojiBitmapsAreDrawnInColourAtAnySize() throws {
        let face = try Fixtures.face("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
        for size in [24.0, 48, 160] {
            var o = PreviewOptions()
            o.size = size
            let image = try Preview.text(face, "😀👍", options: o).image
            // The yellow of the faces covers a good part of each glyph's square.
            let yellow = Self.saturated(image) { $0.r > 200 && $0.g > 150 && $0.b < 100 }
            #expect(Double(yellow) > 0.15 * size * size, "\(size) px: \(yellow) yellow pixels")
        }
        // A label draws them too (app labels carry emoji).
        let label = try Preview.label(face, "🎉", options: Fixtures.label(width: 60, height: 44, size: 17, scale: 2)).image
        #expect(Self.saturated(label) > 100)
    }

    @Test func colrLayersAreDrawnInTheirPaletteColours() throws {
        let path = try Self.build("colr0")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = try Fixtures.face(path)
        var o = PreviewOptions()
        o.size = 100
        // A: glyph a's box in red (palette 0, entry 0) under glyph b's taller box in blue.
        let a = try Preview.text(face, "A", options: o).image
        let blue = Self.saturated(a) { $0.b > 200 && $0.r < 60 }, red = Self.saturated(a) { $0.r > 200 && $0.b < 60 }
        #expect(blue > 2000 && red >= 30 && red < blue / 10, "blue \(blue), red \(red)")
        // B: b's box in half-transparent green, a's box over it in the text colour (0xFFFF).
        let b = try Preview.text(face, "B", options: o).image
        var green = 0
        for y in 0..<b.height {
            for x in 0..<b.width { if let c = b.pixel(x, y), Int(c.g) > Int(c.r) + 40, Int(c.g) > Int(c.b) + 40 { green += 1 } }
        }
        #expect(green > 200, "\(green) green pixels")
        // The plain glyphs stay black.
        #expect(Self.saturated(try Preview.text(face, "ab", options: o).image) == 0)
    }

    /// A font made by Tests/Oracles/make_test_fonts.py, in a temporary file.
    static func build(_ kind: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(kind)-\(UUID().uuidString).ttf"
        let builder = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Tests/Oracles/make_test_fonts.py"
        ).path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", builder, kind, path]
        try p.run(); p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        return path
    }

    /// Colour FreeType 2.12 cannot paint is named, not silently dropped: COLR version 1 glyphs
    /// without version 0 layers and SVG glyphs are drawn as outlines and listed; version 0
    /// layers and sbix bitmaps are drawn and not listed.
    @Test func colourThatIsNotDrawnIsNamed() throws {
        let colr = try Self.build("colr")
        defer { try? FileManager.default.removeItem(atPath: colr) }
        let face = try Fixtures.face(colr)
        // A has version 0 layers (and no paint of its own); a and b only version 1 paints.
        let text = try Preview.text(face, "Aab")
        #expect(text.notInColor == ["U+0061 'a' (COLR v1 paint)", "U+0062 'b' (COLR v1 paint)"])
        #expect(Self.saturated(text.image) > 100, "A is still drawn in colour")
        let label = try Preview.label(face, "ba", options: Fixtures.label(width: 80, height: 44, size: 17, scale: 1))
        #expect(label.measurements.notInColor == ["U+0062 'b' (COLR v1 paint)", "U+0061 'a' (COLR v1 paint)"])
        #expect(try Preview.text(face, "AB").notInColor.isEmpty)

        // The SVG test font: every glyph has an SVG document; A, a and B also an sbix bitmap,
        // which FreeType draws. Its GSUB turns the character a into glyph b (SVG alone).
        let svg = try Self.build("svg-sbix")
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let svgFace = try Fixtures.face(svg)
        #expect(try Preview.text(svgFace, "a").notInColor == ["U+0061 'a' (SVG)"])
        #expect(try Preview.text(svgFace, "AB").notInColor.isEmpty)
        // A hostile SVG table: a document whose glyph range runs backwards, another past the
        // glyphs. Nothing is named for them, and nothing traps.
        svgFace.setRawTable(
            "SVG ",
            try SVGTable(documents: [
                SVGTable.Document(firstGlyph: 4, lastGlyph: 1, text: "<svg/>"),
                SVGTable.Document(firstGlyph: 900, lastGlyph: 65535, text: "<svg/>"),
            ]).encode())
        #expect(try Preview.text(svgFace, "ab").notInColor.isEmpty)
    }
}
