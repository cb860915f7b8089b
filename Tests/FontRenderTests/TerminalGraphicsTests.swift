import Foundation
import Testing
import FontModel
@testable import FontRender
import TestSupport

/// Pictures in the terminal: detection from the environment and from replies, each encoding
/// decoded back, and the explanatory pictures (glyph, grid, specimen).
@Suite struct TerminalGraphicsTests {
    static func sample() -> Image {
        var image = Image(width: 30, height: 13)
        image.fill(x: 0, y: 0, width: 15, height: 13, Color(255, 0, 0))
        image.fill(x: 15, y: 0, width: 15, height: 13, Color(0, 0, 255))
        return image
    }

    @Test func detectionFromTheEnvironmentAndReplies() {
        let cases: [([String: String], TerminalImageProtocol?)] = [
            (["TERM": "xterm-kitty"], .kitty), (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], .kitty),
            (["TERM": "xterm-ghostty"], .kitty), (["KONSOLE_VERSION": "230800", "TERM": "xterm-256color"], .kitty),
            (["TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"], .iterm), (["TERM_PROGRAM": "WezTerm"], .iterm),
            (["TERM_PROGRAM": "vscode"], .iterm), (["TERM": "foot"], .sixel), (["TERM": "mlterm"], .sixel),
            (["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"], .blocks),
            (["TERM": "dumb"], TerminalImageProtocol.none), (["TERM": "xterm-256color"], nil),
            (["FONTSHELL_IMAGES": "off", "TERM": "xterm-kitty"], TerminalImageProtocol.none),
            (["FONTSHELL_IMAGES": "sixel", "TERM": "xterm-kitty"], .sixel),
        ]
        for (env, expected) in cases { #expect(TerminalGraphics.fromEnvironment(env) == expected, "\(env)") }
        #expect(TerminalGraphics.fromReply("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c") == .kitty)
        #expect(TerminalGraphics.fromReply("\u{1B}[?63;1;2;4;6;9;15;22c") == .sixel)
        #expect(TerminalGraphics.fromReply("\u{1B}[?1;2c") == .blocks)
        // Not a terminal (the tests' stdout is a pipe): pictures off, asked of nobody.
        #expect(TerminalGraphics.current().imageProtocol == TerminalImageProtocol.none)
    }

    /// A reply that arrives after the query's deadline (common over ssh) is taken out of the
    /// REPL's input; the keys typed around it stay, in order.
    @Test func lateRepliesAreRemovedAndTypedKeysKept() {
        let late = Array("pri\u{1B}_Gi=31;OK\u{1B}\\nt(6\u{1B}[?62;4c*7)".utf8)
        let (rest, answered, kitty) = TerminalGraphics.removingReplies(late)
        #expect(String(decoding: rest, as: UTF8.self) == "print(6*7)" && answered && kitty)
        // The reported case: "62;4c" landed on the line. An unfinished reply, arrow keys and
        // plain text are left as they are (not replies).
        for kept in ["print(6*7)", "\u{1B}[A\u{1B}[B", "\u{1B}[?62;4", "\u{1B}_Gi=31;OK"] {
            let r = TerminalGraphics.removingReplies(Array(kept.utf8))
            #expect(String(decoding: r.rest, as: UTF8.self) == kept && !r.answered)
        }
        #expect(!TerminalGraphics.removingReplies(Array("\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\".utf8)).kitty)
    }

