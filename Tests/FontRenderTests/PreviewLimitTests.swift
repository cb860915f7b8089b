import Foundation
import Testing
import FontModel
@testable import FontRender

/// Previews bounded overall, not only option by option: hostile metrics and huge texts give
/// errors naming the limit; long wrapped texts lay out in linear work.
@Suite struct PreviewLimitTests {
    @Test func hugeMetricsAreRefusedBeforeAllocating() throws {
        let font = try Font(path: Fixtures.dejavu)
        let face = font.faces[0]
        try face.head.set("unitsPerEm", .int(16))
        try face.hhea.set("ascender", .int(32767))
        try face.hhea.set("descender", .int(-32768))
        var options = PreviewOptions()
        options.size = 200
        // Before: a 7 GB allocation. Now an error before anything is drawn.
        #expect { try Preview.text(face, "Sign In", options: options) } throws: { "\($0)".contains("million pixels") }
    }

    @Test func tooMuchTextIsRefused() throws {
        let face = try Fixtures.face()
        let text = String(repeating: "x", count: 1_000_000)
        #expect { try Preview.text(face, text) } throws: { "\($0)".contains("at most 20000") }
    }

    @Test func aThousandWrappedWordsFitTheirWidthAndKeepEveryWord() throws {
        let face = try Fixtures.face()
        let words = (0..<1000).map { "word\($0)" }
        var options = PreviewOptions()
        options.size = 12
        options.width = 400
        options.margin = 0
        let font = try RenderFont(face: face)
        let layout = try TextLayout(words.joined(separator: " "), font: font, px: 12, shaping: options.shaping, wrapWidth: 400)
        #expect(layout.lines.count > 20)
        #expect(layout.lines.allSatisfy { $0.width <= 400 })
        #expect(layout.lines.flatMap { String(String.UnicodeScalarView($0.text)).split(separator: " ").map(String.init) } == words)
        let r = try Preview.text(face, words.joined(separator: " "), options: options)
        #expect(r.image.width == 400 && r.baselines.count == layout.lines.count)
    }
}
