import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// fvar and avar in diff: axes by tag, instances by index, avar's maps by axis (edits made
/// through TTX on the COLR test font, which has a wght axis, a named instance and an avar map).
@Suite struct VariationTablesDiffTests {
    @Test func fvarAndAvarChangesAreNamed() throws {
        let (font, path) = try COLRTests.font("colr")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let edited = try Font(path: path).faces[0]
        let xml = try TTX.dump(face, tags: ["fvar", "avar"])
        #expect(xml.contains("<MaxValue>900.0</MaxValue>") && xml.contains("<mapping from=\"0.5\" to=\"0.25\"/>"))
        try TTX.fuse(
            xml.replacingOccurrences(of: "<MaxValue>900.0</MaxValue>", with: "<MaxValue>1000.0</MaxValue>")
                .replacingOccurrences(of: "<coord axis=\"wght\" value=\"700.0\"/>", with: "<coord axis=\"wght\" value=\"800.0\"/>")
                .replacingOccurrences(of: "<mapping from=\"0.5\" to=\"0.25\"/>", with: "<mapping from=\"0.5\" to=\"0.4\"/>"), into: edited)
        let lines = try FontDiff.compare(face, edited).map(\.description)
        #expect(lines.contains("~ fvar.axis wght: 100.0…400.0…900.0 name 256 → 100.0…400.0…1000.0 name 256"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("~ fvar.instance 0: name ") && $0.hasSuffix(" at 800.0") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("~ avar.axis 0: ") && $0.hasSuffix("0.5→0.25 1.0→1.0 → -1.0→-1.0 0.0→0.0 0.5→0.4 1.0→1.0") },
            "\(lines)")
        #expect(!lines.contains { $0.contains("bytes") }, "\(lines)")
    }
}

extension VariationTablesDiffTests {
    static let conformance =
        ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? NSHomeDirectory() + "/.cache/fontshell/conformance"

    /// cvar by tuple: a changed delta names its tuple and control value.
    @Test func cvarChangesAreNamed() throws {
        let path = temporaryPath("PartialInstancerTest-VF.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try shell(["ttx", "-q", "-o", path, Self.conformance + "/instancer/PartialInstancerTest-VF.ttx"])
        try #require(status == 0, "\(output)")
        let face = try Font(path: path).faces[0], edited = try Font(path: path).faces[0]
        let xml = try TTX.dump(face, tags: ["cvar"])
        #expect(xml.contains("<delta cvt=\"2\" value=\"-30\"/>"))
        try TTX.fuse(
            xml.replacingOccurrences(
                of: "<delta cvt=\"2\" value=\"-30\"/>", with: "<delta cvt=\"2\" value=\"-40\"/><delta cvt=\"0\" value=\"7\"/>"),
            into: edited)
        let lines = try FontDiff.compare(face, edited).map(\.description)
        #expect(lines == ["~ cvar.tuple 0 cvt 0: 0 → 7", "~ cvar.tuple 0 cvt 2: -30 → -40"], "\(lines)")
    }
}
