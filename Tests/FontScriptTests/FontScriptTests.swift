import Foundation
import Testing
@testable import FontModel
@testable import FontScript
import FontXML
@testable import LuaBridge
@_exported import TestSupport

let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
let noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

func makeState(fonts: [String] = [dejavu]) throws -> LuaState {
    let lua = LuaState()
    try FontScript.install(in: lua)
    try FontScript.bind(fontPaths: fonts, in: lua)
    return lua
}

/// Runs a chunk and returns its results as strings (tostring).
func eval(_ lua: LuaState, _ code: String) throws -> [String] {
    let n = try lua.run(code, name: "=test")
    defer { lua.stack.pop(n) }
    return (0..<n).map { lua.stack.describe(at: -n + $0) }
}

/// Runs `code` expecting a Lua error containing `expected`, positioned at the chunk ("test:")
/// unless told otherwise, with the stack as it was.
func expectError(
    _ lua: LuaState, _ code: String, _ expected: String, positioned: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
) {
    let before = lua.top
    do {
        _ = try eval(lua, code)
        Issue.record("no error for \(code)", sourceLocation: sourceLocation)
    } catch let e as LuaError {
        #expect(e.message.contains(expected), "\(e.message)", sourceLocation: sourceLocation)
        #expect(e.message.hasPrefix("test:") == positioned, "position: \(e.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
    }
    #expect(lua.top == before, "stack not balanced", sourceLocation: sourceLocation)
}

