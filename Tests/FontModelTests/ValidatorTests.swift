import Foundation
import Testing
@testable import FontModel

/// Each check fires on a real font broken for that purpose, and not on the font as shipped.
@Suite struct ValidatorTests {
    static let dejavu: [UInt8] = Array((try? Data(contentsOf: URL(fileURLWithPath: Corpus.dejavu))) ?? Data())

    func findings(_ bytes: [UInt8]) throws -> [Finding] { Validator.validate(try Font(data: bytes, name: "broken.ttf")) }

    /// Applies an edit through the model and returns the saved bytes.
    func edited(_ edit: (Face) throws -> Void) throws -> [UInt8] {
        let font = try Font(data: Self.dejavu)
        try edit(font.faces[0])
        return try font.serialized().bytes
    }

    func patched(_ tag: FontModel.Tag, at offset: Int, _ newBytes: [UInt8]) throws -> [UInt8] {
        var b = Self.dejavu
        let r = try #require(MalformedFontTests.record(tag, in: b))
        for (i, v) in newBytes.enumerated() { b[r.offset + offset + i] = v }
        return b
    }

    func expect(
        _ check: String, _ severity: Finding.Severity, in bytes: [UInt8], mentioning: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let matches = { (f: Finding) in f.check == check && (mentioning.isEmpty || f.message.contains(mentioning)) }
        let found = try findings(bytes)
        #expect(
            found.contains { matches($0) && $0.severity == severity }, "\(check) did not fire: \(found)", sourceLocation: sourceLocation)
        #expect(
            !(try findings(Self.dejavu)).contains(where: matches), "\(check) fires on the unbroken font", sourceLocation: sourceLocation)
    }

    @Test func everyCorpusFontHasNoErrors() throws {
        for (id, path) in Corpus.fonts {
            let errors = Validator.validate(try Font(path: path)).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(id): \(errors)")
        }
    }

    @Test func checksumsMagicAndTables() throws {
        try expect("table-checksum", .warning, in: try patched("gasp", at: 4, [0x7F]))
        var adjusted = Self.dejavu
        let head = try #require(MalformedFontTests.record("head", in: adjusted))
        adjusted[head.offset + 8] ^= 0xFF
        try expect("checksum-adjustment", .warning, in: adjusted)
        try expect("head-magic", .error, in: try patched("head", at: 12, [0, 0, 0, 0]))
        // A field outside the range its description gives (`valid:`): OS/2.usWidthClass 0.
        try expect("field-ranges", .warning, in: try patched("OS/2", at: 6, [0, 0]), mentioning: "OS/2.usWidthClass is 0")
        var renamed = Self.dejavu
        let post = try #require(MalformedFontTests.record("post", in: renamed))
        renamed[post.recordAt + 3] = UInt8(ascii: "x")   // 'post' → 'posx'
        try expect("required-tables", .error, in: renamed)
    }

    @Test func alignmentOnTheRealWqy() throws {
        let found = Validator.validate(try Font(path: Corpus.wqy))
        #expect(found.contains { $0.check == "table-alignment" && $0.message.contains("'FFTM'") })
        #expect(!(try findings(Self.dejavu)).contains { $0.check == "table-alignment" })
    }

    @Test func countsLocaAndGlyphs() throws {
        try expect("glyph-count", .error, in: try patched("maxp", at: 4, [0x18, 0x00]))   // numGlyphs 6144 < 6253
        try expect("hhea-metrics-count", .error, in: try patched("hhea", at: 34, [0xFF, 0xFF]))
        try expect("loca-monotonic", .error, in: try patched("loca", at: 20, [0x7F, 0xFF, 0xFF, 0x00]))
        let aacute = try #require(try Font(data: Self.dejavu).faces[0].glyphID(for: "\u{C1}"))
        let start = try #require(try Font(data: Self.dejavu).faces[0].table(LocaTable.self)).offsets[aacute]
        try expect("glyph-data", .error, in: try patched("glyf", at: start + 12, [UInt8(aacute >> 8), UInt8(aacute & 0xFF)]))
        try expect("glyph-bounds", .warning, in: try patched("head", at: 42, [0x03, 0x00]))   // yMax 768
    }

    @Test func cmapAndNames() throws {
        try expect("cmap-subtables", .error, in: try edited { try $0.cmap?.set(0xE000, glyph: 60000) })
        try expect(
            "name-decodable", .error,
            in: try edited { face in
                let name = try face.name
                var records = name.records
                records.append(NameRecord(platformID: 3, encodingID: 1, languageID: 0x409, nameID: 300, bytes: [0x00, 0x41, 0x00]))
                name.replaceRecords(records)
            })
        try expect("postscript-name", .error, in: try edited { try $0.name.set(6, "Bad Name") })
        try expect(
            "postscript-name", .error, in: try edited { try $0.name.set(6, "OtherName", platformID: 1, encodingID: 0, languageID: 0) })
        try expect("family-names", .warning, in: try edited { try $0.name.set(4, "Something Else") })
    }

    @Test func verticalMetricsAndSharedTables() throws {
        // USE_TYPO_METRICS with typo values that differ from hhea.
        try expect(
            "vertical-metrics", .warning, in: try edited { try $0.os2?.set("fsSelection", .int(0x80)) }, mentioning: "USE_TYPO_METRICS")
        let font = try Font(path: Corpus.wqy)
        try font.faces[1].maxp.setRaw("numGlyphs", Int64(try font.faces[1].glyphCount - 1))   // set() refuses it
        let found = Validator.validate(try Font(data: try font.serialized().bytes))
        #expect(found.contains { $0.check == "shared-tables" && $0.severity == .error }, "\(found.filter { $0.severity == .error })")
    }

    @Test func checksTheHardeningIssueFoundMissing() throws {
        // unitsPerEm 0 (written under the field description's range check, as a hostile file would have it).
        try expect("units-per-em", .error, in: try edited { try $0.head.setRaw("unitsPerEm", 0) }, mentioning: "is 0")
        // An hhea ascender below the cap height (Liberation Sans has OS/2 v3 with sCapHeight 1409).
        let liberation = try Font(path: Corpus.path("liberation-sans"))
        try liberation.faces[0].hhea.set("ascender", .int(1000))
        let found = Validator.validate(try Font(data: try liberation.serialized().bytes))
        #expect(found.contains { $0.check == "vertical-metrics" && $0.message.contains("below the cap height 1409") }, "\(found)")
        #expect(!Validator.validate(try Font(path: Corpus.path("liberation-sans"))).contains { $0.message.contains("cap height") })
    }

    /// What a reader refuses, validate reports: a kern subtable whose nPairs outruns its data
    /// (dump and Lua refuse it) was "0 errors".
    @Test func tablesTheReadersRefuseAreErrors() throws {
        try expect("table-decodable", .error, in: try patched("kern", at: 10, [0xFF, 0xFF]), mentioning: "pairs do not fit")
        // An fvar whose axis records run past the table (axisCount raised).
        let inter = try Font(path: Corpus.path("inter-vf"))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path("inter-vf"))))
        var broken = bytes
        let fvar = try #require(MalformedFontTests.record("fvar", in: broken))
        broken[fvar.offset + 8] = 0x10   // axisCount 4096
        #expect(Validator.validate(inter).allSatisfy { $0.check != "table-decodable" })
        let found = Validator.validate(try Font(data: broken))
        #expect(found.contains { $0.check == "table-decodable" && $0.message.contains("fvar") }, "\(found)")
        // Inter's GSUB (readable since FeatureParams are described) has Coverage ranges that
        // overlap by one glyph: in order, so lookups still find every glyph: a warning.
        var layout = Validator.validate(inter).filter { $0.check == "layout-structure" }
        #expect(
            layout.allSatisfy { $0.severity == .warning }
                && layout.contains { $0.message.contains("Coverage ranges overlap (glyph 1302 is covered twice)") }, "\(layout)")
        // A glyph listed twice in a format 1 Coverage (the Noto Looped fonts ship [92, 96, 96, …])
        // is the same warning; a Coverage that goes backwards stays an error.
        for (glyphs, severity) in [([92, 96, 96, 100], Finding.Severity.warning), ([92, 100, 96], .error)] {
            // Checked in memory: a save would refuse the error (the edit introduced it).
            let font = try Font(data: Self.dejavu)
            let gdef = try #require(try font.faces[0].gdef)
            var root = try gdef.root
            var sets = StructFields()
            sets["MarkSetTableFormat"] = .int(1)
            sets["Coverage"] = .list([.glyphs(GlyphRuns(glyphs))])
            root["MarkGlyphSetsDef"] = .record(sets)
            root["Version"] = .int(0x0001_0002)
            _ = gdef.replaceRoot(root)
            layout = Validator.validate(font, checks: ["layout-structure"])
            #expect(layout.contains { $0.severity == severity && $0.message.contains("MarkGlyphSetsDef") }, "\(glyphs): \(layout)")
        }
    }

    @Test func cffFontNameMustMatchNameID6() throws {
        let tmp = try TemporaryFolder()
        let font = try Font(path: try builtFont("cff", in: tmp))
        try font.faces[0].name.set(6, "Renamed-Regular")   // the CFF FontName stays TestCFF-Regular
        let found = Validator.validate(try Font(data: try font.serialized().bytes))
        #expect(
            found.contains { $0.check == "postscript-name" && $0.severity == .error && $0.message.contains("TestCFF-Regular") }, "\(found)")
        // And the save gate refuses what the edit introduced.
        #expect { try font.save(to: tmp.file("renamed.otf")) } throws: { "\($0)".contains("CFF FontName") }
    }

    /// Contextual lookups that call each other round (Roboto's chained lookups 4 and 8 made to
    /// call one another) and a feature naming a lookup that does not exist are reported.
    @Test func layoutCyclesAndBadIndices() throws {
        let font = try Font(path: Corpus.path("roboto"))
        let face = font.faces[0]
        #expect(!Validator.validate(font).contains { $0.check == "layout-structure" })
        func pointCalls(_ v: StructValue, to target: Int) -> StructValue {
            switch v {
            case .record(var f):
                for name in f.names { f[name] = name == "LookupListIndex" ? .int(Int64(target)) : pointCalls(f[name]!, to: target) }
                return .record(f)
            case .formatted(let n, var f):
                for name in f.names { f[name] = name == "LookupListIndex" ? .int(Int64(target)) : pointCalls(f[name]!, to: target) }
                return .formatted(n, f)
            case .list(let items): return .list(items.map { pointCalls($0, to: target) })
            case .switched(let k, let inner): return .switched(k, pointCalls(inner, to: target))
            default: return v
            }
        }
        let gsub = try #require(try face.structuredTable("GSUB"))
        var root = try gsub.root
        guard case .record(var list)? = root["LookupList"], case .list(var lookups)? = list["Lookup"] else {
            Issue.record("no lookups"); return
        }
        #expect(Face.realType(lookups[4]) == 6 && Face.realType(lookups[8]) == 6)
        lookups[4] = pointCalls(lookups[4], to: 8)
        lookups[8] = pointCalls(lookups[8], to: 4)
        list["Lookup"] = .list(lookups)
        root["LookupList"] = .record(list)
        guard case .record(var features)? = root["FeatureList"], case .list(var records)? = features["FeatureRecord"],
            case .record(var first) = records[0], case .record(var feature)? = first["Feature"]
        else { Issue.record("no features"); return }
        feature["LookupListIndex"] = .list([.int(999)])
        first["Feature"] = .record(feature); records[0] = .record(first)
        features["FeatureRecord"] = .list(records); root["FeatureList"] = .record(features)
        #expect(gsub.replaceRoot(root))
        let messages = Validator.validate(font).filter { $0.check == "layout-structure" }.map(\.message)
        #expect(messages.contains { $0.contains("cycle") && $0.contains("lookup 4 → lookup 8 → lookup 4") }, "\(messages)")
        #expect(messages.contains { $0.contains("lookup 999 does not exist") }, "\(messages)")
    }
}
