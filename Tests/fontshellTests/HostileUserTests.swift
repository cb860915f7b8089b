import Foundation
import Testing

/// Round 3 of attacks as a hostile user would make them, one test per class (docs/reliability.md
/// lists them): each tries the reported form and a variant of it, and checks that inputs are
/// unchanged and nothing was written where it should not be.
@Suite struct HostileUserTests {
    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: Writes in the wrong place

    /// Every writer refuses a destination that is one of its inputs, however it is spelled.
    @Test func noWriterReplacesItsInput() throws {
        let dir = try TemporaryFolder()
        let font = dir.file("z.ttf")
        try FileManager.default.copyItem(atPath: dejavuPath, toPath: font)
        try FileManager.default.linkItem(atPath: font, toPath: dir.file("hard.ttf"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.ttf"), withDestinationPath: "z.ttf")
        let original = try #require(bytes(font))
        let spellings = [font, dir.path + "/./z.ttf", dir.path + "/../" + URL(fileURLWithPath: dir.path).lastPathComponent + "/z.ttf",
                         dir.file("hard.ttf"), dir.file("link.ttf")]
        for target in spellings {
            for format in ["text", "json", "sarif", "junit"] {
                let r = try runFontshell(["check", font, "--only", "names", "--format", format, "-o", target])
                #expect(r.status == 2 && r.err.contains("one of the fonts"), "\(target) \(format): \(r.err)")
            }
            // A glob's fonts are all inputs, not only the first.
            let glob = try runFontshell(["check", dir.path + "/*.ttf", "--only", "names", "-o", target])
            #expect(glob.status == 2, "\(glob.err)")
        }
        // Files read besides the font: a text file for subset, a slices file, a script.
        let text = try dir.write("text.txt", "Hello")
        let subset = try runFontshell(["subset", font, "--text-file", text, "-o", text])
        #expect(subset.status == 1 && subset.err.contains("input"), "\(subset.err)")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "Hello")
        let script = try dir.write("s.lua", "fontshell.open(arg[1]):save(arg[0])")
        let run = try runFontshell(["run", script, font])
        #expect(run.status != 0 && run.err.contains("input"), "\(run.err)")
        #expect(try String(contentsOfFile: script, encoding: .utf8) == "fontshell.open(arg[1]):save(arg[0])")
        #expect(bytes(font) == original)
    }

    /// A name the tool derives (check --fix's NAME.fixed.ttf) is not written through a link
    /// planted there.
    @Test func derivedNamesAreNotFollowedThroughSymlinks() throws {
        let dir = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let font = dir.file("Bad.ttf")
        // A font a check can fix: hhea.advanceWidthMax below the widest advance.
        let edit = try runFontshell(["edit", dejavuPath, "-o", font, "--set", "hhea.advanceWidthMax=10"])
        try #require(edit.status == 0, "\(edit.err)")
        let victim = try outside.write("victim.ttf", "precious")
        try FileManager.default.createSymbolicLink(atPath: dir.file("Bad.fixed.ttf"), withDestinationPath: victim)
        let r = try runFontshell(["check", font, "--fix", "--only", "metrics/max-advance-width", "--format", "json"])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(r.out.contains("symlink"), "\(r.out)")
        #expect(r.status == 1)
    }

    // MARK: Untrusted numbers and ranges

    /// Every spelling of a Unicode range is parsed without a trap; open ranges and surrogates
    /// are refused by name, and a subset with none of its characters is refused (OTS would
    /// reject its empty cmap).
    @Test func unicodeRangesAreCheckedNotTrapped() throws {
        let dir = try TemporaryFolder()
        let out = dir.file("s.ttf")
        for (spelling, message) in [("-", "both ends"), ("--", "both ends"), ("U+0041-", "both ends"), ("-41", "both ends"),
                                    ("41-42-43", "both ends"), ("U+D800-DFFF", "surrogates"), ("DC00", "surrogates"),
                                    ("+41", "hex"), ("U+", "hex"), ("110000", "hex"), ("FFFFFFFFFFFFFFFFFFFF", "hex"),
                                    ("U+E800", "none of the"), ("7A-41", "backwards")] {
            let r = try runFontshell(["subset", dejavuPath, "--unicodes=" + spelling, "-o", out])
            #expect(r.status == 1 && r.err.contains(message), "\(spelling): \(r.status) \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(spelling)")
        }
        // A range across the surrogates keeps the characters either side.
        let across = try runFontshell(["subset", dejavuPath, "--unicodes", "U+D7FF-E000,41", "-o", out])
        #expect(across.status == 0, "\(across.err)")
        // Invalid UTF-8 in a text file is named, not decoded into U+FFFD.
        let text = dir.file("t.txt")
        try Data([0x41, 0x42, 0xFF, 0x43]).write(to: URL(fileURLWithPath: text))
        let bad = try runFontshell(["subset", dejavuPath, "--text-file", text, "-o", dir.file("t.ttf")])
        #expect(bad.status == 1 && bad.err.contains("not UTF-8") && bad.err.contains("offset 2"), "\(bad.err)")
    }
}
