import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// A subtable that does not decode stays bytes inside its typed table: the dump types the rest
/// and writes it as hexdata with the reason, an edit elsewhere fuses and saves with the damaged
/// bytes carried over unchanged, and validate still names the damage.
@Suite struct PartialDecodingTests {
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// DejaVu Sans with its last GSUB lookup's first subtable given format 9 (there is none),
    /// and where that subtable starts in the table.
    static func damagedFont(_ folder: String) throws -> (path: String, subtable: Int, gsub: [UInt8]) {
        let font = try Font(path: dejavu)
        var gsub = try #require(try font.faces[0].rawTable("GSUB"))
        func u16(_ at: Int) -> Int { Int(gsub[at]) << 8 | Int(gsub[at + 1]) }
        let lookupList = u16(8), count = u16(lookupList)
        let lookup = lookupList + u16(lookupList + 2 * count)
        let subtable = lookup + u16(lookup + 6)
        gsub[subtable] = 0; gsub[subtable + 1] = 9
        font.faces[0].setRawTable("GSUB", gsub)
        let path = folder + "/damaged.ttf"
        try font.save(to: path, options: SaveOptions(force: true))
        return (path, subtable, gsub)
    }

    @Test func damagedSubtableStaysBytesAndTheRestIsEditable() throws {
        let folder = NSTemporaryDirectory() + "fontshell-partial-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, subtable, gsub) = try Self.damagedFont(folder)
        let face = try Font(path: path).faces[0]
        let xml = try TTX.dump(face, tags: ["GSUB"])
        // Typed, but for the one subtable: its bytes (to the table's end) and why.
        #expect(xml.contains("<LookupList>") && xml.components(separatedBy: "<Lookup index=").count - 1 == 40)
        #expect(xml.contains("<!-- not decoded, so kept as bytes: ") && xml.contains("GSUB.Lookup[39].SubTable[0]: unknown format 9 -->"))
        #expect(!xml.contains("raw=\"True\""))

        // An edit to another lookup fuses and saves; the damaged bytes go along unchanged.
        let line = "<Substitution in=\"exclamdown\" out=\"exclamdown.case\"/>"
        #expect(xml.contains(line))
        let edited = try Font(path: path)
        try TTX.fuse(xml.replacingOccurrences(of: line, with: "<Substitution in=\"exclamdown\" out=\"questiondown.case\"/>"), into: edited.faces[0])
        let saved = folder + "/edited.ttf"
        try edited.save(to: saved)
        let reread = try Font(path: saved).faces[0]
        let again = try TTX.dump(reread, tags: ["GSUB"])
        #expect(again.contains("<Substitution in=\"exclamdown\" out=\"questiondown.case\"/>") && !again.contains(line))
        let newGSUB = try #require(try reread.rawTable("GSUB"))
        let kept = Array(gsub[subtable...])
        let found = newGSUB.count >= kept.count && (0...(newGSUB.count - kept.count)).contains { start in newGSUB[start..<start + kept.count].elementsEqual(kept) }
        #expect(found, "the damaged subtable's bytes are in the saved table")
        // Verbs that do not need the damaged lookup work; validate names the damage.
        #expect(try reread.layoutFeatures().count == 195)
        #expect(try reread.substitutions(feature: "case").contains { $0.substitution.output == [try #require(try reread.glyphID(named: "questiondown.case"))] })
        let findings = Validator.validate(try Font(path: saved)).filter { $0.check == "layout-structure" }
        #expect(findings.contains { $0.message.contains("GSUB.Lookup[39].SubTable[0]: unknown format 9") }, "\(findings)")

        // Our own dump fuses back to the same table (the reason's file offset aside: the table moved).
        let same = try Font(path: saved)
        try TTX.fuse(again, into: same.faces[0])
        func withoutReasons(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.contains("not decoded, so kept as bytes") } }
        #expect(withoutReasons(try TTX.dump(same.faces[0], tags: ["GSUB"])) == withoutReasons(again))
    }
}