    @Test func kittyChunksDecodeToThePixels() throws {
        var big = Image(width: 300, height: 200)
        for i in 0..<(big.pixels.count / 4) { big.pixels[4 * i] = UInt8(i % 251); big.pixels[4 * i + 1] = UInt8(i % 7 * 30) }
        let text = TerminalGraphics.encode(big, for: TerminalInfo(imageProtocol: .kitty, columns: 200))
        let chunks = text.components(separatedBy: "\u{1B}\\").filter { $0.hasPrefix("\u{1B}_G") }
        #expect(
            chunks.count > 1 && chunks[0].hasPrefix("\u{1B}_Ga=T,f=32,o=z,s=300,v=200,q=2,m=1;") && chunks.last!.hasPrefix("\u{1B}_Gm=0;"))
        var payload = ""
        for chunk in chunks {
            let data = chunk[chunk.index(after: chunk.firstIndex(of: ";")!)...]
            #expect(data.count <= 4096)
            payload += data
        }
        let compressed = try #require(Data(base64Encoded: payload))
        #expect(compressed.first == 0x78)   // a zlib stream, as o=z says
        let z = try run(
            "python3", ["-c", "import sys, zlib, base64; sys.stdout.write(zlib.decompress(base64.b64decode(sys.stdin.read())).hex())"],
            input: payload
        ).out
        #expect(z == big.pixels.map { String(format: "%02x", $0) }.joined())
        // Wider than the terminal: told how many cells to fill; inside tmux: passthrough.
        let narrow = TerminalGraphics.encode(big, for: TerminalInfo(imageProtocol: .kitty, tmux: true, columns: 20))
        #expect(narrow.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T") && narrow.contains(",c=20,"))
    }

    @Test func itermSixelAndHalfBlocks() throws {
        let image = Self.sample()
        let iterm = TerminalGraphics.encode(image, for: TerminalInfo(imageProtocol: .iterm))
        let header = try #require(iterm.split(separator: ":").first)
        let png = try image.pngBytes()
        #expect(header == "\u{1B}]1337;File=inline=1;size=\(png.count);preserveAspectRatio=1")
        let body = iterm.dropFirst(header.count + 1).dropLast(2)
        #expect(Data(base64Encoded: String(body)).map(Array.init) == png)

        let sixel = TerminalGraphics.encode(image, for: TerminalInfo(imageProtocol: .sixel))
        #expect(sixel.hasPrefix("\u{1B}P0;1;0q\"1;1;30;13") && sixel.hasSuffix("\u{1B}\\\n"))
        #expect(sixel.filter { $0 == "-" }.count == 3)   // 13 rows: three bands of six
        #expect(sixel.contains("#180;2;100;0;0") && sixel.contains("#5;2;0;0;100"))   // pure red and blue registers
        #expect(sixel.contains("#180!15~"))   // red: 15 columns, all six rows set

        let blocks = TerminalGraphics.encode(image, for: TerminalInfo(imageProtocol: .blocks, trueColor: true, columns: 80))
        let lines = blocks.split(separator: "\n")
        #expect(lines.count == 7 && lines.allSatisfy { $0.hasSuffix("\u{1B}[0m") })
        #expect(lines[0].hasPrefix("\u{1B}[38;2;255;0;0;48;2;255;0;0m\u{2580}"))
        // Cell by cell: 15 red then 15 blue; the last line's lower half is past the picture (white).
        for (row, line) in lines.enumerated() {
            let cells = line.components(separatedBy: "\u{2580}").dropLast()
            #expect(cells.count == 30, "line \(row)")
            for (column, cell) in cells.enumerated() {
                let top = column < 15 ? "255;0;0" : "0;0;255", bottom = row == 6 ? "255;255;255" : top
                #expect(cell.hasSuffix("\u{1B}[38;2;\(top);48;2;\(bottom)m"), "line \(row) cell \(column): \(cell.debugDescription)")
            }
        }
        let palette = TerminalGraphics.encode(image, for: TerminalInfo(imageProtocol: .blocks, trueColor: false, columns: 10))
        #expect(palette.split(separator: "\n").count == 2 && palette.hasPrefix("\u{1B}[38;5;196;48;5;196m"))   // shrunk to 10 columns
        #expect(TerminalGraphics.encode(image, for: TerminalInfo(imageProtocol: .none)).isEmpty)

        // A tall picture fits the terminal's height too (issue 35, item 2): a 200 × 1000 glyph
        // in a 200 × 50 pane takes at most 48 lines, leaving the caption and the prompt.
        let tall = Image(width: 200, height: 1000)
        let tallBlocks = TerminalGraphics.encode(tall, for: TerminalInfo(imageProtocol: .blocks, columns: 200, rows: 50))
        #expect((1...48).contains(tallBlocks.split(separator: "\n").count), "\(tallBlocks.split(separator: "\n").count) lines")
        // Height not known: width alone.
        #expect(TerminalGraphics.encode(tall, for: TerminalInfo(imageProtocol: .blocks, columns: 200)).split(separator: "\n").count == 500)
        // kitty is told the cells to fill: 48 lines of 16 px hold 768 px, 153 px of width, 19 cells.
        let tallKitty = TerminalGraphics.encode(tall, for: TerminalInfo(imageProtocol: .kitty, columns: 200, rows: 50))
        #expect(tallKitty.contains(",c=19,"), "\(tallKitty.prefix(80))")
    }

    @Test func explanatoryPictures() throws {
        let face = try Fixtures.face()
        let a = try Preview.glyphPicture(face, glyph: try #require(try face.glyphID(named: "a")), size: 200)
        func count(_ image: Image, _ c: Color) -> Int {
            (0..<(image.width * image.height)).filter {
                image.pixels[4 * $0] == c.r && image.pixels[4 * $0 + 1] == c.g && image.pixels[4 * $0 + 2] == c.b
            }.count
        }
        #expect(count(a, Preview.pointOn) > 50 && count(a, Preview.contourStart) > 40)   // points drawn, two contour starts
        #expect(a.height > 200 && a.width > 150)
        #expect { try Preview.glyphPicture(face, glyph: 99_999) } throws: { "\($0)".contains("not in the face") }
        let grid = try Preview.glyphGrid(face, glyphs: Array(30..<70))
        #expect(grid.width > 400 && grid.height > 150)
        #expect { try Preview.glyphGrid(face, glyphs: []) } throws: { "\($0)".contains("no glyphs") }
        let specimen = try Preview.specimen(face)
        #expect(specimen.width > 600 && specimen.height > 300)
        // Character rows show each character as itself: Inter's `<=>` (adjacent in ASCII) would
        // otherwise be its contextual arrow (issue 35, item 3).
        let inter = try Fixtures.face("/usr/share/fonts/truetype/inter-vf/Inter.var.ttf")
        var plain = PreviewOptions(), contextual = PreviewOptions()
        plain.size = 28; contextual.size = 28
        plain.shaping.features = Preview.characterRowFeatures
        let withoutFeatures = try Preview.text(inter, "<=>", options: plain).image.pixels,
            withFeatures = try Preview.text(inter, "<=>", options: contextual).image.pixels
        #expect(withoutFeatures != withFeatures, "Inter shapes <=> contextually by default")
        let chars = try #require(try inter.cmap?.bestUnicodeSubtable()?.mapping()).keys.sorted()
        let rows = try #require(try Preview.characterRows(inter, chars))
        var expected = PreviewOptions()
        expected.size = 28; expected.width = 900; expected.margin = 2; expected.shaping.features = Preview.characterRowFeatures
        let overview = String(String.UnicodeScalarView(chars.filter { $0 >= 0x21 }.prefix(96).compactMap(Unicode.Scalar.init)))
        let asItself = try Preview.text(inter, overview, options: expected).image.pixels
        expected.shaping.features = []
        let shaped = try Preview.text(inter, overview, options: expected).image.pixels
        #expect(overview.contains("<=>") && rows.pixels == asItself && rows.pixels != shaped)
        // A CJK face: its sample comes from its own characters, and CFF outlines give points.
        let noto = try Fixtures.face(Fixtures.noto)
        #expect(try Preview.specimen(noto).height > 300)
        let ideograph = try #require(try noto.glyphID(for: "永"))
        #expect(count(try Preview.glyphPicture(noto, glyph: ideograph, size: 160), Preview.pointOff) > 20)
    }
}

/// Guides that nearly coincide stay distinguishable: the second is dashed over the first, so
/// both colours show on the row.
@Suite struct CoincidingGuidesTests {
    @Test func capHeightOnTheAscenderShowsBothColours() throws {
        let face = try Fixtures.face(Fixtures.liberation)
        try #require(try face.os2).set("sCapHeight", .int(Int64(try face.hhea.int("ascender"))))
        var options = Fixtures.label()
        options.guides = true
        options.legend = false
        let label = try Preview.label(face, "Hx", options: options)
        let m = label.measurements
        let row = Int((m.baseline - m.capHeight).rounded(.down))
        let colours = Set((0..<label.image.width).compactMap { label.image.pixel($0, row) }.map { "\($0.r),\($0.g),\($0.b)" })
        #expect(colours.contains("\(Guide.capHeight.color.r),\(Guide.capHeight.color.g),\(Guide.capHeight.color.b)"), "\(colours)")
        #expect(colours.contains("\(Guide.ascender.color.r),\(Guide.ascender.color.g),\(Guide.ascender.color.b)"), "\(colours)")
    }
}
