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
            #expect(
                decoded.isDisjoint(with: ["CFF ", "glyf", "loca", "hmtx", "vmtx", "cmap", "GSUB", "GPOS"]),
                "face \(face.index) decoded \(decoded)")
        }
    }
}

@Suite struct StandaloneFaceTests {
    /// The in-place layout a renderer reads is the file a save writes, byte for byte, except
    /// the checksums it leaves out (borrowed tables' directory checksums, checkSumAdjustment).
    @Test func viewReadsAsTheSavedFile() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        try face.hhea.set("ascender", .int(1700))
        let a = try #require(try face.glyphID(named: "a")), A = try #require(try face.glyphID(named: "A"))
        try face.copyOutline(from: A, to: a)
        let view = try font.standalone(face: face)
        try font.save(to: tmp.file("saved.ttf"))
        let saved = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tmp.file("saved.ttf"))))
        #expect(view.length == saved.count)
        var read = [UInt8](repeating: 0xEE, count: view.length)
        // Read in odd-sized pieces, as FreeType's stream does, across table boundaries.
        var offset = 0
        while offset < read.count {
            let n = min(997, read.count - offset)
            let got = read.withUnsafeMutableBytes { view.read(from: offset, count: n, into: $0.baseAddress! + offset) }
            #expect(got == n)
            offset += n
        }
        let tableCount = Int(saved[4]) << 8 | Int(saved[5])
        var ignored = Set<Int>()
        for i in 0..<tableCount { for k in 4..<8 { ignored.insert(12 + 16 * i + k) } }
        let headOffset = try #require(view.tables.first { $0.tag == "head" }?.offset)
        for k in 8..<12 { ignored.insert(headOffset + k) }
        let differing = (0..<saved.count).filter { !ignored.contains($0) && read[$0] != saved[$0] }
        #expect(differing.isEmpty, "\(differing.count) bytes differ, first at \(differing.first ?? -1)")
        var past = [UInt8](repeating: 0, count: 10)
        #expect(past.withUnsafeMutableBytes { view.read(from: view.length, count: 10, into: $0.baseAddress!) } == 0)
        // Only what changed was copied: unedited tables point into the mapped file.
        let gsub = try #require(view.table("GSUB"))
        let mapped = UnsafeRawBufferPointer(font.bytes.buffer)
        #expect(gsub.baseAddress.map { $0 >= mapped.baseAddress! && $0 < mapped.baseAddress! + mapped.count } == true)
    }
}
