import Foundation
import Testing
@testable import FontModel

/// Structured tables (GDEF first): decoding, re-encoding, laziness, and malformed data, with
/// fontTools as the oracle for what the bytes mean.
@Suite struct StructuredTableTests {
    /// Every corpus face's GDEF, GSUB and GPOS: decode → encode → decode gives the same values,
    /// and fontTools decompiles our encoding to exactly what it decompiles the original to.
    @Test(arguments: ["GDEF", "GSUB", "GPOS"])
    func corpusReencodesToWhatFontToolsReadsAsTheOriginal(tag: String) throws {
        let folder = try TemporaryFolder()
        var pairs: [(String, String)] = []
        for (id, path) in Corpus.fonts {
            let font = try Font(path: path)
            for face in font.faces.prefix(2) {
                guard let table = try face.structuredTable(Tag(text: tag)) else { continue }
                let bytes = try table.encode()
                let again = try bytes.withUnsafeBytes { try StructureCodec.decode(BinaryReader($0), type(of: table).shape, name: tag) }
                #expect(again == .record(try table.root), "\(id) face \(face.index)")
                if face.index == 0 {
                    face.reencode(Tag(text: tag))
                    let out = folder.file("\(id).\(font.isCollection ? "ttc" : "ttf")")
                    try font.save(to: out)
                    pairs.append((path, out))
                }
            }
        }
        #expect(pairs.count >= 4)
        try expectFontToolsReadsEqual(pairs, tag: tag)
    }

