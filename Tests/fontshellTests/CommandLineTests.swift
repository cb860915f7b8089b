import Foundation
import Testing

/// The fontshell executable end to end, as a user runs it.
@Suite struct CommandLineTests {
    func fontshell(_ args: String...) throws -> (status: Int32, out: String, err: String) {
        try runFontshell(args)
    }

    @Test func infoOnTheDefaultFont() throws {
        let r = try fontshell("info")
        #expect(r.status == 0)
        #expect(r.out.contains("DejaVuSans") && r.out.contains("unitsPerEm:   2048") && r.out.contains("glyf"))
    }

    @Test func infoOnACollectionShowsSharing() throws {
        let r = try fontshell("info", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")
        #expect(r.status == 0)
        #expect(r.out.contains("collection of 3 faces"))
        #expect(r.out.contains("glyf") && r.out.contains("shared with faces 1, 2"))
    }

    @Test func badInputGivesAClearErrorAndNoOutput() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("wOFF and then some bytes".utf8).write(to: URL(fileURLWithPath: dir + "/x.woff"))
        let r = try fontshell("edit", dir + "/x.woff", "-o", dir + "/out.ttf", "--caps")
        #expect(r.status != 0)
        #expect(r.err.contains("x.woff") && r.err.contains("WOFF fonts are not supported yet"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.ttf"))
        let range = try fontshell("edit", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "-o", dir + "/out.ttf", "--set", "hhea.ascender=40000")
        #expect(range.status != 0 && range.err.contains("Int16"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.ttf"))
        let missing = try fontshell("info", dir + "/nope.ttf")
        #expect(missing.status != 0 && missing.err.contains("nope.ttf"))
    }

    @Test func editWritesTheReport() throws {
        let dir = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try fontshell("edit", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "-o", dir + "/caps.ttf", "--caps", "--rename", "DejaVu Caps")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("re-encoded: glyf, hmtx, loca, name"))
        let info = try fontshell("info", dir + "/caps.ttf")
        #expect(info.out.contains("face 0: DejaVuCaps\n"))
    }
}
