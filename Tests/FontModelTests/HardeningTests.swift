import Foundation
import Testing
@testable import FontModel

/// Attacks from the hardening issue, each reproduced before it was fixed: writes that trapped,
/// opens that blocked, encodings that overflowed.
@Suite struct HardeningTests {
    /// A face without post names and with a broken cmap: glyph names are made once (glyphNNNNN)
    /// and cached. They were attempted again, and failed, on every lookup: the fuzzer's timeout
    /// (65,535 glyphs × 2,000 lookups).
    @Test func glyphNamesOfABrokenCmapAreMadeOnce() throws {
        let font = try Font(path: Corpus.dejavu), face = font.faces[0]
        var post = BinaryWriter()
        post.u32(0x0003_0000); for _ in 0..<7 { post.u32(0) }
        face.setRawTable("post", post.bytes)
        // One encoding record whose subtable lies far past the table's end.
        face.setRawTable("cmap", [0, 0, 0, 1, 0, 3, 0, 1, 0x01, 0x90, 0, 0x05])
        #expect(throws: FontError.self) { try face.cmap?.bestUnicodeSubtable()?.mapping() }
        #expect(try face.glyphName(5) == "glyph00005" && face.cachedGlyphNames?.count == 6253)
        #expect(try face.glyphName(0) == ".notdef")
    }

