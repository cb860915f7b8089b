import Testing

@testable import FontModel

/// The pieces of feature-file support that need no font: where the REPL completes feature
/// words, and the line diff behind `diff --fea`.
@Suite struct FeatureTextTests {
    @Test func completionKnowsWhenItIsInsideFeatureText() {
        #expect(FeatureFileWords.endsInsideFeatureText("face:addFeatures[[feature liga { su"))
        #expect(FeatureFileWords.endsInsideFeatureText("face:addFeatures [[\nfeature liga {\n  looku"))
        #expect(FeatureFileWords.endsInsideFeatureText("face:addFeatures(\"feature kern { po"))
        #expect(!FeatureFileWords.endsInsideFeatureText("face:addFeatures[[feature liga { sub f i by f_i; } liga;]] fa"))
        #expect(!FeatureFileWords.endsInsideFeatureText("face:addFeatures(\"x.fea\") face.hh"))
        #expect(!FeatureFileWords.endsInsideFeatureText("face.hh"))
        #expect(FeatureFileWords.keywords.contains("lookupflag") && FeatureFileWords.keywords == FeatureFileWords.keywords.sorted())
        // Variable feature files, STAT and the fields of table blocks complete too.
        #expect(
            ["conditionset", "variation", "DesignAxis", "VertOriginY", "Ascender", "Vendor"].allSatisfy(FeatureFileWords.keywords.contains))
    }

    @Test func unifiedDiffOfLines() {
        #expect(FeatureDiff.unified(["a", "b", "c"], ["a", "b", "c"]).isEmpty)
        #expect(FeatureDiff.unified(["a", "b", "c"], ["a", "c"]) == ["@@ -1,3 +1,2 @@", " a", "-b", " c"])
        #expect(FeatureDiff.unified(["x"], ["y", "z"]) == ["@@ -1,1 +1,2 @@", "-x", "+y", "+z"])
        // Changes far apart are separate hunks, each with two lines of context.
        let a = (0..<20).map(String.init)
        var b = a
        b[2] = "two"
        b[17] = "seventeen"
        let hunks = FeatureDiff.unified(a, b).filter { $0.hasPrefix("@@") }
        #expect(hunks == ["@@ -1,5 +1,5 @@", "@@ -16,5 +16,5 @@"])
    }

    @Test func aDiffPastTheEditLimitSaysSo() {
        let a = (0..<5000).map { "a\($0)" }, b = (0..<5000).map { "b\($0)" }
        let out = FeatureDiff.unified(a, b)
        #expect(out.count == 1 && out[0].contains("more than \(FeatureDiff.maxEdits) lines"))
    }
}

/// Compiling a feature file into a face changes it only when every part compiles.
@Suite struct FeatureCompileTests {
    /// A value a field refuses (hhea's line gap past Int16) comes after a name record and a
    /// field that fit: none of them, and none of the layout, reaches the face.
    @Test func aRefusedFieldLeavesTheFaceAsItWas() throws {
        let face = try Font(path: Corpus.dejavu).faces[0]
        let gsub = try face.rawTable("GSUB"), ascender = try #require(try face.fieldTable("hhea")).int("ascender")
        let text = """
            table name { nameid 300 "Added"; } name;
            table hhea { Ascender 1000; LineGap 99999999; } hhea;
            feature liga { sub f i by fi; } liga;
            """
        #expect(throws: FeatureFileError.self) { try face.compileFeatures(Array(text.utf8), file: "t.fea") }
        #expect(try face.rawTable("GSUB") == gsub)
        #expect(try #require(try face.fieldTable("hhea")).int("ascender") == ascender)
        #expect(try face.table(NameTable.self)?.records.contains { $0.nameID == 300 } == false)
    }
}
