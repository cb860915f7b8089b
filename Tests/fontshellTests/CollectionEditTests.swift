import Foundation
import Testing

/// Glyph edits through one face of a collection: said out loud, or kept to that face.
@Suite struct CollectionEditTests {
    let wqy = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

    @Test func capsOnOneFaceWarnsWhichOthersChangeUnlessUnshared() throws {
        let tmp = try TemporaryFolder()
        let shared = try runFontshell(["edit", wqy, "-o", tmp.file("a.ttc"), "--face", "1", "--caps"])
        #expect(shared.status == 0, "\(shared.err)")
        #expect(shared.err.contains("face 1 shares its glyph data with faces 0, 2"), "\(shared.err)")
        let alone = try runFontshell(["edit", wqy, "-o", tmp.file("b.ttc"), "--face", "1", "--caps", "--unshare"])
        #expect(alone.status == 0 && !alone.err.contains("warning"), "\(alone.err)")
        let check = try runFontshell([
            "-e",
            """
            local function outline(g)
              local parts = {}
              for _, contour in ipairs(g.contours) do for _, p in ipairs(contour) do parts[#parts + 1] = p.x .. ',' .. p.y end end
              return table.concat(parts, ' ')
            end
            local function caps(face) return outline(face:glyphFor('a')) == outline(face:glyphFor('A')) end
            print(caps(fonts[1].faces[1]), caps(fonts[1].faces[2]), caps(fonts[1].faces[3]))
            """, tmp.file("b.ttc"),
        ])
        #expect(check.out.trimmingCharacters(in: .whitespacesAndNewlines) == "false\ttrue\tfalse", "\(check)")
    }

    @Test func luaCopyFromWarnsOnceAndUnshareKeepsTheOthers() throws {
        let r = try runFontshell([
            "-e",
            """
            local face = fonts[1].faces[2]
            for _, c in ipairs{'a', 'b', 'c'} do face:glyphFor(c):copyFrom(face:glyphFor(c:upper())) end
            local other = fonts[1].faces[3]
            print(#other:unshare() > 0)
            """, wqy,
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.components(separatedBy: "warning").count == 2, "one warning: \(r.err)")
        #expect(r.err.contains("face 1 shares its glyph data with faces 0, 2"))
        #expect(r.out.contains("true"))
    }
}
