import Foundation
import Testing
@testable import FontModel

/// Issue 33, item 1: a glyph edit in a variable font keeps its variation data in step, so a caps
/// variant shapes lowercase exactly as uppercase at every location, not only at the default
/// (HarfBuzz reads advances from HVAR, outlines from gvar or CFF2 blends).
@Suite struct VariableGlyphEditTests {
    /// hb-shape's advances alone, one per glyph.
    static func advances(_ font: String, _ text: String, _ location: String) throws -> [String] {
        let r = try run("hb-shape", ["--variations=" + location, "--no-glyph-names", "--no-clusters", font, text])
        #expect(r.status == 0, "\(r.err)")
        return r.out.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|").map {
            String($0.split(separator: "+").last ?? "")
        }
    }

    static let locations = ["wght=100,wdth=100", "wght=900,wdth=100", "wght=650,wdth=50", "wght=900,wdth=75", "wght=250,wdth=60"]

    /// Two axes; HVAR through an advance map and a side-bearing map, HVAR rows in glyph order
    /// with no maps, and a CFF2 font (its outlines blend, its advances come from HVAR alone).
    @Test(arguments: ["variable-metrics", "variable-metrics-direct", "cff2-metrics"])
    func capsVariantShapesLowercaseAsUppercaseEverywhere(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let path = try builtFont(kind, in: folder)
        // The font as built: lowercase is narrower than uppercase away from the default too.
        #expect(try Self.advances(path, "ab", "wght=900,wdth=100") != Self.advances(path, "AB", "wght=900,wdth=100"))
        let font = try Font(path: path)
        #expect(try font.faces[0].copyCapitalsOntoLowercase() == 2)
        let out = folder.file("caps.ttf")
        let report = try font.save(to: out)
        #expect(report.reencodedTables.contains("HVAR"), "\(report)")
        for location in Self.locations {
            #expect(try Self.advances(out, "ab", location) == Self.advances(out, "AB", location), "\(location)")
        }
        // The outline too: the lowercase glyph draws as the capital at a location off the default.
        let caps = try Font(path: out).faces[0]
        let a = try #require(try caps.glyphID(for: "a")), A = try #require(try caps.glyphID(for: "A"))
        if let cff2 = try caps.cff2 {
            #expect(try cff2.outline(a, at: [0.5, -0.5]).path == cff2.outline(A, at: [0.5, -0.5]).path)
        }
        let (ok, message) = try otsAccepts(out)
        #expect(ok, "\(message)")
    }

    /// A real two-axis font (Inter: wght and slnt, HVAR through a DeltaSetIndexMap).
    @Test func interCapsVariantShapesAlikeAtEveryLocation() throws {
        let folder = try TemporaryFolder()
        let font = try Font(path: "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf")
        try font.faces[0].copyCapitalsOntoLowercase()
        let out = folder.file("caps.ttf")
        _ = try font.save(to: out)
        for location in ["wght=100", "wght=900", "wght=900,slnt=-10", "wght=250,slnt=-5"] {
            #expect(
                try Self.advances(out, "the quick brown fox jumps", location) == Self.advances(out, "THE QUICK BROWN FOX JUMPS", location),
                "\(location)")
        }
    }

    /// One glyph copy (not the caps edit): the target's advance follows the source's at every
    /// location, and the glyphs not copied keep theirs.
    @Test func aGlyphCopyCarriesItsAdvanceVariation() throws {
        let folder = try TemporaryFolder()
        let path = try builtFont("variable-metrics", in: folder)
        let font = try Font(path: path)
        let face = font.faces[0]
        try face.copyOutline(from: try #require(try face.glyphID(named: "B")), to: try #require(try face.glyphID(named: "a")))
        let out = folder.file("copy.ttf")
        _ = try font.save(to: out)
        for location in Self.locations {
            let after = try Self.advances(out, "aBAb", location), before = try Self.advances(path, "aBAb", location)
            #expect(after[0] == after[1] && after[2] == before[2] && after[3] == before[3], "\(location): \(before) → \(after)")
        }
    }

    /// New contours with other points: the glyph's old deltas cannot apply, so it stops
    /// varying (gvar and HVAR), and the font stays consistent.
    @Test func newContoursStopAGlyphVarying() throws {
        let folder = try TemporaryFolder()
        let path = try builtFont("variable-metrics", in: folder)
        let font = try Font(path: path)
        let face = font.faces[0]
        let a = try #require(try face.glyphID(named: "a"))
        let triangle = [
            [GlyphPoint(x: 50, y: 0, onCurve: true), GlyphPoint(x: 250, y: 500, onCurve: true), GlyphPoint(x: 450, y: 0, onCurve: true)]
        ]
        #expect(try face.setContours(a, triangle))
        let out = folder.file("triangle.ttf")
        let report = try font.save(to: out)
        #expect(report.reencodedTables.contains("gvar") && report.reencodedTables.contains("HVAR"), "\(report)")
        let defaultAdvance = try Self.advances(out, "a", "wght=400,wdth=100")
        for location in Self.locations { #expect(try Self.advances(out, "a", location) == defaultAdvance, "\(location)") }
        #expect(try Self.advances(out, "A", "wght=900,wdth=100") != Self.advances(out, "A", "wght=400,wdth=100"))
        #expect(Validator.validate(try Font(path: out)).filter { $0.check == "variation-consistency" } == [])
        let (ok, message) = try otsAccepts(out)
        #expect(ok, "\(message)")
        // The same points moved keep their deltas.
        let nudged = try Font(path: path)
        let b = try #require(try nudged.faces[0].glyphID(named: "b"))
        let moved = try nudged.faces[0].glyf!.glyph(b).contours.map { $0.map { GlyphPoint(x: $0.x + 5, y: $0.y, onCurve: $0.onCurve) } }
        #expect(try !nudged.faces[0].setContours(b, moved))
    }

    /// Issue 33, item 2: fonts fontTools edited inconsistently get a warning naming the glyphs.
    @Test func validateWarnsWhenVariationTablesDisagree() throws {
        let folder = try TemporaryFolder()
        let path = try builtFont("variable-metrics", in: folder)
        #expect(Validator.validate(try Font(path: path)).filter { $0.check == "variation-consistency" } == [])
        let edits = [
            // gvar moves a's advance further at wght=900; HVAR is left as it was.
            ("gvar", "f['gvar'].variations['a'][0].coordinates[5] = (90, 0)", "HVAR disagrees with gvar"),
            // a loses a point; its deltas still count five points.
            (
                "outline",
                "from fontTools.ttLib.tables._g_l_y_f import GlyphCoordinates\ng = f['glyf']['a']; g.coordinates = GlyphCoordinates(list(g.coordinates)[:3]); g.flags = g.flags[:3]; g.endPtsOfContours = [2]",
                "do not fit the outlines"
            ),
        ]
        for (name, edit, expected) in edits {
            let out = folder.file("\(name).ttf")
            let script = "from fontTools.ttLib import TTFont\nf = TTFont('\(path)')\n\(edit)\nf.save('\(out)')\n"
            let r = try run("python3", ["-c", script])
            #expect(r.status == 0, "\(r.err)")
            let findings = Validator.validate(try Font(path: out)).filter { $0.check == "variation-consistency" }
            #expect(
                findings.count == 1
                    && findings.allSatisfy { $0.severity == .warning && $0.message.contains(expected) && $0.message.contains("(a)") },
                "\(name): \(findings)")
        }
    }

    /// Delta-set maps are written in their smallest form and read back as they were: trailing
    /// repeats of the last entry left off, entries in as few bytes as the largest needs.
    @Test func deltaSetIndexMapsRoundTrip() throws {
        func read(_ bytes: [UInt8]) throws -> DeltaSetIndexMap {
            try bytes.withUnsafeBytes { try DeltaSetIndexMap(BinaryReader($0), at: 0, what: "test") }
        }
        for entries in [[(0, 3), (0, 3), (1, 200), (1, 200), (1, 200)], [(0, 0)], [(5, 60_000), (0, 1)]] {
            var map = try read([0, 0x00, 0, 1, 0])
            map.entries = entries.map { (outer: $0.0, inner: $0.1) }
            let bytes = try map.encode()
            let read = try read(bytes)
            for i in 0..<entries.count + 3 {
                let (a, b) = (try #require(read.index(i)), try #require(map.index(i)))
                #expect(a == b, "\(entries) at \(i)")
            }
            #expect(read.entries.count <= entries.count)
        }
        // A copy past the map's end fills it out with the last entry first.
        var short = try read([0, 0x03, 0, 2, 4, 5])   // 4 inner bits
        short.set(4, (0, 4))
        #expect(short.entries.map(\.inner) == [4, 5, 5, 5, 4])
    }
}