@Suite struct FontScriptTests {
    /// Web formats and subsets from Lua: save options pick the container and Brotli settings,
    /// font.webFormat says what was opened, face:subset returns a font and what it kept.
    @Test func webFormatsAndSubsetsFromLua() throws {
        let lua = try makeState()
        let dir = NSTemporaryDirectory() + "fontshell-lua-web-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(
            try eval(lua, "local r = font:save('\(dir)/d.woff2', {quality = 3}); return r.container")
                == ["WOFF2, Brotli quality 3; glyf/loca transformed"])
        #expect(try eval(lua, "local r = font:save('\(dir)/d.bin', {format = 'woff', force = false}); return r.container") == ["WOFF"])
        #expect(
            try eval(lua, "local f = fontshell.open('\(dir)/d.woff2'); return f.webFormat, #f.faces[1].glyphs, font.webFormat")
                == ["woff2", "6253", "nil"])
        expectError(lua, "font:save('\(dir)/x.woff2', {quality = 12})", "0...11")
        expectError(lua, "font:save('\(dir)/x.ttf', {format = 'woff2'})", "make them agree")
        expectError(lua, "font:save('\(dir)/x.woff2', {fromat = 'woff2'})", "did you mean 'format'")
        #expect(
            try eval(
                lua,
                """
                local small, s = face:subset{text = "office", glyphs = {"A"}, unicodes = {0x10FFFD}}
                local names = {}
                for _, n in ipairs(s.closure) do names[#names + 1] = n end
                table.sort(names)
                return s.glyphCount, table.concat(names, " "), s.missing[1], s.map[face.glyphs.A.id], #small.faces[1].glyphs
                """) == ["10", "fi uniFB00 uniFB03", "1114109", "1", "10"])
        // Name IDs past 6 (13: the license) go unless kept.
        #expect(
            try eval(
                lua,
                "local a, b = font:subset{text = 'A', keep = {'name'}}, font:subset{text = 'A'}; return a.faces[1].name[4], a.faces[1].name[13] ~= nil, b.faces[1].name[13]"
            )
                == ["DejaVu Sans", "true", "nil"])
        expectError(lua, "face:subset{}", "nothing to keep")
        expectError(lua, "face:subset{glyphs = {'no such glyph'}}", "neither a glyph ID nor a glyph name")
        expectError(lua, "face:subset{unicodes = {'U+7E-20'}}", "runs backwards")
    }

    @Test func readsFieldsNamesGlyphs() throws {
        let lua = try makeState()
        #expect(
            try eval(lua, "return face.hhea.ascender, face['OS/2'].usWinAscent, face.head.unitsPerEm, face.head.fontRevision")
                == ["1901", "1901", "2048", "2.37"])
        #expect(
            try eval(
                lua, "face.head.fontRevision = 2.5; face['OS/2'].achVendID = 'AB'; return face.head.fontRevision, face['OS/2'].achVendID")
                == ["2.5", "AB  "])
        #expect(
            try eval(lua, "return face.postscriptName, face.name[4], #face.glyphs, face.glyphs.A.id, face.glyphs[36].name")
                == ["DejaVuSans", "DejaVu Sans", "6253", "36", "A"])
        #expect(
            try eval(lua, "return face.cmap['A'], face.cmap[0x41], face.cmap:chars(36)[1], face:glyphFor('a').name")
                == ["36", "36", "A", "a"])
        #expect(
            try eval(lua, "local g = face.glyphs.A; return g.bounds.xMax, #g.contours, g.contours[1][1].on, g.isComposite, g.unicodes[1]")
                == ["1384", "2", "true", "false", "65"])
        #expect(try eval(lua, "return face.glyphs.Aacute.isComposite, face.glyphs.Aacute.components[1].name") == ["true", "A"])
        #expect(
            try eval(lua, "return face.glyphs.A == face:glyphFor('A'), face.glyphs.A == face.glyphs.B, font.faces[1] == face")
                == ["true", "false", "true"])
        #expect(try eval(lua, "local n = 0; for k, v in pairs(face.hhea) do n = n + 1 end; return n") == ["18"])
        #expect(try eval(lua, "local n = 0; for id, g in pairs(face.glyphs) do n = n + 1 end; return n") == ["6253"])
        #expect(
            try eval(lua, "return tostring(face), tostring(face.glyphs.A)")
                == ["<Face DejaVuSans: 20 tables, 6253 glyphs>", "<Glyph 36 'A' advance 1401>"])
    }

    @Test func editsThroughLuaAreSaved() throws {
        let lua = try makeState()
        let out = NSTemporaryDirectory() + "fontscript-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try eval(
            lua,
            """
            face.hhea.ascender = 1800
            face.name[256] = "hello"
            local a, A = face.glyphs.a, face.glyphs.A
            a:copyFrom(A, {metrics = true})
            face.glyphs.b.advance = 999
            face.glyphs.c.contours = {{{x = 0, y = 0}, {x = 500, y = 0}, {x = 250, y = 700, on = true}}}
            face.cmap[0xE000] = A.id
            report = font:save("\(out)")
            """)
        #expect(try eval(lua, "return report.reencoded[1] ~= nil, report.bytesWritten > 0") == ["true", "true"])
        let reread = try Font(path: out).faces[0]
        #expect(try reread.hhea.int("ascender") == 1800)
        #expect(try reread.name.string(256) == "hello")
        #expect(try reread.hmtx.advance(68) == reread.hmtx.advance(36))
        #expect(try reread.glyf?.glyphData(68) == reread.glyf?.glyphData(36))
        #expect(try reread.hmtx.advance(69) == 999)
        let c = try #require(try reread.glyf?.glyph(70))
        #expect(c.contours.count == 1 && c.bounds == GlyphBounds(xMin: 0, yMin: 0, xMax: 500, yMax: 700))
        #expect(try reread.cmap?.glyph(for: 0xE000) == 36)
    }

    @Test func errorsArePlainWithPositionAndBalanced() throws {
        let lua = try makeState()
        expectError(lua, "return face.hhea.ascendr", "hhea has no field 'ascendr' (did you mean 'ascender'?)")
        expectError(lua, "face.hhea.ascender = 40000", "hhea.ascender is Int16 (-32768...32767), got 40000")
        // A field is set through the one scalar reader of the description language, then checked
        // against what the spec allows and what is derived.
        expectError(lua, "face.hhea.ascender = 1.5", "hhea.ascender must be an integer, got 1.5")
        expectError(lua, "face.hhea.ascender = 'high'", "hhea.ascender must be a number, got string")
        expectError(lua, "face.head.fontRevision = 1e300", "head.fontRevision is Fixed (-32768.0...32767.99998474121), got 1e+300")
        expectError(lua, "face.head.unitsPerEm = 8", "head.unitsPerEm must be 16...16384 (OpenType spec), got 8")
        expectError(lua, "face.hhea.numberOfHMetrics = 3", "hhea.numberOfHMetrics follows the advances in hmtx")
        expectError(lua, "face['OS/2'].achVendID = 'TOOLONG'", "OS/2.achVendID is a tag: 1 to 4 printable ASCII characters")
        expectError(lua, "return face.postscriptname", "Face has no field 'postscriptname' (did you mean 'postscriptName'?)")
        expectError(lua, "face.glyphs.a:copyFrom(3)", "bad argument #1 to 'copyFrom' (Glyph expected, got number)")
        expectError(lua, "face:glyphFor('ab')", "bad argument #1 to 'glyphFor' (expected one character, got 2 in 'ab')")
        expectError(lua, "face.glyphs.a.name = 'x'", "Glyph.name is read-only")
        expectError(lua, "fontshell.open('/nonexistent.ttf')", "/nonexistent.ttf: cannot open")
        expectError(
            lua, "local f = fontshell.open('\(dejavu)'); local g = f.faces[1]; f:close(); return g.hhea", "attempt to use a closed Font")
        expectError(
            lua, "local g; do local f <close> = fontshell.open('\(dejavu)'); g = f end; return g.path", "attempt to use a closed Font")
        expectError(lua, "error({})", "(error object is a table value)", positioned: false)
        expectError(lua, "font:save('\(dejavu)')", "refusing to overwrite the input file")
        expectError(lua, "font:face(7)", "bad argument #1 to 'face' (no face 7")
        // Values no font can store are refused, not trapped on when encoding.
        expectError(lua, "face.cmap['a'] = -5", "glyph id -5 does not exist")
        expectError(lua, "face.name:set(1, 'x', {platform = 70000})", "platform ID 70000 out of range")
        expectError(lua, "face.glyphs.c.contours = {{{x = -30000, y = 0}, {x = 30000, y = 0}, {x = 0, y = 100}}}", "at most ±32767")
    }

    @Test func closedAndCollectedObjectsReleaseTheFont() throws {
        let lua = try makeState(fonts: [])
        try lua.run("f = fontshell.open('\(noto)'); g = f.faces[4].glyphs[100]")
        lua.stack.getGlobal("f")
        weak var handle = try LuaClass.unwrap(lua.L, -1, "Font") as FontHandle
        lua.stack.pop()
        #expect(handle != nil)
        try lua.run("f = nil; collectgarbage(); collectgarbage()")
        #expect(handle != nil)   // g still holds the face, which holds the font
        try lua.run("g = nil; collectgarbage(); collectgarbage()")
        #expect(handle == nil)
    }

    /// GDEF from Lua: members as plain values, assignment checked against the description,
    /// errors positioned, and the edit saved and read back (by us and by fontTools).
    @Test func structuredTablesFromLua() throws {
        let lua = try makeState(fonts: ["/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"])
        #expect(
            try eval(lua, "return face.GDEF.Version, face.GDEF.GlyphClassDef.A, face.GDEF.GlyphClassDef.acutecomb") == ["65538", "1", "3"])
        #expect(
            try eval(lua, "return #face.GDEF.MarkGlyphSetsDef.Coverage, face.GDEF.MarkGlyphSetsDef.Coverage[1][1]") == ["2", "gravecomb"])
        #expect(
            try eval(lua, "local t = {} for k in pairs(face.GDEF) do t[#t + 1] = k end return table.concat(t, ' ')")
                == ["Version GlyphClassDef AttachList LigCaretList MarkAttachClassDef MarkGlyphSetsDef"])
        #expect(
            try eval(lua, "return table.concat(face.GDEF:fields(), ' ')") == [
                "Version GlyphClassDef AttachList LigCaretList MarkAttachClassDef MarkGlyphSetsDef"
            ])
        expectError(lua, "face.GDEF.GlyphClasDef = {}", "GDEF has no member 'GlyphClasDef' (did you mean 'GlyphClassDef'?)")
        expectError(lua, "face.GDEF.GlyphClassDef = {nope = 1}", "GDEF.GlyphClassDef key: no glyph named 'nope'")
        expectError(
            lua, "face.GDEF.AttachList = {Coverage = {'A'}, AttachPoint = {{PointIndex = {1.5}}}}",
            "GDEF.AttachList.AttachPoint[1].PointIndex[1] must be an integer")
        expectError(
            lua, "face.GDEF.LigCaretList = {Coverage = {}, LigGlyph = {{CaretValue = {{Format = 4}}}}}", "needs Format = 1 or 2 or 3")
        expectError(lua, "face.GDEF.AttachList = {Coverage = {}, Typo = 1}", "GDEF.AttachList has no member 'Typo'")
        #expect(try eval(lua, "return face.GDEF.GlyphClassDef.A") == ["1"])   // failed assignments changed nothing
        let out = NSTemporaryDirectory() + "gdef-lua-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try eval(
            lua,
            """
            local g = face.GDEF
            local classes = g.GlyphClassDef
            classes.A, classes.B = 3, nil
            g.GlyphClassDef = classes
            g.LigCaretList = {Coverage = {"f"}, LigGlyph = {{CaretValue = {{Format = 1, Coordinate = 300}, {Format = 2, CaretValuePoint = 4}}}}}
            font:save("\(out)")
            """)
        let check = try python([
            "-c",
            """
            from fontTools.ttLib import TTFont
            g = TTFont("\(out)")["GDEF"].table
            c = g.LigCaretList.LigGlyph[0].CaretValue
            print(g.GlyphClassDef.classDefs.get("A"), g.GlyphClassDef.classDefs.get("B"), g.LigCaretList.Coverage.glyphs, c[0].Format, c[0].Coordinate, c[1].Format, c[1].CaretValuePoint)
            """,
        ])
        #expect(check == "3 None ['f'] 1 300 2 4\n")
    }

    /// Layout questions from Lua, checked against HarfBuzz: the kerning face:kerning reports is
    /// the advance HarfBuzz takes off with `kern` on versus off.
    @Test func featuresLookupsSubstitutionsAndKerning() throws {
        let roboto = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"
        let lua = try makeState(fonts: [roboto])
        #expect(
            try eval(lua, "local n = 0 for _, f in ipairs(face:features('kern')) do n = n + 1 assert(f.table == 'GPOS') end return n") == [
                "4"
            ])
        #expect(
            try eval(lua, "local l = face:lookups('GPOS') return #l, l[2].typeName, l[13].typeName, l[13].extension") == [
                "14", "PairPos", "MarkMarkPos", "true",
            ])
        #expect(
            try eval(lua, "local s = face:substitutions('liga')[1] return table.concat(s['in'], ' '), s.out[1]") == ["f f i", "uniFB03"])
        expectError(lua, "face:lookups('kern')", "\"GSUB\" or \"GPOS\" expected")
        expectError(lua, "face:kerning('A', 'nope')", "no glyph named 'nope'")
        for pair in ["AV", "To", "Ta", "LT", "ab"] {
            let first = String(pair.prefix(1)), second = String(pair.suffix(1))
            let ours = try eval(lua, "return face:kerning(face:glyphFor('\(first)'), face:glyphFor('\(second)'))")
            func advance(_ features: String) throws -> Int {
                let out = try python([
                    "-c",
                    """
                    import subprocess
                    r = subprocess.run(["hb-shape", "--no-glyph-names", "--no-clusters", "--features=\(features)", "\(roboto)", "\(pair)"], capture_output=True, text=True)
                    print(r.stdout.strip().strip("[]").split("|")[0].split("+")[1])
                    """,
                ])
                return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .min
            }
            #expect(ours == [String(try advance("kern") - advance("-kern"))], "\(pair)")
        }
    }

    /// The geometry checks use, from Swift: areas exact for curves, crossings between contours
    /// (touching is not crossing), curve extremes without points; and kerning picked without a
    /// table per pair, agreeing with a walk over every pair in Lua.
    @Test func outlineGeometryAndKerningSelections() throws {
        let lua = try makeState()
        let set = "local g = face.glyphs.A; g.contours = "
        let square = "{x = 0, y = 0}, {x = 100, y = 0}, {x = 100, y = 100}, {x = 0, y = 100}"
        // Counter-clockwise square, then a quadratic bulge: 5000 for the triangle plus two
        // thirds of the control triangle (3333.3…), clockwise; a composite has none.
        #expect(try eval(lua, set + "{{\(square)}} return g:contourAreas()[1]") == ["10000.0"])
        #expect(
            try eval(
                lua,
                set
                    + "{{{x = 0, y = 0}, {x = 0, y = 100}, {x = 100, y = 100, on = false}, {x = 100, y = 0}}} return string.format('%.3f', g:contourAreas()[1])"
            ) == ["-8333.333"])
        // Two squares crossing, one inside another, and two sharing an edge.
        let moved = { (dx: Int, dy: Int) in
            "{x = \(dx), y = \(dy)}, {x = \(dx + 100), y = \(dy)}, {x = \(dx + 100), y = \(dy + 100)}, {x = \(dx), y = \(dy + 100)}"
        }
        #expect(
            try eval(lua, set + "{{\(square)}, {\(moved(300, 0))}, {\(moved(50, 50))}} local o = g:overlaps() return #o, o[1][1], o[1][2]")
                == ["1", "1", "3"])
        #expect(
            try eval(
                lua,
                set + "{{{x = -50, y = -50}, {x = 200, y = -50}, {x = 200, y = 200}, {x = -50, y = 200}}, {\(square)}} return #g:overlaps()"
            ) == ["0"])
        #expect(try eval(lua, set + "{{\(square)}, {\(moved(100, 0))}} return #g:overlaps()") == ["0"])
        // A quadratic arch peaking at y = 50 with no point there; within a tolerance of 60 it is fine.
        let arch = "{{{x = 0, y = 0}, {x = 50, y = 100, on = false}, {x = 100, y = 0}}}"
        #expect(try eval(lua, set + "\(arch) local e = g:missingExtrema() return #e, e[1].x, e[1].y") == ["1", "50", "50"])
        #expect(try eval(lua, set + "\(arch) return #g:missingExtrema(60)") == ["0"])
        expectError(lua, "face.glyphs.A:missingExtrema(-1)", "tolerance must be a number ≥ 0")
        let composite = try eval(
            lua, "for _, g in ipairs(face.glyphs) do if g.isComposite then return #g:contourAreas(), #g:overlaps() end end")
        #expect(composite == ["0", "0"])
        // Kerning: the Swift picks equal a walk over every pair.
        #expect(
            try eval(
                lua,
                """
                local kp = face:kerningPairs()
                local far, same = {}, {}
                for left, right, v in kp:each() do
                  if math.abs(v) > 100 then far[#far + 1] = left .. right .. v end
                  if left == right then same[#same + 1] = left .. right .. v end
                end
                local function joined(list) local t = {} for i, p in ipairs(list) do t[i] = p[1] .. p[2] .. p[3] end return table.concat(t, ",") end
                assert(#far > 0 and #same > 0)
                return joined(kp:beyond(100)) == table.concat(far, ","), joined(kp:selfPairs()) == table.concat(same, ",")
                """)
                == ["true", "true"])
    }

    @Test func everyBoundNameIsDocumented() throws {
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/lua-api.md"), encoding: .utf8)
        let missing = FontScript.boundNames.filter { !doc.contains("`\($0)") }
        #expect(missing.isEmpty, "not in docs/lua-api.md: \(missing)")
    }

    @Test func completionAndMembers() throws {
        let lua = try makeState()
        #expect(try eval(lua, "return table.concat(fontshell.complete('face.hh'), ',')") == ["face.hhea"])
        #expect(try eval(lua, "return table.concat(fontshell.complete('face.hhea.asc'), ',')") == ["face.hhea.ascender"])
        #expect(try eval(lua, "return table.concat(fontshell.complete('face:gl'), ',')") == ["face:glyphFor"])
        #expect(try eval(lua, "return table.concat(fontshell.complete('fontsh'), ',')") == ["fontshell"])
        #expect(try eval(lua, "return table.concat(fontshell.complete('os.ex'), ',')") == ["os.execute,os.exit"])
        #expect(try eval(lua, "return fontshell.pretty({1, 'a', {b = true}})") == ["{1, \"a\", {b = true}}"])
        #expect(
            try eval(lua, "return table.concat(fontshell.complete(\"face['OS/2'].usW\"), ',')") == [
                "face['OS/2'].usWeightClass,face['OS/2'].usWidthClass,face['OS/2'].usWinAscent,face['OS/2'].usWinDescent"
            ])
        #expect(try eval(lua, "return table.concat(fontshell.complete('face.glyphs.Aac'), ',')") == ["face.glyphs.Aacute"])
        #expect(try eval(lua, "return table.concat(fontshell.complete('preview.la'), ',')") == ["preview.label"])
    }

    /// compare aligns on baselines when asked (the ink that changed shape, not where it sits)
    /// and counts a label within its box, not its legend strip.
    @Test func compareAlignsBaselinesAndSkipsLegends() throws {
        let lua = try makeState()
        let r = try eval(
            lua,
            """
            local a = preview.text(face, "Hi", {size = 40})
            face.hhea.ascender = face.hhea.ascender + 400
            local b = preview.text(face, "Hi", {size = 40})
            local _, top = preview.compare(a, b)
            local _, base = preview.compare(a, b, {align = "baseline"})
            local l1 = preview.label(face, "Hi", {width = 100, height = 44, guides = true})
            local l2 = preview.label(face, "Ho", {width = 100, height = 44, guides = true})
            local _, labels = preview.compare(l1, l2)
            return top.changedPixels > 3 * base.changedPixels, base.sizeChange, labels.totalPixels, l1.height > 44
            """)
        #expect(r == ["true", "62x67 → 62x75", "4400", "true"], "\(r)")
        expectError(
            lua,
            "preview.compare(preview.load('\(repositoryRoot.path)/Tests/FontRenderTests/Golden/text-dejavu.png'), preview.text(face, 'x'), {align = 'baseline'})",
            "needs two previews that know their baselines")
        expectError(lua, "local a = preview.text(face, 'x') preview.compare(a, a, {align = 'middle'})", "choose \"top\" or \"baseline\"")
    }

    /// The REPL's printing: bytes that are not text as a count, long strings shortened, long
    /// lists cut with a count, a list of records as an aligned table.
    @Test func prettyPrintingKeepsTheScreenReadable() throws {
        let lua = try makeState()
        #expect(
            try eval(lua, "return fontshell.pretty({b = '\\0\\1\\2', s = string.rep('x', 100)})")
                == ["{b = <3 bytes>, s = \"" + String(repeating: "x", count: 58) + "…\" (100 chars)}"])
        let list = try eval(lua, "local t = {} for i = 1, 40 do t[i] = i end return fontshell.pretty(t)")[0]
        #expect(list.hasSuffix("24, 25, … (15 more)}"), "\(list)")
        let records = try eval(lua, "return fontshell.pretty(face.name:records())")[0].split(separator: "\n")
        #expect(records[0].hasPrefix("encodingID  languageID  nameID  platformID  bytes"), "\(records[0])")
        #expect(records.contains { $0.contains("<22 bytes>") && $0.contains("\"DejaVu Sans\"") }, "\(records)")
        #expect(records.count <= 42)
        // Records name themselves first (tag, then min, default, max), and short lists fit a
        // cell, so a feature's rows are a table rather than one long line (issue 35, item 9).
        let features = try eval(lua, "return fontshell.pretty(face:features('liga'))")[0].split(separator: "\n")
        #expect(features[0].hasPrefix("table   script  language  feature  lookups"), "\(features[0])")
        #expect(features.contains { $0.contains("\"latn\"") && $0.contains("{18}") }, "\(features)")
        let inter = try makeState(fonts: ["/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"])
        let axes = try eval(inter, "return fontshell.pretty(face.axes)")[0].split(separator: "\n")
        #expect(axes[0].hasPrefix("tag     name      min    default  max"), "\(axes[0])")
    }

    /// Names given wrong say what to try (issue 35, item 9): an unregistered feature tag close to
    /// one the face has, a character given where a glyph name is wanted.
    @Test func misspelledFeaturesAndCharactersForGlyphsAreExplained() throws {
        let lua = try makeState()
        expectError(lua, "face:features('lgia')", "the face has no feature 'lgia' (did you mean 'liga'?)")
        #expect(try eval(lua, "return #face:features('smcp'), #face:features('zzzz'), #face:features('ss07')") == ["0", "0", "0"])
        expectError(lua, "face:kerning('\u{C1}', 'V')", "no glyph named '\u{C1}' (for the glyph of a character: face:glyphFor('\u{C1}'))")
        expectError(lua, "face:setKerning('A', '\u{C1}', -10)", "face:glyphFor('\u{C1}')")
    }
}

