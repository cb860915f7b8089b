import Foundation
import Testing
@testable import FontModel

/// Flattened kerning (`KerningPairs`) against fontTools walking the same tables by the same
/// rules, and against malformed pair tables.
@Suite struct KerningTests {
    static let roboto = Corpus.path("roboto"), liberation = Corpus.path("liberation-sans")

    /// The count and an order-independent checksum of the pairs, as Scripts/bench-py/kerning_pairs.py prints them.
    static func summary(_ pairs: [(left: Int, right: Int, value: Int)]) -> String {
        let m = 1_000_000_007
        var sum = 0
        for p in pairs { sum = (sum + ((p.left * 65536 + p.right) % m) * (((p.value % m) + m) % m)) % m }
        return "\(pairs.count) \(sum)"
    }

    @Test(arguments: [roboto, Corpus.noto, Corpus.dejavu, liberation])
    func gposPairsAreWhatFontToolsFinds(path: String) throws {
        let face = try Font(path: path).faces[0]
        let pairs = try KerningPairs(face: face)
        #expect(pairs.source == "GPOS")
        let ours = Self.summary(pairs.all())
        let script = repositoryRoot.appendingPathComponent("Scripts/bench-py/kerning_pairs.py").path
        let theirs = try run("python3", [script, path])
        #expect(theirs.status == 0, "\(theirs.err)")
        #expect(ours == theirs.out.trimmingCharacters(in: .whitespacesAndNewlines), "\(path)")
        // The list and indexed access agree, and single lookups agree with the rows.
        #expect(pairs.count == pairs.all().count)
        for i in stride(from: 0, to: pairs.count, by: max(1, pairs.count / 50)) {
            let p = pairs[i]
            #expect(pairs.value(p.left, p.right) == p.value)
        }
    }

    /// Without a GPOS `kern` feature, the `kern` table is read (DejaVu's format 0, checked
    /// against fontTools' reading of it).
    @Test func kernTableIsReadWhenGPOSHasNoKernFeature() throws {
        let face = try Font(path: Corpus.dejavu).faces[0]
        face.removeTable("GPOS")
        let pairs = try KerningPairs(face: face)
        #expect(pairs.source == "kern")
        let theirs = try run(
            "python3",
            [
                "-c",
                """
                import sys
                from fontTools.ttLib import TTFont
                f = TTFont(sys.argv[1]); order = {n: i for i, n in enumerate(f.getGlyphOrder())}
                total = {}
                for st in f["kern"].kernTables:
                    if st.format == 0 and st.coverage & 7 == 1:
                        for (l, r), v in st.kernTable.items(): total[(order[l], order[r])] = total.get((order[l], order[r]), 0) + v
                flat = [(l, r, v) for (l, r), v in total.items() if v]
                print(len(flat), sum((l * 65536 + r) * v for l, r, v in flat) % 1000000007)
                """, Corpus.dejavu,
            ])
        #expect(theirs.status == 0, "\(theirs.err)")
        #expect(Self.summary(pairs.all()) == theirs.out.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(pairs.count > 1000)
        // Values that do not fit their fields are refused at the edit, not trapped on save.
        let kern = try #require(try face.kern)
        #expect(throws: FontError.self) { try kern.setSubtables([KernTable.Subtable(format: 1000)]) }
        #expect(throws: FontError.self) { try kern.setSubtables([KernTable.Subtable(coverage: 300)]) }
        #expect(throws: FontError.self) { try kern.setSubtables([KernTable.Subtable(pairs: [KernTable.KernPair(1, 2, 40000)])]) }
    }

