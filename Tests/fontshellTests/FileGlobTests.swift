import Foundation
import Testing
@testable import fontshell

/// The file list of a batch (`batchFiles`): patterns expanded, regular files kept, sorted by
/// bytes, each path once however many patterns name it.
@Suite struct FileGlobTests {
    @Test func pathsAreSortedByBytesAndNamedOnce() throws {
        let tmp = try TemporaryFolder()
        let fm = FileManager.default
        for folder in ["f/a", "f/a-c", "f/B"] { try fm.createDirectory(atPath: tmp.file(folder), withIntermediateDirectories: true) }
        for file in ["f/a/x.ttf", "f/a-c/y.ttf", "f/B/z.otf", "f/a/w.TTF", "f/a/.hidden.ttf"] { _ = try tmp.write(file, "not read") }
        try fm.createSymbolicLink(atPath: tmp.file("f/a/link.ttf"), withDestinationPath: tmp.file("f/B/z.otf"))
        try fm.createSymbolicLink(atPath: tmp.file("f/a/dir.ttf"), withDestinationPath: tmp.file("f/B"))

        let patterns = [tmp.file("f/**/*.{ttf,otf}"), tmp.file("f/a/{x,x}.ttf"), tmp.file("f/B/z.otf"), tmp.file("f/none/*.ttf")]
        let (paths, sizes, unmatched) = try batchFiles(patterns, shard: nil, label: "test")
        let relative = paths.map { String($0.dropFirst(tmp.path.count + 1)) }
        // Byte order: "B" (0x42) before "a", "a-c" ('-' 0x2D) before "a/" ('/' 0x2F); the link
        // to a file is a font, the link to a folder and the hidden file are not; `w.TTF` has
        // another extension as far as the pattern goes.
        #expect(relative == ["f/B/z.otf", "f/a-c/y.ttf", "f/a/link.ttf", "f/a/x.ttf"])
        #expect(sizes == [8, 8, 8, 8])
        // A pattern whose files another pattern named first still matched.
        #expect(unmatched == [tmp.file("f/none/*.ttf")])

        let second = try batchFiles(patterns, shard: "2/2", label: "test")
        #expect(second.paths == Array(paths[2...]) && second.sizes == [8, 8] && second.unmatched.isEmpty)
    }
}