/// Options tables are checked: a typo is an error with a suggestion, not silently ignored.
@Suite struct OptionKeyTests {
    @Test func unknownOptionKeysAreRefusedWithASuggestion() throws {
        let lua = try makeState()
        expectError(lua, "face.glyphs.a:copyFrom(face.glyphs.A, {layuot = true})", "unknown option 'layuot'")
        expectError(lua, "face.glyphs.a:copyFrom(face.glyphs.A, {metric = true})", "did you mean 'metrics'?")
        expectError(lua, "font:save('/tmp/never-written.ttf', {overwirte = true})", "did you mean 'overwrite'?")
        expectError(lua, "face:rename{famly = 'X'}", "did you mean 'family'?")
        expectError(lua, "face.name:set(1, 'X', {platfrom = 3})", "did you mean 'platform'?")
        expectError(lua, "preview.sheet({(preview.text(face, 'a'))}, {colums = 2})", "did you mean 'columns'?")
        expectError(lua, "face.glyphs.a:copyFrom(face.glyphs.A, {[1] = true})", "unknown option '<number>'")
        #expect(try eval(lua, "face.glyphs.a:copyFrom(face.glyphs.A, {metrics = false}); return 1") == ["1"])
    }

    @Test func stringsWithNULAreKeptOrRefusedNeverCut() throws {
        let lua = try makeState()
        // Name strings keep U+0000 (UTF-16 holds it) and read back whole.
        #expect(try eval(lua, "face.name[1] = 'a\\0b'; return #face.name[1], face.name[1] == 'a\\0b'") == ["3", "true"])
        // A path with NUL would open a different file: refused.
        expectError(lua, "fontshell.open('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\\0junk')", "NUL byte")
    }
}

