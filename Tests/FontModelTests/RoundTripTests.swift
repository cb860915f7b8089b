import Foundation
import Testing
@testable import FontModel

@Suite struct RoundTripTests {
    @Test(arguments: Corpus.fonts.map(\.id))
    func unEditedSaveReproducesEveryTable(id: String) throws {
        let original = try Font(path: Corpus.path(id))
        let (bytes, report) = try original.serialized()
        #expect(report.reencodedTables.isEmpty)
        let reread = try Font(data: bytes, name: "saved \(id)")
        #expect(reread.faces.count == original.faces.count)
        for (a, b) in zip(original.faces, reread.faces) {
            #expect(a.tags == b.tags)
            for tag in a.tags {
                #expect(try a.rawTable(tag) == b.rawTable(tag), "\(id) face \(a.index) table \(tag) changed")
            }
        }
        // Every table 4-byte aligned (reopening already refused tables inside the directories).
        for face in reread.faces {
            for tag in face.tags { #expect((face.slots[tag]?.source?.lowerBound ?? 0) % 4 == 0, "\(tag) misaligned") }
        }
    }

    @Test func collectionFacesKeepSharingTables() throws {
        let font = try Font(path: Corpus.noto)
        let (_, report) = try font.serialized()
        #expect(report.tableRecords == 160)
        #expect(report.distinctTables == 57)   // as in the input: BASE, CFF, hmtx... stored once
    }

    @Test func infoDecodesNoGlyphData() throws {
        let font = try Font(path: Corpus.noto)
        let text = try font.summary()
        #expect(text.contains("NotoSansCJKjp-Regular"))
        #expect(text.contains("shared with faces"))
        for face in font.faces {
            let decoded = Set(face.decodedTags)
            #expect(decoded.isDisjoint(with: ["CFF ", "glyf", "loca", "hmtx", "vmtx", "cmap", "GSUB", "GPOS"]), "face \(face.index) decoded \(decoded)")
        }
    }
}
