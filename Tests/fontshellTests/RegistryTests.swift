import Foundation
import Testing

/// A private fontconfig setup: XDG data/cache/config folders and a fonts.conf in a temporary
/// folder, so nothing touches the real user's fonts. It reads neither the machine's
/// configuration nor its other fonts: the corpus's DejaVu and its own generic families, so a
/// machine whose default sans-serif is Noto (most desktops) gives the same answers.
final class PrivateFontconfig {
    let folder: TemporaryFolder
    let environment: [String: String]

    init() throws {
        folder = try TemporaryFolder()
        for sub in ["data", "cache", "config", "system"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        // "The system's fonts": four of DejaVu's (fonts-dejavu-core, which the corpus brings),
        // whatever else the machine's DejaVu folder holds (fonts-dejavu-extra adds eighteen).
        for name in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSerif.ttf"] {
            try FileManager.default.createSymbolicLink(
                atPath: folder.file("system/" + name), withDestinationPath: "/usr/share/fonts/truetype/dejavu/" + name)
        }
        let conf = try folder.write(
            "fonts.conf",
            """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>
              <dir>\(folder.file("system"))</dir>
              <dir prefix="xdg">fonts</dir>
              <cachedir prefix="xdg">fontconfig</cachedir>
              <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
              <alias><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
              <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
            </fontconfig>
            """)
        environment = [
            "XDG_DATA_HOME": folder.file("data"), "XDG_CACHE_HOME": folder.file("cache"),
            "XDG_CONFIG_HOME": folder.file("config"), "FONTCONFIG_FILE": conf,
        ]
    }

    var fontsFolder: String { folder.file("data") + "/fonts/fontshell" }

    func fontshell(_ args: String...) throws -> ProcessResult {
        try run(fontshellBinary, args, environment: environment)
    }

    func fcList() throws -> String {
        try run("/usr/bin/env", ["fc-list", ":", "family", "postscriptname", "file"], environment: environment).out
    }

    func folderContents() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: fontsFolder))?.sorted() ?? [] }
    func manifest() -> String { (try? String(contentsOfFile: folder.file("data") + "/fontshell/registered.json", encoding: .utf8)) ?? "" }

    /// DejaVu Sans renamed (so its name is free) with a wrong head.magicNumber: it opens, but the
    /// validator finds an error.
    func brokenChecksumCopy() throws -> String {
        let out = folder.file("BadMagic.ttf")
        let r = try fontshell("edit", dejavuPath, "-o", out, "--rename", "Bad Magic", "--set", "head.magicNumber=0", "--force")
        guard r.status == 0 else { throw NSError(domain: r.err, code: 1) }
        return out
    }

    /// The all-caps, renamed copy of DejaVu Sans (so it can coexist with the original).
    func capsCopy() throws -> String {
        let out = folder.file("DejaVuSansCaps.ttf")
        let r = try fontshell("edit", dejavuPath, "-o", out, "--caps", "--family-suffix", " Caps")
        guard r.status == 0 else { throw NSError(domain: r.err, code: 1) }
        return out
    }
}

@Suite struct RegistryTests {
    let realUserFonts = (ProcessInfo.processInfo.environment["HOME"] ?? "/root") + "/.local/share/fonts/fontshell"

    /// Weights read as a type engineer and a web developer read them (400, 700), not in
    /// fontconfig's scale (80, 200); Lua registers where the CLI does unless told.
    @Test func weightsAreOpenTypeWeightsAndScopesAgree() throws {
        let fc = try PrivateFontconfig()
        let bold = try fc.fontshell("registry", "find", "DejaVuSans-Bold", "--json")
        #expect(bold.out.contains("\"weight\": 700"), "\(bold.out) \(bold.err)")
        let regular = try fc.fontshell("-e", "print(registry.find('DejaVuSans').weight)")
        #expect(regular.out == "400\n", "\(regular.out) \(regular.err)")
        let help = try fc.fontshell("-e", "help(registry)")
        #expect(help.out.contains("for the user (default, as the CLI)"), "\(help.out)")
    }