/// COLR from Lua, read-only through its description: version 1's paint graph and version 0's
/// records; the palettes (CPAL), avar's maps and cvar's tuples beside it.
@Suite struct COLRScriptTests {
    @Test func colourGlyphsReadThroughTheDescription() throws {
        let folder = NSTemporaryDirectory() + "colr-lua-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let builder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Oracles/make_test_fonts.py").path
        _ = try python([builder, "colr", folder + "/colr.ttf"])
        _ = try python([builder, "colr0", folder + "/colr0.ttf"])
        let v1 = try makeState(fonts: [folder + "/colr.ttf"])
        #expect(
            try eval(
                v1,
                """
                local c = face.COLR
                local composite = c.BaseGlyphList.BaseGlyphPaintRecord[7].Paint
                return c.Version, #c.BaseGlyphList.BaseGlyphPaintRecord, composite.Format, composite.CompositeMode, composite.SourcePaint.Glyph, c.ClipList[1].Glyph[1], #c.VarIndexMap
                """) == ["1", "8", "32", "23", "a", "a", "6"])
        expectError(v1, "face.COLR.Version = 0", "read-only")
        #expect(
            try eval(v1, "local p = face.CPAL return p.numPaletteEntries, #p.palettes, p.palettes[1][1], p.palettes[1][3]")
                == ["3", "1", "#FF0000FF", "#00800080"])
        #expect(
            try eval(v1, "local a = face.avar return a.version, #a.maps.wght, a.maps.wght[3][1], a.maps.wght[3][2]") == [
                "1", "4", "0.5", "0.25",
            ])
        // cvar: fontTools' instancer test font, compiled from its TTX.
        let conformance =
            ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance"
        _ = try python(["-m", "fontTools.ttx", "-q", "-o", folder + "/cvar.ttf", conformance + "/instancer/PartialInstancerTest-VF.ttx"])
        let cvar = try makeState(fonts: [folder + "/cvar.ttf"])
        #expect(
            try eval(cvar, "local c = face.cvar return #c, c[1].peak.wght, c[1].deltas[2], c[2].peak.wdth, c[2].deltas[3]") == [
                "2", "-1.0", "-30", "-1.0", "-50",
            ])
        let v0 = try makeState(fonts: [folder + "/colr0.ttf"])
        #expect(
            try eval(
                v0,
                "local c = face.COLR return c.Version, #c.BaseGlyphRecordArray.BaseGlyphRecord, c.LayerRecordArray.LayerRecord[1].LayerGlyph"
            )
                == ["0", "2", "a"])
    }
}

