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
}
