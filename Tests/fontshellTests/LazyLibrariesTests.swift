import Foundation
import Testing

#if os(Linux)
/// HarfBuzz, its subsetter, fontconfig, FreeType, libpng, Brotli and libedit are loaded on first
/// use (LazyLibraries): a process that shapes, renders, writes pictures or WOFF2, edits a line
/// and asks the registry for nothing maps none of them (nor GLib behind HarfBuzz), and each verb
/// that needs one still finds it.
@Suite struct LazyLibrariesTests {
    /// Lua that prints, for each library name given, whether the process has it mapped.
    func mapped(_ names: [String]) -> String {
        "local m = io.open('/proc/self/maps'):read('a') print("
            + names.map { "m:find('\($0)', 1, true) ~= nil" }.joined(separator: ", ") + ")"
    }

    @Test func aScriptThatShapesNothingLoadsNone() throws {
        let libraries = ["libharfbuzz", "libfontconfig", "libglib", "libfreetype", "libpng", "libbrotli", "libedit"]
        let r = try runFontshell(["-e", "print(#face:kerningPairs()) " + mapped(libraries)])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasSuffix(Array(repeating: "false", count: libraries.count).joined(separator: "\t") + "\n"), "\(r.out)")
    }

    @Test func eachVerbLoadsWhatItNeeds() throws {
        let label = try runFontshell([
            "-e", "preview.label(face, 'Hi', {width = 100, height = 40}) " + mapped(["libharfbuzz", "libfreetype", "libfontconfig"]),
        ])
        #expect(label.out == "true\ttrue\tfalse\n", "\(label.out) \(label.err)")
        let subset = try runFontshell(["-e", "face:subset{text = 'Hi'} " + mapped(["libharfbuzz-subset"])])
        #expect(subset.out == "true\n", "\(subset.out) \(subset.err)")
        let registry = try runFontshell(["-e", "registry.find('DejaVu Sans') " + mapped(["libfontconfig"])])
        #expect(registry.out == "true\n", "\(registry.out) \(registry.err)")
        // A WOFF2 written, then read back: Brotli's encoder, then its decoder (FreeType would
        // bring the decoder, so nothing here renders).
        let dir = try TemporaryFolder()
        let woff2 = dir.file("face.woff2"), png = dir.file("label.png")
        let web = try runFontshell([
            "-e",
            "face:save('\(woff2)') " + mapped(["libbrotlienc", "libbrotlidec"]) + " fontshell.open('\(woff2)') " + mapped(["libbrotlidec"]),
        ])
        #expect(web.out == "true\tfalse\ntrue\n", "\(web.out) \(web.err)")
        // A picture saved through the lazily loaded libpng.
        let picture = try runFontshell(["-e", "preview.label(face, 'Hi', {width = 100, height = 40}):save('\(png)')"])
        #expect(picture.status == 0, "\(picture.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }
}
#endif