/// Bitmap strikes from Lua: Noto Color Emoji's PNGs and metrics, as the model reads them.
@Suite struct BitmapScriptTests {
    @Test func colorStrikesShowTheirPNGs() throws {
        let path = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
        let lua = try makeState(fonts: [path])
        let face = try Font(path: path).faces[0]
        let bitmaps = try #require(try EmbeddedBitmaps.read(from: face, .color))
        let id = try #require(try face.glyphID(for: "😀"))
        let glyph = try #require(bitmaps.strikes[0].glyphs[UInt16(id)])
        let got = try eval(
            lua,
            """
            local b = face.bitmaps; local g = b[1].glyphs[face.glyphs[face.cmap[0x1F600]].name]
            local n = 0; for _ in pairs(b[1].glyphs) do n = n + 1 end
            return #b, b[1].table, b[1].ppem, b[1].bitDepth, n, g.format, g.width, g.height, #g.data, g.data:sub(2, 4)
            """)
        #expect(
            got == [
                "1", "CBDT", "\(bitmaps.strikes[0].ppemX)", "32", "\(bitmaps.strikes[0].glyphs.count)", "17",
                "\(glyph.metrics?.values[1] ?? -1)", "\(glyph.metrics?.values[0] ?? -1)", "\(glyph.imageData.count)", "PNG",
            ])
        #expect(try eval(makeState(), "return face.bitmaps") == ["nil"])
    }
}

/// The hinting tables from Lua: control values, programs as assembly, gasp, DSIG.
@Suite struct HintingScriptTests {
    @Test func readAndEditHintingTables() throws {
        let lua = try makeState()
        let first = try eval(
            lua, "return #face.cvt, face.cvt[1], face.fpgm:match('^PUSHB%[ %]'), face.gasp.GaspRange[1].rangeMaxPPEM, face.DSIG")
        #expect(first[0] == "255" && first[1] != "nil" && first[2] == "PUSHB[ ]" && first[3] == "8" && first[4] == "nil")
        #expect(try eval(lua, "face:setCvt{1, -2, 3}; return #face.cvt, face.cvt[2]") == ["3", "-2"])
        #expect(
            try eval(lua, "face:setProgram('prep', 'PUSHB[ ] 1 2\\nSWAP[ ]'); return face:rawTable('prep'):byte(1, -1)") == [
                "177", "1", "2", "35",
            ])
        #expect(try eval(lua, "return face.prep") == ["PUSHB[ ]\t/* 2 values pushed */\n1 2\nSWAP[ ]\t/* swap */\n"])
        expectError(lua, "face:setCvt{1, 'x'}", "item 2 is string, not an integer")
        expectError(lua, "face:setCvt{1, 40000}", "control values are FWORDs")
        expectError(lua, "face:setProgram('cvt', 'POP[ ]')", "not a program table")
        expectError(lua, "face:setProgram('fpgm', 'FOO[ ]')", "unknown instruction FOO")
        #expect(try eval(lua, "return #face.cvt") == ["3"])   // the failed edits changed nothing
    }
}