    @Test func savingAFaceWithNoTablesThrowsInsteadOfTrapping() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        for tag in font.faces[0].tags { font.faces[0].removeTable(tag) }
        #expect(throws: FontError.self) { try font.save(to: tmp.file("empty.ttf")) }
        #expect(!FileManager.default.fileExists(atPath: tmp.file("empty.ttf")))
    }

    @Test func tooManyNameRecordsThrowsNamingTheLimit() throws {
        let font = try Font(path: Corpus.dejavu)
        let name = try font.faces[0].name
        var records = name.records
        for i in 0..<6000 {
            records.append(NameRecord(platformID: 3, encodingID: 1, languageID: 0x409, nameID: 256 + i, bytes: [0, 0x41]))
        }
        name.replaceRecords(records)
        do {
            _ = try font.serialized()
            Issue.record("6000 extra name records were encoded")
        } catch let error as FontError {
            #expect(error.description.contains("name"), "\(error)")
            #expect(error.description.contains("outside what the format can store"), "\(error)")
        }
    }

    @Test func openingAFifoIsRefusedWithoutBlocking() throws {
        let tmp = try TemporaryFolder()
        let fifo = tmp.file("pipe.ttf")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Before the fix open() blocked for ever waiting for a writer.
        #expect { try Font(path: fifo) } throws: { "\($0)".contains("not a regular file") }
        #expect { try Font(path: tmp.path) } throws: { "\($0)".contains("not a regular file") }
    }

    @Test func cmapEditOfNotoCJKSavesWithACompactFormat4() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.noto)
        let face = font.faces[0]
        let cmap = try #require(try face.cmap)
        let b = try #require(try cmap.glyph(for: 0x42))
        try cmap.set(0x41, glyph: b)
        let out = tmp.file("noto-a.ttc")
        try font.save(to: out)

        // fontTools reads the edit; its own encoding of the same edit takes 46,554 bytes.
        let script = """
            import sys; from fontTools.ttLib import TTFont
            f = TTFont(sys.argv[1], fontNumber=0)
            t = f['cmap'].getcmap(3, 1)
            print(t.cmap[0x41] == t.cmap[0x42], f.reader.tables['cmap'].length)
            for st in f['cmap'].tables:
                if st.format == 4: print('format4', len(st.compile(f)))
            """
        let r = try run("python3", ["-c", script, out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("True"), "\(r.out)")
        let ours = try #require(try Font(path: out).faces[0].cmap?.records.first { $0.subtable.format == 4 }?.subtable.bytes.count)
        #expect(ours <= 46_554, "format 4 is \(ours) bytes")
        let (ok, message) = try otsAccepts(out, face: 0)
        #expect(ok, "\(message)")
    }

    @Test func format4SegmentsRoundTripEveryMapping() throws {
        // Scattered glyphs (array segments), runs (delta segments) and both mixed.
        var m: [UInt32: Int] = [:]
        for c in UInt32(0x20)...0x7E { m[c] = Int(c) - 29 }
        for c in UInt32(0x4E00)...0x4FFF { m[c] = Int((c * 7919) % 5000) + 1 }
        for c in UInt32(0x3000)...0x3010 where c % 3 != 0 { m[c] = 900 + Int(c) }
        let bytes = try CmapSubtable.encodeFormat4(m, language: 0)
        let decoded = try CmapSubtable(bytes: bytes, format: 4).mapping()
        #expect(decoded == m)
        #expect(bytes.count < 16 + 8 * CmapSubtable.runs(m).count, "no smaller than one segment per run")
    }

    // MARK: the one write path

    @Test func savingOntoADeviceIsRefusedAndTheDeviceStays() throws {
        let font = try Font(path: Corpus.dejavu)
        #expect { try font.save(to: "/dev/full") } throws: { "\($0)".contains("not a regular file") }
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func savingThroughASymlinkReplacesTheTargetAndKeepsLinkAndMode() throws {
        let tmp = try TemporaryFolder()
        let real = tmp.file("real.ttf"), link = tmp.file("link.ttf")
        try Font(path: Corpus.dejavu).save(to: real)
        #expect(chmod(real, 0o640) == 0)
        #expect(symlink(real, link) == 0)
        let font = try Font(path: Corpus.dejavu)
        try font.faces[0].hhea.set("ascender", .int(1234))
        try font.save(to: link)
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat(real, &info) == 0 && info.st_mode & 0o777 == 0o640)
        #expect(try Font(path: real).faces[0].hhea.int("ascender") == 1234)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() == ["link.ttf", "real.ttf"])
    }

    @Test func aFontOpenInThisProcessIsNotReplacedByAnyWriter() throws {
        let tmp = try TemporaryFolder()
        let copy = tmp.file("copy.ttf")
        try Font(path: Corpus.dejavu).save(to: copy)
        let open = try Font(path: copy)
        #expect { try AtomicFile.write(Array("<ttFont/>".utf8), to: copy) } throws: { "\($0)".contains("refusing to overwrite") }
        #expect(try Font(path: copy).faces.count == 1)
        try AtomicFile.write(Array("x".utf8), to: copy, overwrite: true)   // asked for: allowed
        #expect(fileSize(copy) == 1)
        _ = open
    }

    @Test func aFailedWriteLeavesNoTemporaryAndTheOldFile() throws {
        let tmp = try TemporaryFolder()
        let target = tmp.file("out.xml")
        try AtomicFile.write(Array("old".utf8), to: target)
        struct Full: Error {}
        #expect(throws: Full.self) {
            try AtomicFile.write(to: target) { fd in
                _ = "partial".withCString { Glibc.write(fd, $0, 7) }
                throw Full()
            }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["out.xml"])
        #expect { try AtomicFile.write(Array("x".utf8), to: "/dev/full") } throws: { "\($0)".contains("not a regular file") }
    }

    // MARK: work that fans out

    @Test func cffSubroutinesThatFanOutStopAtTheOperationBudget() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: try builtFont("cff-fanout", in: tmp))
        let face = font.faces[0]
        let a = try #require(try face.glyphID(named: "a"))
        // Before: 60^10 subroutine calls (a hang). Now an error naming the budget.
        #expect { _ = try CharStringInterpreter.run(cff: try #require(try face.cff), glyph: a) } throws: {
            "\($0)".contains("more than \(CharStringInterpreter.maximumOperations) operations")
        }
        let findings = Validator.validate(font)
        #expect(findings.contains { $0.check == "glyph-data" && $0.severity == .error && $0.message.contains("fan out") }, "\(findings)")
        // The caps edit replaces a's outline, so it no longer needs the hostile charstring.
        try face.copyCapitalsOntoLowercase()
        _ = try font.serialized()
    }

    /// CFF2's limit of 513 operands bounds the stack (before, a charstring of numbers grew it
    /// until the operation budget); at the limit the glyph still draws.
    @Test func charstringOperandsStopAtTheStackLimit() throws {
        func run(_ numbers: Int) throws -> CharStringInterpreter.Result {
            // Byte 139 pushes 0; then rmoveto (which takes the first two) and endchar.
            let code = [UInt8](repeating: 139, count: numbers) + [21, 14]
            return try code.withUnsafeBytes { bytes in
                var interpreter = CharStringInterpreter(
                    data: BinaryReader(bytes), globalSubrs: CFFIndex(items: [], range: 0..<0), code: BinaryReader(bytes), local: nil,
                    widths: nil, blend: nil, glyph: 7, table: "CFF ", recordPath: true)
                return try interpreter.run()
            }
        }
        #expect(try run(OperandStack.limit).path.count == 2)   // moveTo, closePath
        #expect { _ = try run(OperandStack.limit + 1) } throws: { "\($0)".contains("glyph 7: charstring: more than 513 operands") }
    }

    /// Every number encoding in one run (read by `OperandStack.pushNumbers`), and a two-byte
    /// number cut off by the end of the charstring, which is an error at its second byte.
    @Test func charstringNumberRunsReadEveryEncoding() throws {
        func run(_ code: [UInt8]) throws -> CharStringInterpreter.Result {
            try code.withUnsafeBytes { bytes in
                var interpreter = CharStringInterpreter(
                    data: BinaryReader(bytes), globalSubrs: CFFIndex(items: [], range: 0..<0), code: BinaryReader(bytes), local: nil,
                    widths: nil, blend: nil, glyph: 9, table: "CFF ", recordPath: true)
                return try interpreter.run()
            }
        }
        // 108 (247 0), -1131 (254 255), 4660 (28 0x12 0x34), 107 (246), -107 (32), 1131 (250 255), rlineto, endchar
        let path = try run([247, 0, 254, 255, 28, 0x12, 0x34, 246, 32, 250, 255, 5, 14]).path
        #expect("\(path)" == "\([PathCommand.lineTo(108, -1131), .lineTo(4768, -1024), .lineTo(4661, 107)])")
        #expect { _ = try run([139, 139, 21, 247]) } throws: { "\($0)".contains("glyph 9: charstring:") }
        #expect { _ = try run([139, 139, 21, 28, 1]) } throws: { "\($0)".contains("glyph 9: charstring:") }
    }

    /// Numbers count towards the operation budget: a glyph that calls, 400 times, a subroutine
    /// of 512 numbers and one operator runs 206,000 operations and stops, where counting only
    /// operators (1,200) would have let it run (and each operator may bring 513 numbers).
    @Test func charstringNumbersCountTowardsTheOperationBudget() throws {
        let subroutine = [UInt8](repeating: 139, count: 512) + [1, 11]   // 512 zeros, hstem, return
        let glyph = Array([[UInt8]](repeating: [32, 29], count: 400).joined()) + [14]   // -107 callgsubr, ..., endchar
        let thrown = subroutine.withUnsafeBytes { data in
            glyph.withUnsafeBytes { code in
                var interpreter = CharStringInterpreter(
                    data: BinaryReader(data), globalSubrs: CFFIndex(items: [0..<subroutine.count], range: 0..<0),
                    code: BinaryReader(code), local: nil, widths: nil, blend: nil, glyph: 3, table: "CFF ", recordPath: false)
                return Result { try interpreter.run() }
            }
        }
        #expect(throws: (any Error).self) { try thrown.get() }
        #expect("\(thrown)".contains("more than \(CharStringInterpreter.maximumOperations) operations"), "\(thrown)")
    }

    @Test func compositesThatFanOutAreBoundedAndReported() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: try builtFont("composite-fanout", in: tmp))
        let face = font.faces[0]
        let glyf = try #require(try face.glyf)
        let a = try #require(try face.glyphID(named: "a"))
        // 4^29 points: flattening them used to exhaust memory.
        #expect { _ = try glyf.flattenedPoints(a, depth: 0, visiting: [a]) } throws: { "\($0)".contains("more than 65535 points") }
        let findings = Validator.validate(font)
        #expect(findings.contains { $0.check == "glyph-data" && $0.severity == .error && $0.message.contains("fan out") }, "\(findings)")
    }

    // MARK: collections and extensions

    @Test func oneFaceOfACollectionSavesAsASingleFontThatFontToolsAndOTSRead() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.noto)
        let out = tmp.file("face3.otf")
        try font.save(face: font.faces[3], to: out)
        let single = try Font(path: out)
        #expect(!single.isCollection && single.faces.count == 1)
        #expect(try single.faces[0].postScriptName == font.faces[3].postScriptName)
        for tag in font.faces[3].tags where tag != "head" {
            #expect(try single.faces[0].rawTable(tag) == font.faces[3].rawTable(tag), "\(tag)")
        }
        let r = try run(
            "python3", ["-c", "import sys; from fontTools.ttLib import TTFont; print(TTFont(sys.argv[1])['name'].getDebugName(6))", out])
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == (try font.faces[3].postScriptName))
        #expect(try otsAccepts(out).0)
    }

    @Test func anExtensionThatPromisesAnotherFormatIsRefused() throws {
        let tmp = try TemporaryFolder()
        let single = try Font(path: Corpus.dejavu), collection = try Font(path: Corpus.wqy)
        #expect { try single.save(to: tmp.file("x.eot")) } throws: { "\($0)".contains("not EOT") }
        #expect { try single.save(to: tmp.file("x.woff"), options: SaveOptions(format: .woff2)) } throws: {
            "\($0)".contains("make them agree")
        }
        #expect { try collection.save(to: tmp.file("x.woff")) } throws: { "\($0)".contains("WOFF holds one font") }
        #expect { try single.save(to: tmp.file("x.ttc")) } throws: { "\($0)".contains("not a collection") }
        #expect { try collection.save(to: tmp.file("x.ttf")) } throws: { "\($0)".contains("this is a collection") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        try single.save(to: tmp.file("x.otf"))   // TrueType outlines in .otf are common and valid
    }

    // MARK: edits that would make the font invalid

    @Test func invalidEditsAreRefusedAtTheEdit() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        #expect { try face.maxp.set("numGlyphs", .int(65535)) } throws: { "\($0)".contains("recalculated on save") }
        #expect { try face.head.set("unitsPerEm", .int(0)) } throws: { "\($0)".contains("16...16384") }
        #expect { try face.os2?.set("version", .int(100)) } throws: { "\($0)".contains("0...5") }
        let count = try face.glyphCount
        #expect { try face.cmap?.set(0x41, glyph: 60000, glyphCount: count) } throws: { "\($0)".contains("does not exist") }
        #expect(!face.isEdited)
    }

    @Test func aSaveThatWouldBeInvalidIsRefusedUnlessForced() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        // hhea says more long metrics than glyphs: the validator's hhea-metrics-count error.
        try face.cmap?.set(0x41, glyph: try face.glyphCount + 5)   // the model alone cannot know the count here
        let out = tmp.file("bad.ttf")
        #expect { try font.save(to: out) } throws: { "\($0)".contains("would not be valid") && "\($0)".contains("cmap-subtables") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        try font.save(to: out, options: SaveOptions(force: true))
        #expect(Validator.validate(try Font(path: out)).contains { $0.check == "cmap-subtables" && $0.severity == .error })
        // The face is still usable after the refused save: undo the edit and save.
        try face.cmap?.set(0x41, glyph: 36)
        try font.save(to: tmp.file("good.ttf"))
    }

    // MARK: glyph edits in collections

    @Test func unsharedFaceTakesTheCapsEditAloneAndTheCollectionStaysValid() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.wqy)
        let face = font.faces[1]
        #expect(face.facesSharingGlyphData == [0, 2])
        #expect(try face.unshareGlyphData().contains("glyf"))
        #expect(face.facesSharingGlyphData.isEmpty)
        try face.copyCapitalsOntoLowercase()
        let out = tmp.file("wqy-caps1.ttc")
        try font.save(to: out)
        let saved = try Font(path: out)
        func outline(_ f: Face, _ c: Unicode.Scalar) throws -> [[GlyphPoint]] {
            try f.glyf?.glyph(try #require(try f.glyphID(for: c))).contours ?? []
        }
        #expect(try outline(saved.faces[1], "a") == outline(saved.faces[1], "A"))
        #expect(try outline(saved.faces[0], "a") != outline(saved.faces[0], "A"))
        #expect(try outline(saved.faces[2], "a") == outline(try Font(path: Corpus.wqy).faces[2], "a"))
        for i in 0..<3 { #expect(try otsAccepts(out, face: i).0, "face \(i)") }
    }

    @Test func unsharingAfterAnEditKeepsTheEditInTheCopyOnly() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: Corpus.wqy)
        try font.faces[1].copyCapitalsOntoLowercase()   // through the shared tables: every face
        try font.faces[1].unshareGlyphData()
        let face0 = font.faces[0]
        let a = try #require(try face0.glyphID(for: "a")), b = try #require(try face0.glyphID(for: "b"))
        let glyf0 = try #require(try face0.glyf)
        try glyf0.setGlyph(a, try glyf0.glyph(b))
        let out = tmp.file("wqy-mixed.ttc")
        try font.save(to: out)
        let saved = try Font(path: out)
        let a1 = try #require(try saved.faces[1].glyphID(for: "a")), A1 = try #require(try saved.faces[1].glyphID(for: "A"))
        #expect(try saved.faces[1].glyf?.glyph(a1).contours == saved.faces[1].glyf?.glyph(A1).contours)
        let a0 = try #require(try saved.faces[0].glyphID(for: "a")), b0 = try #require(try saved.faces[0].glyphID(for: "b"))
        #expect(try saved.faces[0].glyf?.glyph(a0).contours == saved.faces[0].glyf?.glyph(b0).contours)
        for i in 0..<3 { #expect(try otsAccepts(out, face: i).0, "face \(i)") }
    }

    @Test func aPreviewLayoutOfAnEditedCFFFaceSkipsBoundsButTheSaveRecalculatesThem() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: try builtFont("cff", in: tmp))
        let face = font.faces[0]
        let notdef = 0
        for name in ["A", "B", "a", "b"] { try face.copyOutline(from: notdef, to: try #require(try face.glyphID(named: name))) }
        let xMaxBefore = try face.head.int("xMax")
        _ = try font.standalone(face: face)   // what a preview renders: no CFF bounds pass
        #expect(try face.head.int("xMax") == xMaxBefore)
        let report = try font.save(to: tmp.file("shrunk.otf"))
        #expect(report.recalculated.contains { $0.hasPrefix("head.xMax") }, "\(report.recalculated)")
        #expect(try Font(path: tmp.file("shrunk.otf")).faces[0].head.int("xMax") == 450)
    }
}

