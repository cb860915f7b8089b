import Testing
@testable import FontModel

/// The save encodes edited structured tables on all cores at once (`FontWriter.encodeStructuredTables`).
/// Run under ThreadSanitizer by Scripts/test: the bytes must be what each table encodes alone.
@Suite struct ParallelEncodeTests {
    @Test func editedLayoutTablesEncodeInParallelAsTheyDoAlone() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        #expect(try face.copyCapitalsOntoLowercase(layout: true) == 26)
        let edited = ["GDEF", "GSUB", "GPOS"].filter { (try? face.structuredTable(Tag(text: $0)))??.isEdited == true }
        #expect(edited.count >= 2, "the caps edit changes several layout tables: \(edited)")
        let saved = try Font(data: try font.serialized().bytes).faces[0]
        for tag in edited {
            let alone = try #require(try face.structuredTable(Tag(text: tag))).encode()
            #expect(try saved.rawTable(Tag(text: tag)) == alone, "\(tag)")
        }
    }
}