/// The Graphite tables from Lua (Padauk, installed by Scripts/bootstrap).
@Suite struct GraphiteScriptTests {
    @Test func readGraphiteTables() throws {
        let path = "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf"
        let lua = try makeState(fonts: [path])
        let face = try Font(path: path).faces[0]
        let silf = try #require(try face.table(SilfTable.self)), feat = try #require(try face.table(FeatTable.self))
        let glat = try #require(try face.table(GlatTable.self))
        // Feature ids as tags, with their names from the name table.
        #expect(
            try eval(lua, "local f = face.Feat.features[1]; return f.id, f.label, #f.settings, type(f.name), face.Feat.version")
                == [
                    Graphite.featureIDText(feat.features[0].id), "\(feat.features[0].label)", "\(feat.features[0].settings.count)",
                    "string", "2.0",
                ])
        // A glyph's attributes by number, and its octabox.
        let name = try face.glyphName(10), first = try #require(glat.glyphs[10].attributes.first)
        #expect(
            try eval(lua, "local g = face.Glat.glyphs['\(name)']; return g[\(first.index)], #g.octabox.diagonals, face.Gloc.glyphCount")
                == ["\(first.value)", "4", "\(glat.glyphs.count)"])
        // Passes, rules and their programs as text.
        let pass = silf.subtables[0].passes[0], rule = pass.rules[0]
        #expect(
            try eval(
                lua,
                "local p = face.Silf.subtables[1].passes[1]; return #face.Silf.subtables[1].passes, p.numColumns, #p.rules, p.rules[1].action"
            )
                == [
                    "\(silf.subtables[0].passes.count)", "\(pass.machine[3])", "\(pass.rules.count)",
                    try SilfCode.disassemble(rule.action).joined(separator: "\n"),
                ])
        #expect(
            try eval(lua, "return face.Silf.subtables[1].maxGlyphID, type(face.Silf.subtables[1].classes[1][1]), face.Sill ~= nil")
                == ["\(silf.subtables[0].scalar("maxGlyphID"))", "string", "true"])
        #expect(try eval(lua, "return fontshell.open('\(dejavu)').faces[1].Silf") == ["nil"])
        // hdmx and LTSH (Dai Banna has both).
        let daiBanna = "/usr/share/fonts/truetype/dai-banna/DBSILBR.ttf"
        let small = try Font(path: daiBanna).faces[0]
        let hdmx = try #require(try small.table(HdmxTable.self)), ltsh = try #require(try small.table(LTSHTable.self))
        let record = hdmx.records[0], glyph = try small.glyphName(3)
        #expect(
            try eval(
                lua,
                "local f = fontshell.open('\(daiBanna)').faces[1]; return f.hdmx.records[\(record.ppem)].widths['\(glyph)'], f.hdmx.records[\(record.ppem)].maxWidth, f.LTSH.yPels[4]"
            )
                == ["\(record.widths[3])", "\(record.maxWidth)", "\(try ltsh.thresholds[3])"])
    }
}

/// VTT's sources from Lua (issue 32), and tags in described tables as text.
@Suite struct VTTScriptTests {
    @Test func readVTTSourcesAndTags() throws {
        let path = NSTemporaryDirectory() + "fontshell-vtt-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let built = try python([repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path, "vtt", path])
        try #require(FileManager.default.fileExists(atPath: path), "\(built)")
        let lua = try makeState(fonts: [path])
        #expect(
            try eval(lua, "local p = face.TSI1; return p.glyphPrograms.A, #p.glyphPrograms.a, p.glyphPrograms.b, p.extraPrograms.ppgm")
                == ["/* A */\nSVTCA[Y]\nMIAP[R], 1, 3", "35210", "nil", "SVTCA[Y]"])
        #expect(try eval(lua, "return face.TSI3.glyphPrograms.B, face.TSI5.B, face.TSIP") == ["Smooth()", "3", "GPOS source\nline 2"])
        // TSIC through its description; its axis tags are text, as every tag in a described table.
        #expect(
            try eval(
                lua,
                "local c = face.TSIC; return c.AxisArray[2], c.RecordLocations[2].Axis[1], c.Record[1].CVTValueArray[2], #c.Record[2].NameArray"
            )
                == ["wdth", "-0.5", "-10", "0"])
        #expect(
            try eval(lua, "local r = face.TSIC.AxisArray; r[1] = 'opsz'; face.TSIC.AxisArray = r; return face.TSIC.AxisArray[1]") == [
                "opsz"
            ])
        #expect(throws: (any Error).self) { try eval(lua, "local r = face.TSIC.AxisArray; r[1] = 'weight'; face.TSIC.AxisArray = r") }
    }
}

