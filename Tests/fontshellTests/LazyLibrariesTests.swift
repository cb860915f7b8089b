import Testing

#if os(Linux)
/// HarfBuzz, its subsetter and fontconfig are loaded on first use (LazyLibraries): a process that
/// shapes nothing, subsets nothing and asks no registry maps none of them (nor GLib behind
/// HarfBuzz), and each verb that needs one still finds it.
@Suite struct LazyLibrariesTests {
    /// Lua that prints, for each library name given, whether the process has it mapped.
    func mapped(_ names: [String]) -> String {
        "local m = io.open('/proc/self/maps'):read('a') print("
            + names.map { "m:find('\($0)', 1, true) ~= nil" }.joined(separator: ", ") + ")"
    }

    @Test func aScriptThatShapesNothingLoadsNone() throws {
        let r = try runFontshell(["-e", "print(#face:kerningPairs()) " + mapped(["libharfbuzz", "libfontconfig", "libglib"])])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasSuffix("false\tfalse\tfalse\n"), "\(r.out)")
    }

    @Test func eachVerbLoadsWhatItNeeds() throws {
        let label = try runFontshell([
            "-e", "preview.label(face, 'Hi', {width = 100, height = 40}) " + mapped(["libharfbuzz", "libfontconfig"]),
        ])
        #expect(label.out == "true\tfalse\n", "\(label.out) \(label.err)")
        let subset = try runFontshell(["-e", "face:subset{text = 'Hi'} " + mapped(["libharfbuzz-subset"])])
        #expect(subset.out == "true\n", "\(subset.out) \(subset.err)")
        let registry = try runFontshell(["-e", "registry.find('DejaVu Sans') " + mapped(["libfontconfig"])])
        #expect(registry.out == "true\n", "\(registry.out) \(registry.err)")
    }
}
#endif