/// Failures found by fuzzing and in real fonts, each kept as the input (or the edit) that found it.
@Suite struct FindingTests {
    /// A CFF2 font whose Private DICT gives a negative vsindex (found by fuzz-font, 2026-11-27):
    /// outlines at a location, and instances, used it to index the regions and trapped.
    static let negativeVSIndex = [
        "T1RUTwAKAIAAAwAgQ0ZGMpmOVQQAAAMoAAACiE9TLzJFIUQiAAABEAAAAGBjbWFwAN4A8wAAAYQAAABEZnZhcvVQ3v8AAAWwAAAA",
        "OGhlYWQvkEAAAAAArAAAADZoaGVhBbcBbgAAAOQAAAAkaG10eAq0ANwAAAFwAAAAFG1heHAABVAAAAABCAAAAAZuYW1lvy+fPgAA",
        "AcgAAAEycG9zdABQAIkAAAL8AAAALAABAAAAAQAA16ceP18PPPUAAwPoAAAAAOcu/igAAAAA5y7+KP/EAAACWALQAAAAAwACAAAA",
        "AAAAAAEAAAMg/zgAAAJsAAD/xAKUAAEAAAAAAAAAAAAAAAAAAAAFAABQAAQFAAAAAwIkAZAABQAEAAAAAAAAAAAAAAAAAAAAAAAA",
        "AAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAPz8/PwAAAEEAYgMg/zgAAAMgAMgAAAAAAAAAAAAAAAAAAAAgAAAB9AAyAlgA",
        "AAH0ADICbAA8AggAPAAAAAIAAAADAAAAFAADAAEAAAAUAAQAMAAAAAYABAABAAIAQgBi//8AAABBAGH//wAAAAAAAQAGAAgAAAAB",
        "AAMAAgAEAAAACgB+AAEAAAAAAAEAEgAAAAEAAAAAAAIABwASAAEAAAAAAAYAGAAZAAEAAAAAAQAABgAxAAEAAAAAAQEABQA3AAMA",
        "AQQJAAEAJAA8AAMAAQQJAAIADgBgAAMAAQQJAAYAMABuAAMAAQQJAQAADACeAAMAAQQJAQEACgCqVGVzdCBDRkYyIFZhcmlhYmxl",
        "UmVndWxhclRlc3RDRkYyVmFyaWFibGUtUmVndWxhcldlaWdodFdpZHRoAFQAZQBzAHQAIABDAEYARgAyACAAVgBhAHIBaQBhAGIA",
        "bABlAFIAZQBnAHUAbABhAHIAVABlAHMAdABDAEYARgAyAFYAYQByAGkAYQBiAGwAZQAtAFIAZQBnAHUAbABhAHIAVwBlAGkAZwBo",
        "AHQAVwBpAGQAdABoAAAAAgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFAAAAJABEACUARQIABQAI+PQMJOwRnBgAAAAA",
        "AE4AAQAAABAAAgAAADgAAABEAAIAAwAAQABAAAAAAAAAAMAAwAAAAAAAAAAAAAAAAAAAAMAAwAAAAAAAAAAAAwAAAAEAAgAAAAAA",
        "AgAAAAEAAAAFAgABAGcAzQEzAYkB74v5UIuLi4uLi40QEr2z99Szi4uLi4GGi5V3i4GGjxAXE+C9i4uLkIuLi40QFfgki4ttjBAG",
        "i/jsi4uLi4SLjRAFE6CLx2OzT4uLi4uOiYuLkJWNi4uIjIeLi4uREAj7/IuLpIwQBov5UIuLi8dti40QEouz+Jyzi4uLx4GGT5V3",
        "x4GGjxAXE+CLi4uLkIuLi40QFfjsx3dtjBAGi/jsi4uLx4SLjRAFE6CLx2OzT4uLi4uOiYtPkJWNi4uIjIeLi4uREAj8xE+fpIwQ",
        "Bov4iIuLi655i40QEr2z99Szi4uLroGGaJV3roGGjxAXE+C9i4uLkIuLi40QFfgkrn9tjBAGi/gki4uLroSLjRAFE6CLx2OzT4uL",
        "i4uOiYtokJWNi4uIjIeLi4uREAj7/GiWpIwQBowPi/lQi4u9co0QEsez+Dizi4u9gVmVvYGPEBcT4MeLi4uLi40QFfiIvXqMEAaL",
        "+OyLi72EjRAFE6CLx2OzT4uLi46JWZCNi4iMi4uREAj8YFmbjBAGi/lki4uLn4GLjRASx7P31LOLi4ufgYZ3lXefgYaPEBcT4MeL",
        "i4uQi4uLjRAV+CSfhG2MEAaL+QCLi4ufhIuNEAUToIvHY7NPi4uLi46Ji3eQlY2Li4iMh4uLi5EQCPv8d5GkjBAGAAAAAQEBBaj4",
        "/xJ/l/iIl/dQl4uLi4uLi5eFi5mEi5SHi5SHi5EWBgABAAAAEAACAAIAFAAAAAx3Z2h0AGQAAAGQAAADhAAAAAABAHdkdGgAMgAA",
        "AGQAAABkAAAAAAEB",
    ].joined()