/// SVG and sbix from Lua, on the font make_test_fonts.py builds.
@Suite struct ColorImageScriptTests {
    @Test func readSVGAndSbix() throws {
        let path = NSTemporaryDirectory() + "fontshell-svg-sbix-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let built = try python([repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path, "svg-sbix", path])
        try #require(FileManager.default.fileExists(atPath: path), "\(built)")
        let lua = try makeState(fonts: [path])
        #expect(
            try eval(lua, "return #face.SVG, face.SVG[2].compressed, face.SVG[2].firstGlyph, face.SVG[1].text:match('glyph1') ~= nil")
                == ["2", "true", "2", "true"])
        #expect(
            try eval(
                lua,
                "local s = face.sbix.strikes[1]; return s.ppem, s.glyphs.A.graphicType, s.glyphs.A.originOffsetX, #s.glyphs.A.data, s.glyphs.B.ref, s.glyphs.b"
            )
                == ["20", "png ", "2", "70", "A", "nil"])
        #expect(try eval(lua, "return face.meta.dlng, face.meta.slng, #face.meta.Xtst") == ["Latn, Grek", "Latn, Grek, Cyrl", "9"])
        #expect(
            try eval(lua, "local v = face.VDMX; return #v.ratios, v.ratios[3].group, v.groups[1][10].yMin, v.groups[2][14].yMax") == [
                "3", "1", "-3", "12",
            ])
        #expect(
            try eval(lua, "local e = face.EBSC.sizes[2]; return e.ppemX, e.substitutePpemY, e.hori.widthMax, e.vert.ascender") == [
                "11", "13", "13", "-11",
            ])
        // AAT prop, opbd, lcar and bsln: their lookups by glyph name.
        #expect(
            try eval(
                lua,
                """
                local o, c = face.opbd.OpticalBounds.OpticalBoundsDeltas, face.lcar.LigatureCarets.Carets
                return face.prop.GlyphProperties.Properties.B, o.A.Top, o.b.Left, #c.a.DivisionPoint, c.B.DivisionPoint[1], face.bsln.Baseline.Delta[4],
                       face.bsln.Baseline.BaselineValues.B, face.prop.GlyphProperties.Properties[".notdef"]
                """) == ["24587", "15", "-50", "2", "220", "30", "2", "nil"])
        // AAT ankr: anchor points by glyph (b shares A's record in the font), set back whole.
        #expect(
            try eval(
                lua,
                """
                local p = face.ankr.AnchorPoints
                local before = #p.Anchors.b.AnchorPoint .. " " .. p.Anchors.A.AnchorPoint[2].XCoordinate .. " " .. tostring(p.Anchors.B)
                p.Anchors.B = {AnchorPoint = {{XCoordinate = 1, YCoordinate = 2}}}
                face.ankr.AnchorPoints = p
                return before, face.ankr.AnchorPoints.Anchors.B.AnchorPoint[1].YCoordinate, face.ankr.AnchorPoints.Anchors.a.AnchorPoint[1].YCoordinate
                """) == ["2 -20 nil", "2", "500"])
        // AAT feat, read through its description.
        #expect(
            try eval(
                lua,
                "local f = face.feat.FeatureNames.FeatureName[2]; return f.FeatureType, #f.Settings.Setting, f.Settings.Setting[3].SettingValue"
            )
                == ["14", "3", "4"])
        // JSTF through its description; morx with every subtable type.
        #expect(
            try eval(
                lua,
                "local s = face.JSTF.JstfScriptRecord[1].JstfScript; return s.ExtenderGlyph.ExtenderGlyph[2], s.DefJstfLangSys.JstfPriority[1].ShrinkageEnableGSUB.GSUBLookupIndex[2]"
            )
                == ["b", "5"])
        #expect(
            try eval(
                lua,
                """
                local c = face.morx.chains[1]
                local r, x, l = c.subtables[1], c.subtables[2], c.subtables[3]
                return #face.morx.chains, #c.features, r.type, r.states[2][4].verb, table.concat(r.states[2][4].flags, ","),
                       x.lookups[1].a, x.states[1][5].markLookup, l.ligatures[2], l.states[2][5].actions[2].delta, tostring(l.states[2][5].actions[2].store)
                """) == ["2", "2", "rearrangement", "3", "DontAdvance,MarkLast", "b", "1", "b", "2", "true"])
        #expect(
            try eval(
                lua,
                """
                local n, i = face.morx.chains[2].subtables[1], face.morx.chains[2].subtables[2]
                return n.type, n.substitutions.a, i.type, table.concat(i.states[1][5].insertAtMark, " "), i.classes.b
                """) == ["noncontextual", "b", "insertion", "b B a", "5"])
        // AAT trak: tracks by value with their names, one adjustment per size.
        #expect(
            try eval(
                lua,
                "local h = face.trak.horizontal; return #h.tracks, h.sizes[3], h.tracks[3].value, h.tracks[3].adjustments[1], face.trak.vertical.tracks[1].adjustments[1]"
            )
                == ["3", "24.5", "1.0", "20", "3"])
    }
}

/// A custom leaf's value reaches Lua as plain numbers and tables and reads back the same
/// (HVAR's glyph map, COLR's index map; any leaf a description adds later).
@Suite struct CustomLeafValueTests {
    @Test func plainValuesRoundTripThroughLua() throws {
        let lua = try makeState()
        let values = try StructValues(try Font(path: dejavu).faces[0])
        var inner = StructFields()
        inner["Glyph"] = .list([.int(3), .int(4)])
        inner["Value"] = .int(-7)
        let value = StructValue.list([.int(0x0001_0002), .record(inner), .list([])])
        values.pushPlain(lua.stack, value)
        defer { lua.stack.pop() }
        #expect(try values.plainValue(lua.stack, at: -1, path: "leaf") == value)
        lua.stack.push("not a leaf")
        defer { lua.stack.pop() }
        #expect(throws: FontError.self) { try values.plainValue(lua.stack, at: -1, path: "leaf") }
    }
}

/// AAT mort from Lua, on the packed table make_test_fonts.py assembles: the same view as morx,
/// its version a 16.16 number and ligature subtables with their rebased components.
@Suite struct MortScriptTests {
    @Test func readMort() throws {
        let path = NSTemporaryDirectory() + "fontshell-mort-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let built = try python([repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path, "mort-packed", path])
        try #require(FileManager.default.fileExists(atPath: path), "\(built)")
        let lua = try makeState(fonts: [path])
        #expect(
            try eval(
                lua,
                """
                local c = face.mort.chains[1]
                local x, l = c.subtables[1], c.subtables[2]
                return face.mort.version, x.type, #x.lookups, x.lookups[2].a, x.states[2][4].currentLookup, l.type,
                       table.concat(l.rebasedComponents, ","), table.concat(l.ligatures, " "), l.states[2][5].actions[1].delta
                """) == ["1.0", "contextual", "3", "b", "3", "ligature", "2,3", "B b", "-1"])
        #expect(try eval(lua, "return face.morx") == ["nil"])
    }

    /// Apple's CID maps: their custom leaves as plain lists (names as bytes, maps by position from 0).
    @Test func readCIDMaps() throws {
        let path = NSTemporaryDirectory() + "fontshell-cid-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let built = try python([repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path, "mort", path])
        try #require(FileManager.default.fileExists(atPath: path), "\(built)")
        let lua = try makeState(fonts: [path])
        #expect(
            try eval(
                lua,
                """
                local c, g = face.cidg.CIDGlyphMapping, face.gcid.GlyphCIDMapping
                return c.Format, c.StructLength, string.char(table.unpack(c.RegistryName)), #c.Mapping, c.Mapping[4], g.Mapping[2]
                """) == ["0", "160", "Adobe", "8", "1", "3"])
        #expect(
            try eval(
                lua,
                "local m = face.cidg.CIDGlyphMapping; m.Mapping[4] = 3; face.cidg.CIDGlyphMapping = m; return face.cidg.CIDGlyphMapping.Mapping[4]"
            ) == ["3"])
        #expect(throws: (any Error).self) {
            try eval(lua, "local m = face.cidg.CIDGlyphMapping; m.OrderName = 'GB1'; face.cidg.CIDGlyphMapping = m")
        }
    }
}

/// Every registered table is typed in XML, compared by diff and reachable from Lua, or sits in
/// an explicit list here with the reason: adding a table without them fails this test.
@Suite struct RegistryCoverageTests {
    static let registered = Set(TableRegistry.types.map { $0.tableTag.description })

