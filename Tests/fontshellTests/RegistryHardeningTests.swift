import Foundation
import Testing

/// The registry under attack: an edited manifest, a replaced file, concurrent registrations.
@Suite struct RegistryHardeningTests {
    /// A renamed DejaVu Sans copy (distinct PostScript name) in the private folder.
    func renamedCopy(_ fc: PrivateFontconfig, _ family: String) throws -> String {
        let out = fc.folder.file(family.replacingOccurrences(of: " ", with: "") + ".ttf")
        let r = try fc.fontshell("edit", dejavuPath, "-o", out, "--rename", family)
        guard r.status == 0 else { throw NSError(domain: r.err, code: 1) }
        return out
    }

    var manifestPath: (PrivateFontconfig) -> String { { $0.folder.file("data") + "/fontshell/registered.json" } }

    @Test func unregisterNeverDeletesOutsideItsFolderOrAReplacedFile() throws {
        let fc = try PrivateFontconfig()
        let font = try renamedCopy(fc, "Victim Test")
        #expect(try fc.fontshell("registry", "register", font, "--scope", "user").status == 0)
        // The manifest edited to point at a file outside FontShell's folder.
        let victim = try fc.folder.write("victim.txt", "precious")
        let original = fc.manifest()
        let installed = try #require(fc.folderContents().first)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        var entries = try #require(json["fonts"] as? [[String: Any]])
        #expect(entries[0]["path"] as? String == fc.fontsFolder + "/" + installed)
        entries[0]["path"] = victim
        json["fonts"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifestPath(fc)))
        let r = try fc.fontshell("registry", "unregister", "VictimTest")
        #expect(r.status != 0 && r.err.contains("outside"), "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: victim))
        // The registered file replaced by another font: not deleted either.
        try original.write(toFile: manifestPath(fc), atomically: true, encoding: .utf8)
        let target = fc.fontsFolder + "/" + installed
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: try renamedCopy(fc, "Other Test"), toPath: target)
        let replaced = try fc.fontshell("registry", "unregister", "VictimTest")
        #expect(replaced.status != 0 && replaced.err.contains("replaced"), "\(replaced.err)")
        #expect(FileManager.default.fileExists(atPath: target))
    }

    /// A record with a key missing (or not JSON at all) is named in a sentence, and repair
    /// keeps it aside and rebuilds the record from the folder.
    @Test func aDamagedManifestIsExplainedAndRepaired() throws {
        let fc = try PrivateFontconfig()
        let font = try renamedCopy(fc, "Damaged Test")
        #expect(try fc.fontshell("registry", "register", font, "--scope", "user").status == 0)
        let original = fc.manifest()
        var json = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        var entries = try #require(json["fonts"] as? [[String: Any]])
        entries[0].removeValue(forKey: "checksum")
        json["fonts"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifestPath(fc)))
        let r = try fc.fontshell("registry", "unregister", "DamagedTest")
        #expect(r.status != 0 && r.err.contains("fonts[0].checksum is missing") && !r.err.contains("DecodingError"), "\(r.err)")
        try "{ not json".write(toFile: manifestPath(fc), atomically: true, encoding: .utf8)
        let garbage = try fc.fontshell("registry", "unregister", "DamagedTest")
        #expect(garbage.status != 0 && garbage.err.contains("not valid JSON"), "\(garbage.err)")
        let repair = try fc.fontshell("registry", "repair")
        #expect(repair.status == 0 && repair.out.contains("kept as") && repair.out.contains("adopted"), "\(repair.out) \(repair.err)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: fc.folder.file("data") + "/fontshell").filter {
            $0.contains("damaged")
        }
        #expect(kept.count == 1)
        #expect(try fc.fontshell("registry", "unregister", "DamagedTest").status == 0)
    }

    @Test func concurrentRegistrationsKeepEveryEntry() throws {
        let fc = try PrivateFontconfig()
        let fonts = try (0..<8).map { try renamedCopy(fc, "Parallel Test \($0)") }
        let processes = try fonts.map { font -> (Process, Pipe) in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: fontshellBinary)
            p.arguments = ["registry", "register", font, "--scope", "user"]
            p.environment = ProcessInfo.processInfo.environment.merging(fc.environment) { $1 }
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            return (p, err)
        }
        for (p, err) in processes {
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(message)")
        }
        let manifest = fc.manifest()
        for i in 0..<8 { #expect(manifest.contains("ParallelTest\(i)"), "entry \(i) lost") }
        #expect(fc.folderContents().count == 8)
    }

    /// Fonts in FontShell's folder that its record lacks (left by a registration killed between
    /// copy and record, or copied by hand) and records whose file is gone: the next registration
    /// of the same bytes adopts the copy, a clash points at `registry repair`, and repair adopts,
    /// forgets and leaves alone (never deletes) so every orphan can be unregistered again.
    @Test func orphansAreAdoptedAndStaleRecordsForgotten() throws {
        let fc = try PrivateFontconfig()
        let stale = try renamedCopy(fc, "Stale Test")
        #expect(try fc.fontshell("registry", "register", stale, "--scope", "user").status == 0)
        let staleCopy = try #require(fc.folderContents().first)
        try FileManager.default.removeItem(atPath: fc.fontsFolder + "/" + staleCopy)
        // Two orphans copied in behind the record's back, and a truncated one.
        let same = try renamedCopy(fc, "Same Bytes Test"), clash = try renamedCopy(fc, "Clash Test")
        for font in [same, clash] {
            try FileManager.default.copyItem(atPath: font, toPath: fc.fontsFolder + "/orphan-" + (font as NSString).lastPathComponent)
        }
        let truncated = fc.fontsFolder + "/truncated.ttf"
        try Data(try Data(contentsOf: URL(fileURLWithPath: same)).prefix(300)).write(to: URL(fileURLWithPath: truncated))

        // Registering the very bytes of an orphan adopts it instead of copying again.
        let adopt = try fc.fontshell("registry", "register", same, "--scope", "user")
        #expect(adopt.status == 0, "\(adopt.err)")
        #expect(fc.folderContents().count == 3)
        #expect(fc.manifest().contains("orphan-SameBytesTest.ttf"))
        // Another file under an orphan's name: refused, pointing at repair.
        let other = fc.folder.file("elsewhere")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let edited = other + "/Clash.ttf"
        #expect(try fc.fontshell("edit", clash, "-o", edited, "--set", "head.fontRevision=2").status == 0)
        let refused = try fc.fontshell("registry", "register", edited, "--scope", "user")
        #expect(refused.status != 0 && refused.err.contains("registry repair"), "\(refused.err)")

        let repair = try fc.fontshell("registry", "repair", "--json")
        #expect(repair.status == 0, "\(repair.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(repair.out.utf8)) as? [String: Any])
        let adopted = (report["adopted"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        let forgotten = (report["forgotten"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        let left = (report["leftAlone"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(adopted == [fc.fontsFolder + "/orphan-ClashTest.ttf"])
        #expect(forgotten == [fc.fontsFolder + "/" + staleCopy])
        #expect(left == [truncated])
        #expect(!fc.manifest().contains(staleCopy))
        // The adopted orphan is FontShell's now: listed as such, and unregister removes it.
        #expect(try fc.fontshell("registry", "find", "ClashTest").out.contains("user"))
        #expect(try fc.fontshell("registry", "unregister", "ClashTest").status == 0)
        #expect(!FileManager.default.fileExists(atPath: fc.fontsFolder + "/orphan-ClashTest.ttf"))
        #expect(FileManager.default.fileExists(atPath: truncated))   // never deleted
        let again = try fc.fontshell("registry", "repair")
        #expect(again.status == 0 && again.out.contains("truncated.ttf") && !again.out.contains("adopted"), "\(again.out)")
    }
}
