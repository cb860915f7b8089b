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
    static func damagedFont(_ folder: String, lookup index: Int = 39) throws -> (path: String, subtable: Int, gsub: [UInt8]) {
        let font = try Font(path: dejavu)
        var gsub = try #require(try font.faces[0].rawTable("GSUB"))
        func u16(_ at: Int) -> Int { Int(gsub[at]) << 8 | Int(gsub[at + 1]) }
        let lookupList = u16(8)
        let lookup = lookupList + u16(lookupList + 2 + 2 * index)
        let subtable = lookup + u16(lookup + 6)
        gsub[subtable] = 0; gsub[subtable + 1] = 9
        font.faces[0].setRawTable("GSUB", gsub)
        let path = folder + "/damaged-\(index).ttf"
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
        #expect(xml.contains("<!-- not decoded, so kept as bytes: unknown format 9 (offset "))
        #expect(!xml.contains("raw=\"True\""))

        // An edit to another lookup fuses and saves; the damaged bytes go along unchanged.
        let line = "<Substitution in=\"exclamdown\" out=\"exclamdown.case\"/>"
        #expect(xml.contains(line))
        let edited = try Font(path: path)
        try TTX.fuse(
            xml.replacingOccurrences(of: line, with: "<Substitution in=\"exclamdown\" out=\"questiondown.case\"/>"), into: edited.faces[0])
        let saved = folder + "/edited.ttf"
        try edited.save(to: saved)
        let reread = try Font(path: saved).faces[0]
        let again = try TTX.dump(reread, tags: ["GSUB"])
        #expect(again.contains("<Substitution in=\"exclamdown\" out=\"questiondown.case\"/>") && !again.contains(line))
        let newGSUB = try #require(try reread.rawTable("GSUB"))
        let kept = Array(gsub[subtable...])
        let found =
            newGSUB.count >= kept.count
            && (0...(newGSUB.count - kept.count)).contains { start in newGSUB[start..<start + kept.count].elementsEqual(kept) }
        #expect(found, "the damaged subtable's bytes are in the saved table")
        // An edit to a feature whose lookup is damaged is refused, naming it ('salt' uses lookup
        // 29 in DejaVu Sans); editing another feature works.
        let salt = try Font(path: try Self.damagedFont(folder, lookup: 29).path).faces[0]
        let a = try #require(try salt.glyphID(named: "a")), alpha = try #require(try salt.glyphID(named: "alpha"))
        do {
            _ = try salt.addSubstitution(feature: "salt", input: [a], output: alpha)
            Issue.record("an edit through the damaged lookup was accepted")
        } catch let e as FontError {
            #expect(e.message.contains("GSUB.LookupList.Lookup[29] has a subtable kept as bytes: unknown format 9"), "\(e.message)")
        }
        _ = try salt.addSubstitution(feature: "case", input: [a], output: alpha)
        // diff compares the rest member by member (the kept bytes as bytes: unchanged here).
        let changes = try FontDiff.compare(face, reread).map(\.description)
        #expect(
            changes.contains { $0.contains("exclamdown") && $0.contains("questiondown.case") }
                && !changes.contains { $0.contains("not decoded") }, "\(changes)")
        // Verbs that do not need the damaged lookup work; validate names the damage.
        #expect(try reread.layoutFeatures().count == 195)
        #expect(
            try reread.substitutions(feature: "case").contains {
                $0.substitution.output == [try #require(try reread.glyphID(named: "questiondown.case"))]
            })
        let findings = Validator.validate(try Font(path: saved)).filter { $0.check == "layout-structure" }
        #expect(findings.contains { $0.message.contains("GSUB.LookupList.Lookup[39].SubTable[0]: unknown format 9") }, "\(findings)")

        // Our own dump fuses back to the same table (the reason's file offset aside: the table moved).
        let same = try Font(path: saved)
        try TTX.fuse(again, into: same.faces[0])
        func withoutReasons(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { !$0.contains("not decoded, so kept as bytes") }
        }
        let sameDump = withoutReasons(try TTX.dump(same.faces[0], tags: ["GSUB"])) == withoutReasons(again)
        #expect(sameDump, "our dump fuses back to the same table")
    }

    /// A FeatureParams on a feature whose parameters are not described ('liga' here: a
    /// foundry's private data) is kept as bytes when the table is read: the features, the dump,
    /// fusing and validate all work, and only what needs the whole table says what is damaged.
    @Test func privateFeatureParamsStayBytes() throws {
        let folder = NSTemporaryDirectory() + "fontshell-params-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let font = try Font(path: Self.dejavu)
        var gsub = try #require(try font.faces[0].rawTable("GSUB"))
        func u16(_ at: Int) -> Int { Int(gsub[at]) << 8 | Int(gsub[at + 1]) }
        let featureList = u16(6)
        let liga = try #require(
            (0..<u16(featureList)).first { k in
                let at = featureList + 2 + 6 * k
                return String(decoding: gsub[at..<at + 4], as: UTF8.self) == "liga"
            })
        let feature = featureList + u16(featureList + 2 + 6 * liga + 4)
        let params = gsub.count - feature
        gsub[feature] = UInt8(params >> 8); gsub[feature + 1] = UInt8(params & 0xFF)
        gsub += [0x00, 0x2A, 0x01, 0x02]   // the private parameters
        font.faces[0].setRawTable("GSUB", gsub)
        let path = folder + "/params.ttf"
        try font.save(to: path, options: SaveOptions(force: true))

        let face = try Font(path: path).faces[0]
        #expect(try face.layoutFeatures().count == 195)
        let table = try #require(try face.structuredTable("GSUB"))
        #expect(table.damage.map(\.path) == ["FeatureList.FeatureRecord[\(liga)].Feature.FeatureParams"])
        #expect(table.damage.first?.part.offset != nil)
        #expect(throws: FontError.self) { _ = try table.root }   // what needs all of it names the damage
        let xml = try TTX.dump(face, tags: ["GSUB"])
        #expect(
            xml.contains("<FeatureParams>\n") && xml.contains("kept as bytes: no layout is described for FeatureTag 'liga'"),
            "\(xml.prefix(0))")
        #expect(xml.contains("002a0102"))
        let fused = try Font(path: path)
        try TTX.fuse(xml, into: fused.faces[0])
        // Kept bytes are written last, so they read back as themselves.
        #expect(try fused.faces[0].rawTable("GSUB")?.suffix(4).elementsEqual([0x00, 0x2A, 0x01, 0x02]) == true)
        let saved = folder + "/fused.ttf"
        try fused.save(to: saved)
        let again = try Font(path: saved).faces[0]
        func withoutReasons(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { !$0.contains("not decoded, so kept as bytes") }
        }
        let sameDump = withoutReasons(try TTX.dump(again, tags: ["GSUB"])) == withoutReasons(xml)
        #expect(sameDump, "the dump of the saved font is the one fused")
        let findings = Validator.validate(try Font(path: saved)).filter { $0.check == "layout-structure" }
        #expect(
            findings.contains {
                $0.message.contains(
                    "GSUB.FeatureList.FeatureRecord[\(liga)].Feature.FeatureParams: no layout is described for FeatureTag 'liga'")
            }, "\(findings)")

        // A ligature added from the model saves, the private parameters going along unchanged.
        let edited = try Font(path: path)
        let f = try #require(try edited.faces[0].glyphID(named: "f")), t = try #require(try edited.faces[0].glyphID(named: "t"))
        let ligature = try #require(try edited.faces[0].glyphID(named: "uniFB05"))
        _ = try edited.faces[0].addSubstitution(feature: "liga", input: [f, t], output: ligature)
        try edited.save(to: folder + "/ligature.ttf")
        let withLigature = try Font(path: folder + "/ligature.ttf").faces[0]
        #expect(try withLigature.rawTable("GSUB")?.suffix(4).elementsEqual([0x00, 0x2A, 0x01, 0x02]) == true)
        #expect(
            try withLigature.substitutions(feature: "liga").contains {
                $0.substitution.input == [f, t] && $0.substitution.output == [ligature]
            })
    }

    /// An offset past the table's end (a lookup's subtable, read lazily; the GSUB FeatureList,
    /// read with the table) is kept as an empty part in its place: the rest of the table dumps
    /// typed and shapes on, validate names the offset, and what needs the part says so.
    @Test func offsetsPastTheEndAreKeptInPlace() throws {
        let folder = NSTemporaryDirectory() + "fontshell-partial-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let font = try Font(path: Self.dejavu)
        var gsub = try #require(try font.faces[0].rawTable("GSUB"))
        func u16(_ at: Int) -> Int { Int(gsub[at]) << 8 | Int(gsub[at + 1]) }
        func set16(_ at: Int, _ v: Int) { gsub[at] = UInt8(v >> 8); gsub[at + 1] = UInt8(v & 0xFF) }
        let lookupList = u16(8)
        let lookup = lookupList + u16(lookupList + 2 + 2 * 39)
        set16(lookup + 6, 0xFFF0)   // lookup 39's first subtable: past the end (the table is smaller)
        #expect(lookup + 0xFFF0 >= gsub.count)
        font.faces[0].setRawTable("GSUB", gsub)
        let path = folder + "/past-end.ttf"
        try font.save(to: path, options: SaveOptions(force: true))
        let face = try Font(path: path).faces[0]
        let xml = try TTX.dump(face, tags: ["GSUB"])
        #expect(xml.contains("<!-- not decoded, so kept as bytes: offset 65520 points past the end of the table"), "\(xml.prefix(300))")
        #expect(xml.components(separatedBy: "<Lookup index=").count - 1 == 40 && !xml.contains("raw=\"True\""))
        #expect(try face.layoutFeatures().contains { $0.feature == "liga" })
        let findings = Validator.validate(try Font(path: path)).filter { $0.check == "layout-structure" || $0.check == "table-decodable" }
        #expect(findings.contains { $0.message.contains("Lookup[39]") && $0.message.contains("points past the end") }, "\(findings)")

        // The FeatureList offset itself, read with the table: the scripts and lookups still read.
        var gsub2 = try #require(try Font(path: Self.dejavu).faces[0].rawTable("GSUB"))
        gsub2[6] = 0xFF; gsub2[7] = 0xF0
        let face2 = try Font(path: Self.dejavu).faces[0]
        face2.setRawTable("GSUB", gsub2)
        let table = try #require(try face2.structuredTable("GSUB"))
        #expect(table.damage.map(\.path) == ["FeatureList"], "\(table.damage.map(\.path))")
        let xml2 = try TTX.dump(face2, tags: ["GSUB"])
        #expect(xml2.contains("<ScriptList>") && xml2.contains("<LookupList>") && xml2.contains("points past the end"))
        do { _ = try face2.layoutFeatures(); Issue.record("features read without a feature list") } catch {
            #expect("\(error)".contains("FeatureList"), "\(error)")
        }
    }
}