    /// Tables dumped as hexdata although the model decodes them.
    static let hexOnlyInXML: [String: String] = [:]

    /// Tables diff reports only as "changed (n bytes → m bytes)".
    static let comparedBySize: [String: String] = [:]

    /// Tables Lua does not show yet (bytes through face:rawTable).
    static let notInLua: [String: String] = [
        "TSI0": "the index of TSI1, whose programs are face.TSI1", "TSI2": "the index of TSI3, whose programs are face.TSI3",
    ]

    @Test func everyRegisteredTableIsTypedOrListed() {
        let untyped = Self.registered.filter { !TTX.typedTags.contains(FontModel.Tag(text: $0)) }
        #expect(untyped == Set(Self.hexOnlyInXML.keys), "typed in XML or listed with a reason: \(untyped.sorted())")
        // …and nothing is typed in XML that the registry does not list.
        #expect(TTX.typedTags.map(\.description).filter { !Self.registered.contains($0) } == [])

        // diff: fields, structures, or what the table's type says it does (FontDiff has no case by tag).
        let diffed = Set(
            TableRegistry.types.filter { t in
                t is FieldTable.Type || t is StructuredTable.Type || t is ShapeDescribed.Type || t is DiffableTable.Type
                    || t is FaceDiffableTable.Type || t is GlyphDataTable.Type
            }.map { $0.tableTag.description })
        #expect(Self.registered.subtracting(diffed) == Set(Self.comparedBySize.keys), "\(Self.registered.subtracting(diffed).sorted())")

        // Lua: face.<tag> for described tables, or the Face fields that show a table.
        let faceFields: [String: String] = [
            "name": "name", "cmap": "cmap", "glyf": "glyphs", "loca": "glyphs", "hmtx": "glyphs",
            "vmtx": "glyphs", "CFF ": "glyphs", "CFF2": "glyphs", "gvar": "glyphs", "kern": "kern",
            "fvar": "axes", "cvt ": "cvt", "fpgm": "fpgm", "prep": "prep",
            "EBLC": "bitmaps", "EBDT": "bitmaps", "CBLC": "bitmaps", "CBDT": "bitmaps", "bloc": "bitmaps", "bdat": "bitmaps",
        ]
        let inLua = Self.registered.filter { tag in
            let trimmed = FontModel.Tag(text: tag).trimmed
            return FaceObject.fieldTables.contains(trimmed) || FaceObject.tableViews.contains { $0.name == trimmed }
                || faceFields[tag].map { FaceObject.luaClass.fields.contains($0) } == true
        }
        #expect(Self.registered.subtracting(inLua) == Set(Self.notInLua.keys), "\(Self.registered.subtracting(inLua).sorted())")
    }

    /// A field table is a record of scalars in the one description language (its flat storage
    /// and the code that asks every member its `kind` rely on it), versions given by `since:`.
    @Test func fieldTablesAreRecordsOfScalars() throws {
        let fieldTables = TableRegistry.types.compactMap { $0 as? FieldTable.Type }
        #expect(fieldTables.count >= 8)
        for type in fieldTables {
            let members = type.record.members
            #expect(!members.isEmpty, "\(type.tableTag)")
            for m in members {
                guard case .scalar = m.shape else { Issue.record("\(type.tableTag).\(m.name) is not a scalar"); continue }
            }
            #expect(Set(members.map(\.name)).count == members.count, "\(type.tableTag) names a member twice")
        }
        // OS/2's versions: 78 bytes in version 0, +8 in 1, +10 in 2 to 4, +4 in 5.
        let lengths = try [0, 1, 2, 4, 5].map { v in try OS2Table.layout(version: UInt32(v), length: .max).reduce(0) { $0 + $1.kind.size } }
        #expect(lengths == [78, 86, 96, 96, 100])
        #expect(try OS2Table.layout(version: 0, length: 68).count == OS2Table.layout(version: 0, length: 78).count - 5)
        #expect(throws: FontError.self) { try MaxpTable.layout(version: 0x0002_0000, length: 32) }
        #expect(try MaxpTable.layout(version: 0x0000_5000, length: 6).map(\.name) == ["version", "numGlyphs"])
    }
}

/// The small registered tables Lua shows as plain values: ltag's tags, TTFA's text.
@Suite struct SmallTableLuaTests {
    @Test func ltagAndTTFA() throws {
        let lua = try makeState()
        #expect(try eval(lua, "return face.ltag, face.TTFA") == ["nil", "nil"])
        #expect(
            try eval(
                lua,
                """
                face:setRawTable("ltag", string.pack(">I4I4I4I2I2I2I2", 1, 0, 2, 20, 2, 22, 7) .. "ensr-Latn")
                face:setRawTable("TTFA", "\\nhinting-range-min = 8\\n")
                return #face.ltag.tags, face.ltag.tags[2], face.TTFA
                """) == ["2", "sr-Latn", "\nhinting-range-min = 8\n"])
    }
}

/// Hand-written tables with a description (HVAR …) read in Lua through it, read-only.
@Suite struct DescribedViewTests {
    @Test func hvarReadsThroughItsDescription() throws {
        let lua = try makeState(fonts: ["/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"])
        let face = try Font(path: "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf").faces[0]
        let hvar = try #require(try face.table(HvarTable.self))
        // The first advance-map entry and the store's first row agree with the model's reading.
        let (outer, inner) = try #require(hvar.advanceMap?.index(0))
        #expect(
            try eval(lua, "local m = face.HVAR.AdvWidthMap[1] return m >> 16, m & 0xFFFF, #face.HVAR.VarStore.VarData")
                == [String(outer), String(inner), String(hvar.store.data.count)])
        expectError(lua, "face.HVAR.Version = 3", "HVAR is read-only in Lua")
        #expect(try eval(lua, "return face.MVAR") == ["nil"])
    }
}

@Suite struct CmapDiffTests {
    @Test func diffNamesRemappedAndUnmappedCharacters() throws {
        let lua = try makeState()
        let path = NSTemporaryDirectory() + "cmapdiff-\(UUID().uuidString).ttf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try eval(lua, "face.cmap[0x41] = face.cmap[0x42]; face.cmap[0x43] = nil; face:save('\(path)')")
        let found = try FontDiff.compare(try Font(path: dejavu).faces[0], try Font(path: path).faces[0]).map(\.description)
        #expect(found.contains("~ cmap.U+0041: A → B"))
        #expect(found.contains("- cmap.U+0043: C"))
        #expect(!found.contains { $0.hasPrefix("~ cmap:") })   // no "n bytes → m bytes" line
    }
}