    /// The picker: letters in order find a family, a typed number chooses, nothing typed is nil.
    @Test func pickerFindsFamiliesByTheirLetters() throws {
        let fc = try PrivateFontconfig()
        let chosen = try fc.fontshell("-e", "local f = registry.pick('djvsm', {choose = 1}); print(f.familyName, f.postscriptName)")
        #expect(chosen.out == "DejaVu Sans Mono\tDejaVuSansMono\n", "\(chosen.out) \(chosen.err)")
        // The private fontconfig: which DejaVu families a machine has (fonts-dejavu-extra adds
        // Condensed and Light) must not change the numbered list.
        let typed = try run(fontshellBinary, ["-e", "print(registry.pick('dejavu sans'))"], input: "2\n", environment: fc.environment)
        #expect(
            typed.out.contains("1   DejaVu Sans  (Book") && typed.out.contains("2   DejaVu Sans Mono")
                && typed.out.hasSuffix("<Face DejaVuSansMono: 18 tables, 3377 glyphs>\n"), "\(typed.out) \(typed.err)")
        let none = try run(fontshellBinary, ["-e", "print(registry.pick('dejavu'))"], input: "\n", environment: fc.environment)
        #expect(none.out.hasSuffix("nil\n"), "\(none.out)")
        let nothing = try fc.fontshell("-e", "print(registry.pick('zzzzqqq'))")
        #expect(nothing.out == "no installed family matches 'zzzzqqq'\nnil\n", "\(nothing.out)")
        let bad = try fc.fontshell("-e", "registry.pick('dejavu', {choose = 99})")
        #expect(bad.status != 0 && bad.err.contains("choose = 99"), "\(bad.err)")
    }

    @Test func registerFindAndUnregisterAtUserScope() throws {
        let realBefore = FileManager.default.fileExists(atPath: realUserFonts)
        let fc = try PrivateFontconfig()
        let caps = try fc.capsCopy()
        let r = try fc.fontshell("registry", "register", caps, "--json")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("\"postScriptName\": \"DejaVuSansCaps\""))
        #expect(fc.folderContents() == ["DejaVuSansCaps.ttf"])
        #expect(try fc.fcList().contains("DejaVuSansCaps"))   // a fresh fc-list sees it
        #expect(try fc.fontshell("registry", "find", "DejaVuSansCaps").status == 0)
        #expect(try fc.fontshell("registry", "find", "DejaVu Sans Caps").status == 0)   // by full name
        let original = try fc.fontshell("registry", "find", "DejaVuSans")
        #expect(original.status == 0 && original.out.contains(fc.folder.file("system/DejaVuSans.ttf")), "\(original.out)")
        #expect(try fc.fontshell("registry", "find", "DejaVuSansCap").status == 1)   // exact names only, no substitute
        let gone = try fc.fontshell("registry", "unregister", "DejaVuSansCaps")
        #expect(gone.status == 0, "\(gone.err)")
        #expect(!(try fc.fcList().contains("DejaVuSansCaps")))
        #expect(fc.folderContents().isEmpty)
        #expect(FileManager.default.fileExists(atPath: realUserFonts) == realBefore)   // the real user's fonts untouched
    }

    @Test func refusalsChangeNothing() throws {
        let fc = try PrivateFontconfig()
        let caps = try fc.capsCopy()
        #expect(try fc.fontshell("registry", "register", caps).status == 0)
        let before = (fc.folderContents(), fc.manifest())
        let broken = try fc.folder.write("broken.ttf", "not a font at all, just text")
        let cases: [([String], String)] = [
            (["registry", "register", caps], "already registered"),   // same file twice
            (["registry", "register", dejavuPath], "PostScript name DejaVuSans is already installed"),   // duplicate name
            (["registry", "register", broken], "refusing"),   // malformed font
            (["registry", "register", try fc.brokenChecksumCopy()], "head-magic"),   // opens, fails validation
            (["registry", "unregister", "DejaVuSans"], "was not registered by FontShell"),   // a system font
            (["registry", "register", caps, "--scope", "global"], "unknown scope 'global'"),
            (["registry", "register", caps, "--scope", "session"], "not available on this platform"),
        ]
        for (args, message) in cases {
            let r = try run(fontshellBinary, args, environment: fc.environment)
            #expect(r.status != 0, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
            #expect(fc.folderContents() == before.0 && fc.manifest() == before.1, "\(args) changed the registry")
        }
        // A second copy of the same font under the same name is refused too, unless replace.
        let copy = try fc.folder.write("again.ttf", "")
        try FileManager.default.removeItem(atPath: copy)
        let edited = try fc.fontshell("edit", caps, "-o", copy, "--set", "head.fontRevision=3")
        #expect(edited.status == 0)
        let dup = try fc.fontshell("registry", "register", copy)
        #expect(dup.status != 0 && dup.err.contains("replace"))
        let replaced = try fc.fontshell("registry", "register", copy, "--replace")
        #expect(replaced.status == 0, "\(replaced.err)")
        #expect(fc.folderContents() == ["again.ttf"])
    }

    @Test func luaModuleMissingSystemProcessScopeAndChanges() throws {
        let fc = try PrivateFontconfig()
        let caps = try fc.capsCopy()
        let script = try fc.folder.write(
            "registry.lua",
            """
            local missing = registry.missing{"DejaVuSans", "NoSuchFont-Regular"}
            print(#missing, missing[1].name, missing[1].fallback.postscriptName)
            print(registry.system{design = "default"}.family, registry.system{design = "serif"} ~= nil,
                  registry.system{design = "monospaced"}.family)
            -- process scope: an edited Font object, visible to this process only
            local f = fontshell.open(arg[1])
            f.faces[1]:rename{family = "Process Only"}
            local added = registry.register(f, {scope = "process"})
            print(added[1].postscriptName, added[1].scope, registry.find("ProcessOnly") ~= nil)
            print(registry.changed())
            -- fontconfig compares folder times in whole seconds: a change within the same second is seen later
            os.execute(("sleep 1.1; fontshell registry register %q > /dev/null"):format(arg[2]))
            print(registry.changed(), registry.find("DejaVuSansCaps") ~= nil)
            local ok, err = pcall(registry.system, {design = "cursive"})
            print(ok, err)
            """)
        var env = fc.environment
        env["PATH"] = (fontshellBinary as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        let r = try run(fontshellBinary, ["run", script, dejavuPath, caps], environment: env)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(r.out)")
        guard lines.count == 6 else { return }
        #expect(lines[0].hasPrefix("1\tNoSuchFont-Regular\t"))
        #expect(lines[1] == "DejaVu Sans\ttrue\tDejaVu Sans Mono")
        #expect(lines[2] == "ProcessOnly\tprocess\ttrue")
        #expect(lines[3] == "false")
        #expect(lines[4] == "true\ttrue")
        #expect(lines[5].contains("unknown design 'cursive'"))
        #expect(!(try fc.fcList().contains("ProcessOnly")))   // process scope stays in that process
    }
}
