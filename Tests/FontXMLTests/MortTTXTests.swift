import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// AAT mort (morx's predecessor) on two fonts Tests/Oracles/make_test_fonts.py builds: every
/// subtable type as fontTools compiles it (written back byte for byte), and a table packed as
/// older compilers did, read as fontTools 4.68 reads it. Parity with ttx on both: TTXParityTests.
@Suite struct MortTTXTests {
    typealias Kind = MorxTable.Kind

    static func names(_ face: Face) throws -> [String] { try face.glyphNames() }

    @Test func everySubtableTypeIsWrittenBackAsFontToolsCompiledIt() throws {
        let (font, path) = try madeTestFont("mort", "mort.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let mort = try #require(try face.table(MortTable.self))
        #expect(mort.chains.map { $0.subtables.map(\.kind) } == [[.rearrangement, .contextual, .ligature], [.noncontextual, .insertion]])
        #expect(try mort.encode() == face.rawTable("mort"))
        // Through TTX too: our dump fused back decodes to the same table.
        let xml = try TTX.dump(face, tags: ["mort"])
        #expect(xml.contains("<CoverageFlags value=\"192\"/>") && xml.contains("<MortLigatureRebase>"), "\(xml.prefix(600))")
        let copy = try Font(path: path)
        try TTX.fuse(xml, into: copy.faces[0])
        #expect(try copy.faces[0].table(MortTable.self) == mort)
    }

    @Test func packedTablesReadAsFontToolsReadsThem() throws {
        let (font, path) = try madeTestFont("mort-packed", "mort-packed.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let names = try Self.names(face)
        func named(_ pairs: [(glyph: UInt16, value: UInt16)]) -> [String] {
            pairs.map { "\(names[Int($0.glyph)])→\(names[Int($0.value)])" }
        }
        let mort = try #require(try face.table(MortTable.self))
        let contextual = try #require(mort.chains[0].subtables[0].machine)
        // Windows by offset (-1, 28, 29): the one below the glyphs holds nothing, the one that
        // starts inside the entry table loses its first glyphs, the last ends with the subtable.
        #expect(contextual.perGlyphLookups.map(named) == [[], ["a→b", "b→a"], ["A→b", "B→a"]])
        let last = contextual.states[1][4]
        #expect(last.markIndex == 1 && last.currentIndex == 2 && contextual.states[1][3].currentIndex == 0)
        let ligature = try #require(mort.chains[0].subtables[1].machine)
        #expect(ligature.components == [0, 1, 0, 1] && ligature.ligatureRebase == [2, 3])
        #expect(ligature.ligatures.map { names[Int($0)] } == ["B", "b"], "the estimate (3) is cut at the subtable's end")
        #expect(ligature.states[1][5].ligatureActions == [.init(delta: -1, store: false), .init(delta: 1, store: false)])

        // Written as fontTools compiles what it read.
        let (status, output) = try shell([
            "python3", "-c", "from fontTools.ttLib import TTFont; f = TTFont('\(path)'); print(f['mort'].compile(f).hex())",
        ])
        #expect(status == 0)
        let ours = try mort.encode().map { paddedHex(UInt32($0), 2) }.joined()
        #expect(ours == output.trimmingWhitespace())
    }

    @Test func editsReadBackInFontToolsLuaAndDiff() throws {
        let (original, path) = try madeTestFont("mort-packed", "mort-edit.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let xml = try TTX.dump(original.faces[0], tags: ["mort"])
        let edited = xml.replacingOccurrences(of: "<Ligature glyph=\"b\" index=\"1\"/>", with: "<Ligature glyph=\"A\" index=\"1\"/>")
        let font = try Font(path: path)
        try TTX.fuse(edited, into: font.faces[0])
        let changes = try FontDiff.compare(original.faces[0], font.faces[0]).map(\.description)
        #expect(changes.contains("~ mort.chain 0 subtable 1 ligature 1: b → A"), "\(changes)")
        #expect(changes.filter { $0.hasPrefix("~ mort") || $0.hasPrefix("+ mort") || $0.hasPrefix("- mort") }.count == 1, "\(changes)")
        let out = path + ".edited.ttf"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try font.save(to: out)
        let (status, output) = try shell([
            "python3", "-c",
            """
            from fontTools.ttLib import TTFont
            t = TTFont('\(out)')['mort'].table.MorphChain[0].MorphSubtable[1].SubStruct.StateTable
            print(t.Ligatures, sorted(t._MortLigatureRebase), t.LigComponents)
            """,
        ])
        #expect(status == 0 && output.hasPrefix("['B', 'A'] [2, 3] [0, 1, 0, 1]"), "\(output)")
    }

    @Test func badXMLIsAnError() throws {
        let (font, path) = try madeTestFont("mort", "mort-bad.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = font.faces[0]
        let xml = try TTX.dump(face, tags: ["mort"])
        func expectError(_ edited: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectFuseError(edited, original: xml, expected, into: face, sourceLocation: sourceLocation)
        }
        expectError(
            xml.replacingOccurrences(of: "<CoverageFlags value=\"192\"/>", with: "<TextDirection value=\"Vertical\"/>"),
            "<TextDirection> in <MorphSubtable>: expected CoverageFlags, SubFeatureFlags or a …Morph")
        expectError(
            xml.replacingOccurrences(of: "<CoverageFlags value=\"192\"/>", with: "<CoverageFlags value=\"256\"/>"), "256")
        // A mort ligature entry keeps its action offset where morx has reserved flags.
        expectError(
            xml.replacingOccurrences(
                of: "<Flags value=\"SetComponent,DontAdvance\"/>",
                with: "<Flags value=\"SetComponent,DontAdvance\"/><ReservedFlags value=\"0x0100\"/>"),
            "mort: mort chain 0 subtable 2: a ligature entry with reserved flags")
        expectError(
            xml.replacingOccurrences(of: "<MortLigatureRebase>", with: "<MortLigatureRebase><Bogus/>"),
            "<Bogus> in <MortLigatureRebase>: expected <Component index=/>")
    }

    /// Damage is an error naming the subtable and what is wrong; nothing runs unbounded.
    @Test func damagedBinaryIsAnError() throws {
        let (font, path) = try madeTestFont("mort-packed", "mort-damaged.ttf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try #require(try font.faces[0].rawTable("mort"))
        func expectDecodeError(_ damaged: [UInt8], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard let copy = (try? Font(path: path))?.faces[0] else {
                Issue.record("cannot open the font", sourceLocation: sourceLocation)
                return
            }
            copy.setRawTable("mort", damaged)
            do {
                _ = try copy.table(MortTable.self)
                Issue.record("damaged mort decoded", sourceLocation: sourceLocation)
            } catch let error as FontError {
                #expect(error.message.contains(expected), "\(error.message)", sourceLocation: sourceLocation)
            } catch { Issue.record("\(error)", sourceLocation: sourceLocation) }
        }
        func set16(_ b: inout [UInt8], _ at: Int, _ v: Int) { b[at] = UInt8(v >> 8 & 0xFF); b[at + 1] = UInt8(v & 0xFF) }
        // Table header 8, chain header 12, one feature of 12: the contextual subtable at 32, its
        // state table at 40 (entries at 40 + 28); the ligature subtable at 32 + 74, state table at 114.
        var type3 = bytes
        type3[32 + 3] = 3
        expectDecodeError(type3, "mort chain 0 subtable 0: type 3 is not a mort subtable type")
        var noClasses = bytes
        set16(&noClasses, 40, 0)
        expectDecodeError(noClasses, "mort chain 0 subtable 0: the state table has no glyph classes")
        var newState = bytes
        set16(&newState, 40 + 28, 19)
        expectDecodeError(newState, "entry 0 goes to byte 19, which starts no state")
        var classRun = bytes
        set16(&classRun, 40 + 10, 0xFFFF)
        expectDecodeError(classRun, "runs past glyph 65535")
        var oddComponent = bytes
        set16(&oddComponent, 114 + 56, 3)
        expectDecodeError(oddComponent, "ligature component 3 is not a word offset")
        // The last action's last bit cleared: the actions run into the components and past the end.
        var endless = bytes
        endless[114 + 52] &= 0x7F
        expectDecodeError(endless, "ligature action")
        var order = bytes
        set16(&order, 114 + 10, 70)
        expectDecodeError(order, "out of order")
    }
}