    @Test func negativePrivateVSIndexIsNoTrap() throws {
        let font = try Font(data: Array(try #require(Data(base64Encoded: Self.negativeVSIndex))))
        let face = font.faces[0]
        let axes = try face.variationAxes
        let top = Dictionary(axes.map { ($0.tag.trimmed, $0.maximum) }, uniquingKeysWith: { a, _ in a })
        let location = try face.location(top).normalized
        var outcomes = 0
        for id in 0..<min(try face.glyphCount, 50) {
            do { _ = try face.outlinePoints(id, at: location); outcomes += 1 } catch is FontError { outcomes += 1 }
        }
        #expect(outcomes > 0)
        _ = try? face.instance(InstanceOptions(coordinates: top))
        if let first = axes.first, first.defaultValue < first.maximum {
            _ = try? face.instance(InstanceOptions(ranges: [first.tag.trimmed: first.defaultValue...first.maximum]))
        }
    }

    /// A post format 2 with bytes after the names its glyphs use (Busra, in Debian's
    /// fonts-sil-mondulkiri, has one): those bytes are not a name, as fontTools reads them.
    @Test func postBytesAfterTheUsedNamesAreNoName() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        let names = try #require(try face.post).extraNames()
        var post = try #require(try face.rawTable("post"))
        post += [3, 0x61, 0x62]   // a stray Pascal string no glyph index points at
        face.setRawTable("post", post)
        #expect(try face.post?.extraNames() == names)
        post += [9]   // and a length byte running past the end
        face.setRawTable("post", post)
        #expect(try face.post?.extraNames() == names)
    }
}
