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
        try TTX.fuse(xml.replacingOccurrences(of: "<MaxValue>900.0</MaxValue>", with: "<MaxValue>1000.0</MaxValue>")
                        .replacingOccurrences(of: "<coord axis=\"wght\" value=\"700.0\"/>", with: "<coord axis=\"wght\" value=\"800.0\"/>")
                        .replacingOccurrences(of: "<mapping from=\"0.5\" to=\"0.25\"/>", with: "<mapping from=\"0.5\" to=\"0.4\"/>"), into: edited)
        let lines = try FontDiff.compare(face, edited).map(\.description)
        #expect(lines.contains("~ fvar.axis wght: 100.0…400.0…900.0 name 256 → 100.0…400.0…1000.0 name 256"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("~ fvar.instance 0: name ") && $0.hasSuffix(" at 800.0") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("~ avar.axis 0: ") && $0.hasSuffix("0.5→0.25 1.0→1.0 → -1.0→-1.0 0.0→0.0 0.5→0.4 1.0→1.0") }, "\(lines)")
        #expect(!lines.contains { $0.contains("bytes") }, "\(lines)")
    }
}
