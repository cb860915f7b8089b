import Foundation
import Testing
@testable import FontModel

/// How a font file is read: small tables copied with pread, the file mapped only when a large
/// table or the whole file is needed; a file that shrinks while open reads as zeros and is
/// reported, never crashes. Serialized: opening 400 fonts at once uses up the descriptors, and a
/// font opened meanwhile is mapped at open, so the shrinking-file test could not see the shrink
/// (it failed so once under AddressSanitizer, where the two overlap longer).
@Suite(.serialized) struct FontBytesTests {
    @Test func namesAndMetricsAreReadWithoutMappingTheFile() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        #expect(try face.postScriptName == "DejaVuSans")
        #expect(try face.required(HeadTable.self).unitsPerEm == 2048)
        #expect(!font.bytes.isMapped)
        // glyf is larger than a piece: reading an outline maps the file.
        #expect(try face.required(GlyfTable.self).glyph(36).bounds != nil)
        #expect(font.bytes.isMapped)
        // What was copied and what is mapped are the same bytes.
        let name = try #require(face.slots["name"]?.source)
        #expect(Array(font.bytes.bytes(name)) == Array(font.bytes.buffer[name]))
    }

    @Test func aTableReadAfterTheFileShrankIsZerosAndTheFileIsReported() throws {
        let tmp = try TemporaryFolder()
        let path = tmp.file("shrinking.ttf")
        try FileManager.default.copyItem(atPath: Corpus.dejavu, toPath: path)
        let font = try Font(path: path)
        let face = font.faces[0]
        let name = try #require(face.slots["name"]?.source)
        #expect(truncate(path, off_t(name.lowerBound)) == 0)
        _ = try? face.postScriptName
        #expect(font.bytes.wasTruncated)
        #expect(Array(font.bytes.bytes(name)).allSatisfy { $0 == 0 })
        #expect(throws: FontError.self) { try font.bytes.checkIntact() }
        #expect(TruncationGuard.truncatedFiles().contains(path))
    }

    @Test func manyFontsOpenAtOnceDoNotRunOutOfDescriptors() throws {
        // Past the open-file limit a font is mapped at open and its descriptor closed.
        let fonts = try (0..<400).map { _ in try Font(path: Corpus.dejavu) }
        #expect(try fonts.allSatisfy { try $0.faces[0].postScriptName == "DejaVuSans" })
        #expect(fonts.last!.bytes.isMapped)
    }
}
