import Foundation
import JSONText
import Testing
import TestSupport
@testable import FontRegistry

/// The registry's own records: the manifest of what FontShell installed (written by the
/// program's one JSON writer, read by Codable), its damage named by place, fingerprints, and
/// the records `registry` commands print as JSON.
@Suite struct ManifestTests {
    func sample() -> Manifest {
        Manifest(fonts: [
            Manifest.Entry(
                path: "/home/u/.local/share/fonts/A \"quoted\".ttf", source: "/src/a.ttf", postScriptNames: ["A-Regular", "Ä-Bold"],
                checksum: "cbf29ce484222325-10", date: "2026-11-28T00:00:00Z"),
            Manifest.Entry(path: "/p/b.otf", source: "/src/b.otf", postScriptNames: [], checksum: "1-2", date: "d"),
        ])
    }

    @Test func aSavedManifestReadsBackTheSame() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("registered.json")
        try sample().save(to: path)
        #expect(try Manifest.load(from: path).fonts == sample().fonts)
        // Written pretty with sorted keys, as a person editing it by hand would want.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"checksum\": \"cbf29ce484222325-10\""))
        #expect(text.contains("\\\"quoted\\\""))
        let keys = text.split(separator: "\n").compactMap { line in line.split(separator: "\"").dropFirst().first }.prefix(5)
        #expect(Array(keys) == ["fonts", "checksum", "date", "path", "postScriptNames"])
    }

    @Test func aDamagedManifestIsNamedByPlace() throws {
        let folder = try TemporaryFolder()
        let missing = try folder.write("missing.json", #"{"fonts": [{"path": "/a", "source": "/b", "postScriptNames": [], "date": "d"}]}"#)
        #expect(throws: RegistryError.self) { try Manifest.load(from: missing) }
        do { _ = try Manifest.load(from: missing) } catch {
            #expect("\(error)".contains("fonts[0].checksum is missing"), "\(error)")
        }
        let broken = try folder.write("broken.json", "{\"fonts\": [")
        do { _ = try Manifest.load(from: broken); Issue.record("a broken manifest was read") } catch {
            #expect("\(error)".contains("it is not valid JSON"), "\(error)")
        }
        // No manifest yet is an empty one, not an error.
        #expect(try Manifest.load(from: folder.file("none.json")).fonts.isEmpty)
    }

    @Test func fingerprintsTellFilesApart() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a", "same"), b = try folder.write("b", "same"), c = try folder.write("c", "other")
        #expect(fingerprint(a) == fingerprint(b))
        #expect(fingerprint(a) != fingerprint(c))
        #expect(fingerprint(folder.file("absent")) == nil)
    }

    /// `registry missing --json`: a name with no fallback has no `fallback` member (as Codable
    /// leaves nil out), one with a fallback has the font's record.
    @Test func missingFontsAsJSON() throws {
        let fallback = FontDescriptor(
            postScriptName: "DejaVuSans", fullName: "DejaVu Sans", family: "DejaVu Sans", style: "Book", weight: 400,
            width: 100, path: Corpus.dejavu, faceIndex: 0, scope: nil, registeredByFontShell: false)
        let text = try JSONText.write(encoding: [
            MissingFont(name: "Nope", fallback: nil), MissingFont(name: "Helvetica", fallback: fallback),
        ])
        let parsed = try #require(JSONText.parse(text) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed[0]["name"] as? String == "Nope" && parsed[0]["fallback"] == nil)
        let record = try #require(parsed[1]["fallback"] as? [String: Any])
        #expect(record["weight"] as? Int == 400 && record["scope"] == nil && record["registeredByFontShell"] as? Bool == false)
        #expect(record["path"] as? String == Corpus.dejavu)
    }
}