    /// A pair table cut short is a FontError naming the table and an offset; bytes changed at
    /// random never crash (they give pairs or an error).
    @Test func malformedPairTablesGiveErrorsNotCrashes() throws {
        let face = try Font(path: Self.roboto).faces[0]
        let gpos = try #require(try face.rawTable("GPOS"))
        face.setRawTable("GPOS", Array(gpos.prefix(gpos.count / 2)))
        #expect(throws: FontError.self) { _ = try KerningPairs(face: face).count }
        do { _ = try KerningPairs(face: face) } catch let e as FontError {
            #expect(e.description.contains("GPOS") && e.description.contains("past the end"), "\(e)")
        }
        // Liberation's small GPOS for the random part (Roboto's 168k pairs are slow in debug builds).
        let small = try Font(path: Self.liberation).faces[0]
        let smallGPOS = try #require(try small.rawTable("GPOS"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = smallGPOS
            for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            small.setRawTable("GPOS", bytes)
            if let pairs = try? KerningPairs(face: small) { _ = pairs.count; if pairs.count > 0 { _ = pairs[pairs.count - 1] } }
        }
    }

    /// A kern format 2 subtable whose right class table runs past glyph id 65,535 (first glyph
    /// 65,500, 100 glyphs) is read up to the last glyph id there can be; it used to trap.
    @Test func kernClassesPastTheLastGlyphIdAreCutOff() throws {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var subtable = u16(0) + u16(226) + [2, 1]   // version, length, format 2, horizontal
        subtable += u16(2) + u16(14) + u16(20) + u16(224)   // row width, left, right, array
        subtable += u16(0) + u16(1) + u16(0)   // left classes: glyph 0
        subtable += u16(65500) + u16(100) + [UInt8](repeating: 0, count: 200)   // right classes: 65,500…65,599
        subtable += u16(-40 & 0xFFFF)   // the one value
        let face = try Font(path: Corpus.dejavu).faces[0]
        face.removeTable("GPOS")
        face.setRawTable("kern", u16(0) + u16(1) + subtable)
        let pairs = try KerningPairs(face: face)
        #expect(pairs.source == "kern")
        #expect(pairs.all().allSatisfy { $0.right <= 0xFFFF })
    }

    /// The same in GPOS: a ClassDef format 1 starting at glyph 65,500 with 100 classes is read
    /// up to glyph id 65,535 (it used to trap).
    @Test func classDefPastTheLastGlyphIdIsCutOff() throws {
        let gpos = Self.classPairGPOS(
            coverage: u16(2) + u16(1) + u16(0) + u16(0) + u16(0),   // glyph 0
            classDef2: u16(1) + u16(65500) + u16(100) + Array([[UInt8]](repeating: u16(1), count: 100).joined()))
        let face = try Font(path: Self.liberation).faces[0]
        face.setRawTable("GPOS", gpos)
        let pairs = try KerningPairs(face: face)
        #expect(pairs.all().allSatisfy { $0.right <= 0xFFFF })
    }

    /// A 98-byte GPOS whose one class pair subtable covers every glyph id and classes every
    /// glyph id (65,536 × 65,536 pairs) is refused up front, not expanded.
    @Test func classKerningThatSpellsOutBillionsIsRefused() throws {
        let gpos = Self.classPairGPOS(
            coverage: u16(2) + u16(1) + u16(0) + u16(0xFFFF) + u16(0),   // every glyph
            classDef2: u16(2) + u16(1) + u16(0) + u16(0xFFFF) + u16(1))   // every glyph in class 1
        let face = try Font(path: Self.liberation).faces[0]
        face.setRawTable("GPOS", gpos)
        #expect { _ = try KerningPairs(face: face) } throws: { "\($0)".contains("more than the 50000000") }
        #expect(throws: FontError.self) { _ = try face.kerning(36, 57) }
    }

    func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A GPOS of one class pair subtable (PairPos format 2, XAdvance -10 for class pair 0/1)
    /// under 'kern' for DFLT, with the given coverage and second ClassDef; ClassDef1 is empty.
    static func classPairGPOS(coverage: [UInt8], classDef2: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var gpos: [UInt8] = [0, 1, 0, 0] + u16(10) + u16(30) + u16(44)
        gpos += u16(1) + Array("DFLT".utf8) + u16(8) + u16(4) + u16(0) + u16(0) + u16(0xFFFF) + u16(1) + u16(0)   // ScriptList
        gpos += u16(1) + Array("kern".utf8) + u16(8) + u16(0) + u16(1) + u16(0)   // FeatureList
        gpos += u16(1) + u16(4) + u16(2) + u16(0) + u16(1) + u16(8)   // LookupList
        gpos += u16(2) + u16(20) + u16(4) + u16(0) + u16(30) + u16(34) + u16(1) + u16(2) + u16(0) + u16(0xFFF6)   // PairPos 2
        return gpos + coverage + u16(2) + u16(0) + classDef2   // ClassDef1: none
    }
}