    /// Every AOTS font with an expected dump of GDEF (148), GSUB (94) or GPOS (93): each decodes,
    /// and a forced rewrite is read by fontTools as the original and shaped by HarfBuzz as the
    /// original (the suite ships fonts, not strings: the text is every character a font maps,
    /// in order and reversed, with the suite's `test` feature on).
    @Test(arguments: [("GDEF", 148), ("GSUB", 94), ("GPOS", 93)])
    func aotsReencodesToWhatFontToolsAndHarfBuzzReadAsTheOriginal(tag: String, expected: Int) throws {
        let folder = try TemporaryFolder()
        var pairs: [(String, String)] = []
        var shaped = 0
        for (path, _) in try Conformance.aots(expecting: tag) {
            let font = try Font(path: path)
            #expect(try font.faces[0].structuredTable(Tag(text: tag)) != nil)
            font.faces[0].reencode(Tag(text: tag))
            let out = folder.file((path as NSString).lastPathComponent)
            try font.save(to: out)
            pairs.append((path, out))
            let characters = try font.faces[0].cmap?.bestUnicodeSubtable()?.mapping().keys.sorted() ?? []
            let scalars = characters.compactMap(Unicode.Scalar.init).filter { $0.value > 0x20 }
            guard !scalars.isEmpty else { continue }
            let text = String(String.UnicodeScalarView(scalars)) + String(String.UnicodeScalarView(scalars.reversed()))
            let before = try run("hb-shape", ["--features=test", path, text]), after = try run("hb-shape", ["--features=test", out, text])
            #expect(
                before.status == 0 && before.out == after.out,
                "HarfBuzz shapes \((path as NSString).lastPathComponent) differently after the rewrite")
            shaped += 1
        }
        #expect(pairs.count == expected)
        #expect(shaped > expected / 2)
        try expectFontToolsReadsEqual(pairs, tag: tag)
    }

    func expectFontToolsReadsEqual(_ pairs: [(original: String, saved: String)], tag: String = "GDEF") throws {
        let xml = try #require(try fontTools(["tablexml", tag] + pairs.flatMap { [$0.original, $0.saved] }) as? [String: String])
        for (original, saved) in pairs {
            let a = try #require(xml[original]), b = try #require(xml[saved])
            #expect(a == b, "fontTools reads \((saved as NSString).lastPathComponent)'s \(tag) differently from the original's")
        }
    }

    /// A GPOS whose Offset16s cannot all fit (Roboto's kerning lookup copied five times, values
    /// changed so nothing is shared) is saved with its lookups behind extension subtables: the
    /// file is accepted by ots-sanitize, shapes as before, and reads back to the same lookups.
    @Test func offsetOverflowPromotesLookupsToExtensions() throws {
        let path = Corpus.path("roboto")
        let font = try Font(path: path)
        let gpos = try #require(try font.faces[0].structuredTable("GPOS"))
        guard case .record(var list)? = try gpos.root["LookupList"], case .list(var lookups)? = list["Lookup"] else {
            Issue.record("no lookups"); return
        }
        let kerning = lookups[1]
        for copy in 1...5 {
            // Every XAdvance in the copy shifted by `copy`, so the copies differ from each other.
            func shifted(_ v: StructValue) -> StructValue {
                switch v {
                case .record(let f):
                    var g = f
                    for name in f.names {
                        if let inner = f[name] { g[name] = name == "XAdvance" ? .int((inner.int ?? 0) + Int64(copy)) : shifted(inner) }
                    }
                    return .record(g)
                case .formatted(let n, let f): if case .record(let g) = shifted(.record(f)) { return .formatted(n, g) }; return v
                case .switched(let k, let inner): return .switched(k, shifted(inner))
                case .list(let items): return .list(items.map(shifted))
                default: return v
                }
            }
            lookups.append(shifted(kerning))
        }
        list["Lookup"] = .list(lookups)
        #expect(throws: OffsetOverflow.self) {
            _ = try StructureCodec.encode(
                .record(
                    {
                        var r = try gpos.root; r["LookupList"] = .record(list); return r
                    }()), GPOSTable.shape, name: "GPOS")
        }
        try gpos.set("LookupList", .record(list))
        let folder = try TemporaryFolder()
        let out = folder.file("overflow.ttf")
        try font.save(to: out)
        let (ok, message) = try otsAccepts(out)
        #expect(ok, "\(message)")
        let lookupsBack = try Font(path: out).faces[0].layoutLookups("GPOS")
        #expect(lookupsBack.count == lookups.count && lookupsBack.allSatisfy(\.isExtension))
        #expect(lookupsBack.map(\.typeName) == (try font.faces[0].layoutLookups("GPOS")).map(\.typeName))
        for text in ["AVATAR", "Type Wave", "office"] {
            #expect(try run("hb-shape", [out, text]).out == (try run("hb-shape", [path, text]).out), "\(text)")
        }
    }

    /// A pair subtable too big for its own Offset16s (Roboto's glyph pair subtable given 200
    /// pairs for each of 300 first glyphs: ~240 KB of pair sets) is split into pieces that fit;
    /// the kerning is unchanged (ours and fontTools'), OTS accepts it, the report says so.
    @Test func oversizedSubtablesAreSplit() throws {
        let path = Corpus.path("roboto")
        let font = try Font(path: path)
        let face = font.faces[0]
        let gpos = try #require(try face.structuredTable("GPOS"))
        var root = try gpos.root
        guard case .record(var list)? = root["LookupList"], case .list(var lookups)? = list["Lookup"],
            case .record(var lookup) = lookups[1], case .list(var subtables)? = lookup["SubTable"],
            case .switched(2, .formatted(1, var f)) = subtables[0]
        else { Issue.record("Roboto's lookup 1 is not as expected"); return }
        f["Coverage"] = .glyphs(GlyphRuns(100..<400))
        f["PairSet"] = .list(
            (100..<400).map { left in
                var set = StructFields()
                set["PairValueRecord"] = .list(
                    (0..<200).map { k in
                        var r = StructFields(); var v = StructFields()
                        r["SecondGlyph"] = .int(Int64(500 + k))
                        v["XAdvance"] = .int(Int64(-(left + k) % 97 - 1))
                        r["Value1"] = .record(v); r["Value2"] = .record(StructFields())
                        return .record(r)
                    })
                return .record(set)
            })
        subtables[0] = .switched(2, .formatted(1, f))
        lookup["SubTable"] = .list(subtables); lookups[1] = .record(lookup); list["Lookup"] = .list(lookups);
        root["LookupList"] = .record(list)
        #expect(gpos.replaceRoot(root))
        let before = try KerningPairs(face: face).all()
        #expect(before.count > 60_000)
        let folder = try TemporaryFolder()
        let out = folder.file("split.ttf")
        let report = try font.save(to: out)
        #expect(report.description.contains("split to fit: lookup 1 subtable 0 into"), "\(report)")
        let saved = try Font(path: out).faces[0]
        let after = try KerningPairs(face: saved).all()
        #expect(after.count == before.count && zip(after, before).allSatisfy { $0 == $1 })
        #expect(try saved.layoutLookups("GPOS")[1].subtables > 2)
        let (ok, message) = try otsAccepts(out)
        #expect(ok, "\(message)")
        // A pair from the far end of the big subtable, and fontTools reading every pair the same.
        #expect(try saved.kerning(399, 699) == -((399 + 199) % 97) - 1)
        let script = repositoryRoot.appendingPathComponent("Scripts/bench-py/kerning_pairs.py").path
        let theirs = try run("python3", [script, out])
        #expect(theirs.out.trimmingCharacters(in: .whitespacesAndNewlines) == KerningTests.summary(after), "\(theirs.err)")
    }

    /// GDEF 1.3's ItemVariationStore is described: Amstelvar's (avar 2, LONG_WORDS-free rows)
    /// decodes, re-encodes to the same bytes, and its rows have their regions' width.
    @Test func variationStoresDecodeAndReencodeExactly() throws {
        let path = Conformance.folder + "/variable/Amstelvar-avar2.subset.ttf"
        let face = try Font(path: path).faces[0]
        let gdef = try #require(try face.gdef)
        guard case .record(let store)? = try gdef.value("VarStore"), case .list(let data)? = store["VarData"] else {
            Issue.record("no VarStore"); return
        }
        #expect(!data.isEmpty)
        for case .record(let d) in data {
            guard case .list(let rows)? = d["Item"], case .list(let regions)? = d["VarRegionIndex"] else { continue }
            #expect(rows.allSatisfy { if case .list(let row) = $0 { row.count == regions.count } else { false } })
        }
        #expect(try gdef.encode() == (try face.rawTable("GDEF")))
    }

    /// A structure not described yet (here a LangSys whose reserved LookupOrder is not null) is
    /// kept as bytes inside the table: what needs it names what is missing, validation does not
    /// call it broken, and the font saves unchanged.
    @Test func undescribedStructuresKeepTheTableAsBytes() throws {
        let font = try Font(path: Corpus.dejavu)
        let face = font.faces[0]
        var gsub = try #require(try face.rawTable("GSUB"))
        func u16(_ at: Int) -> Int { Int(gsub[at]) << 8 | Int(gsub[at + 1]) }
        let scriptList = u16(4), script = scriptList + u16(scriptList + 2 + 4), langSys = script + u16(script)
        #expect(u16(langSys) == 0)
        gsub[langSys + 1] = 2
        face.setRawTable("GSUB", gsub)
        let table = try #require(try face.structuredTable("GSUB"))
        #expect(table.damage.count == 1 && table.damage[0].part.isUndescribed)
        #expect { _ = try table.root } throws: { "\($0)".contains("LookupOrder") && "\($0)".contains("kept as bytes") }
        #expect { _ = try face.layoutFeatures() } throws: { "\($0)".contains("LookupOrder") }
        #expect(!Validator.validate(font, checks: ["layout-structure"]).contains { $0.severity == .error })
        let saved = try Font(data: try font.serialized().bytes)
        #expect(try saved.faces[0].rawTable("GSUB") == gsub)
    }

    /// Opening and saving an unedited font decodes no layout table and keeps their bytes.
    @Test func unusedGDEFIsNeitherDecodedNorRewritten() throws {
        let font = try Font(path: Corpus.path("roboto"))
        let saved = try Font(data: try font.serialized().bytes)
        for tag in ["GDEF", "GSUB", "GPOS"] as [FontModel.Tag] {
            #expect(!font.faces[0].decodedTags.contains(tag))
            #expect(try saved.faces[0].rawTable(tag) == (try font.faces[0].rawTable(tag)))
        }
    }

    /// A lookup's subtables are decoded when first used: listing lookups decodes none, a
    /// feature's substitutions decode that feature's lookups only.
    @Test func lookupSubtablesAreDecodedWhenFirstUsed() throws {
        let face = try Font(path: Corpus.path("roboto")).faces[0]
        let gsub = try #require(try face.structuredTable("GSUB"))
        func lazies(_ v: StructValue) -> [LazySubtable] {
            switch v {
            case .lazy(let l): [l]
            case .record(let f), .formatted(_, let f): f.values.flatMap(lazies)
            case .list(let items): items.flatMap(lazies)
            case .switched(_, let inner): lazies(inner)
            default: []
            }
        }
        let all = lazies(.record(gsub.lazyRoot))
        #expect(all.count > 30 && all.filter(\.isDecoded).isEmpty)
        #expect(try face.layoutLookups("GSUB").count == 35)
        #expect(all.filter(\.isDecoded).isEmpty)
        let liga = try face.substitutions(feature: "liga")
        let decoded = all.filter(\.isDecoded).count
        #expect(!liga.isEmpty && decoded > 0 && decoded < all.count / 4, "\(decoded) of \(all.count)")
    }

    /// A broken subtable breaks only what reads it: features, lookups and other features'
    /// substitutions still work, its own feature's error names it, and validate reports it.
    @Test func aBrokenSubtableOnlyBreaksWhatReadsIt() throws {
        let font = try Font(path: Corpus.path("roboto"))
        let face = font.faces[0]
        var bytes = try #require(try face.rawTable("GSUB"))
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        let lookupList = u16(8), lookup0 = lookupList + u16(lookupList + 2), subtable = lookup0 + u16(lookup0 + 6)
        bytes[subtable + 2] = 0xFF; bytes[subtable + 3] = 0xFF   // its Coverage offset, past the end
        face.setRawTable("GSUB", bytes)
        let features = try face.layoutFeatures().filter { $0.table == "GSUB" }
        #expect(try face.layoutLookups("GSUB").count == 35)
        let broken = try #require(features.first { $0.lookups.contains(0) }?.feature)
        let fine = try #require(features.first { !$0.lookups.contains(0) && $0.feature == "liga" }?.feature)
        let fineSubstitutions = try face.substitutions(feature: fine)
        #expect(!fineSubstitutions.isEmpty)
        #expect { _ = try face.substitutions(feature: broken) } throws: {
            "\($0)".contains("GSUB.Lookup[0].SubTable[0]") && "\($0)".contains("Coverage offset 65535")
        }
        let findings = Validator.validate(font, checks: ["layout-structure"])
        #expect(findings.contains { $0.message.contains("Lookup[0].SubTable[0]") }, "\(findings)")
    }

    /// A GDEF 1.0 header followed by `body`, with the four offsets given.
    func gdef(glyphClassDef: Int = 0, attachList: Int = 0, ligCaretList: Int = 0, markAttach: Int = 0, body: [UInt8]) -> [UInt8] {
        var w = BinaryWriter()
        w.u32(0x0001_0000)
        for o in [glyphClassDef, attachList, ligCaretList, markAttach] { w.u16(UInt16(o)) }
        w.append(body)
        return w.bytes
    }

    /// Malformed GDEFs give a FontError naming the table, the member and the offset, when the
    /// table is read or, for a damaged subtable kept as bytes, when all of it is needed; the font
    /// still opens, everything else works, validate reports it, and an unedited save keeps it.
    @Test func malformedGDEFIsAClearErrorAndTheFontStillWorks() throws {
        var fanOut = BinaryWriter()
        // AttachList: Coverage → 0 glyphs; 2000 AttachPoint offsets all at one list of 30,000 points.
        fanOut.u16(4 + 2 * 2000 + 2); fanOut.u16(2000)
        for _ in 0..<2000 { fanOut.u16(UInt16(4 + 2 * 2000 + 2 + 4)) }
        fanOut.u16(0)   // (padding so the coverage lands where the first offset said)
        fanOut.u16(1); fanOut.u16(0)
        fanOut.u16(30000); fanOut.append([UInt8](repeating: 0, count: 60000))
        let cases: [(String, [UInt8], String)] = [
            ("offset past the end", gdef(glyphClassDef: 900, body: []), "GDEF.GlyphClassDef"),
            ("unknown ClassDef format", gdef(glyphClassDef: 12, body: [0, 7, 0, 0]), "unknown ClassDef format 7"),
            ("truncated coverage", gdef(attachList: 12, body: [0, 4, 0, 0, 0, 1, 0, 200]), "GDEF.AttachList.Coverage"),
            ("unknown caret format", gdef(ligCaretList: 12, body: [0, 0, 0, 1, 0, 6, 0, 1, 0, 4, 0, 9]), "unknown CaretValue format 9"),
            ("fan-out", gdef(attachList: 12, body: fanOut.bytes), "fan out"),
        ]
        for (what, bytes, expected) in cases {
            let font = try Font(path: Corpus.dejavu)
            let face = font.faces[0]
            face.setRawTable("GDEF", bytes)
            #expect(throws: FontError.self, "\(what)") { _ = try face.gdef?.root }
            do { _ = try face.gdef?.root } catch let e as FontError {
                #expect(e.description.contains(expected) && e.table == "GDEF" && e.offset != nil, "\(what): \(e)")
            }
            #expect(try face.glyphCount > 0 && face.hhea.int("ascender") > 0)
            let saved = try Font(data: try font.serialized().bytes)
            #expect(try saved.faces[0].rawTable("GDEF") == bytes, "\(what): kept as it was")
            let findings = Validator.validate(saved, checks: ["layout-structure"])
            #expect(findings.contains { $0.severity == .error && $0.message.contains(expected) }, "\(what): \(findings)")
        }
    }

    /// An edit keeps what was not edited, fails whole when the value does not fit, and goes
    /// through the save gate (a Coverage out of order is refused).
    @Test func editsAreCheckedAndRoundTrip() throws {
        let font = try Font(path: Corpus.path("roboto"))
        let face = font.faces[0]
        let gdef = try #require(try face.gdef)
        let a = try #require(try face.glyphID(named: "A")), c = try #require(try face.glyphID(named: "C"))
        guard case .classes(var classes)? = try gdef.value("GlyphClassDef") else { Issue.record("no GlyphClassDef"); return }
        classes.append(ClassRun(first: a, last: a, glyphClass: 3))
        try gdef.set(
            "GlyphClassDef",
            .classes(ClassRun.normalized(classes.filter { $0.first != a || $0.last != a } + [ClassRun(first: a, last: a, glyphClass: 3)])))
        #expect(throws: FontError.self) { try gdef.set("GlyphClassDef", .int(3)) }
        #expect(throws: FontError.self) { try gdef.set("GlyphClasDef", .none) }
        var point = StructFields(); point["PointIndex"] = .list([.int(4)])
        var attach = StructFields()
        attach["Coverage"] = .glyphs(GlyphRuns([c]))
        attach["AttachPoint"] = .list([.record(point)])
        try gdef.set("AttachList", .record(attach))
        let reread = try #require(try Font(data: try font.serialized().bytes).faces[0].gdef)
        #expect(try reread.root == gdef.root)
        #expect(try reread.value("MarkGlyphSetsDef") != nil)
        // A Coverage out of glyph order is refused at save, naming it.
        attach["Coverage"] = .glyphs(GlyphRuns([c, a]))
        attach["AttachPoint"] = .list([.record(point), .record(point)])
        try gdef.set("AttachList", .record(attach))
        let folder = try TemporaryFolder()
        #expect { try font.save(to: folder.file("out.ttf")) } throws: {
            "\($0)".contains("Coverage glyphs are not in ascending glyph order")
        }
    }
}
