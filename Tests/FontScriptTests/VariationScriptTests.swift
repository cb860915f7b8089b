import Foundation
import Testing
@testable import FontModel
@testable import FontScript
@testable import LuaBridge

/// Variable fonts from Lua: axes, named instances, locations, glyphs at a location, instances
/// and previews at a location.
@Suite struct VariationScriptTests {
    static let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"

    @Test func axesInstancesAndLocations() throws {
        let lua = try makeState(fonts: [Self.inter])
        #expect(
            try eval(lua, "local a = face.axes[1]; return #face.axes, a.tag, a.name, a.min, a.default, a.max, a.hidden")
                == ["1", "wght", "Weight", "100.0", "400.0", "900.0", "false"])
        #expect(try eval(lua, "local i = face.instances[7]; return #face.instances, i.name, i.coordinates.wght") == ["9", "Bold", "700.0"])
        #expect(try eval(lua, "local n, w = face:location{wght = 650}; return n.wght, #w") == ["0.5", "0"])
        #expect(
            try eval(lua, "local n, w = face:location{wght = 1200}; return n.wght, w[1]")
                == ["1.0", "axis 'wght': 1200 is outside 100…900; using 900"])
        #expect(try eval(lua, "return face.isVariable, #fontshell.open('\(dejavu)').faces[1].axes") == ["true", "0"])
        expectError(lua, "face:location{wgth = 700}", "did you mean 'wght'")
        expectError(lua, "face:location{wght = 'bold'}", "coordinate 'wght' must be a number")
    }

    /// Every glyph at a location (contours and advance) agrees with the instance made there,
    /// whose glyf and hmtx equal fontTools' (VariationTests).
    @Test func everyGlyphAtALocationMatchesTheInstance() throws {
        let lua = try makeState(fonts: [Self.inter])
        let r = try eval(
            lua,
            """
            local inst = face:instance({wght = 650}, {names = false})
            local differ, checked = 0, 0
            for id = 0, face.glyphCount - 1, 3 do
              local g, h = face.glyphs[id], inst.glyphs[id]
              if not g.isComposite then
                local a, b = g:contoursAt{wght = 650}, h.contours
                local same = #a == #b and g:advanceAt{wght = 650} == h.advance
                for c = 1, #a do
                  same = same and #a[c] == #b[c]
                  for p = 1, #a[c] do same = same and a[c][p].x == b[c][p].x and a[c][p].y == b[c][p].y and a[c][p].on == b[c][p].on end
                end
                checked = checked + 1
                if not same then differ = differ + 1 end
              end
            end
            return checked > 300, differ
            """)
        #expect(r == ["true", "0"])
    }

    /// A glyph at a location agrees with the instance made there, and with fontTools' instancer.
    @Test func glyphsAtALocationAgreeWithTheInstance() throws {
        let lua = try makeState(fonts: [Self.inter])
        let r = try eval(
            lua,
            """
            local H = face:glyphFor("H")
            local bold = face:instance{wght = 700}
            local B = bold:glyphFor("H")
            local a, b = H:contoursAt{wght = 700}, B.contours
            local same = #a == #b
            for c = 1, #a do for p = 1, #a[c] do
              same = same and a[c][p].x == b[c][p].x and a[c][p].y == b[c][p].y
            end end
            local d = H:deltas()
            return same, H:advanceAt{wght = 700} == B.advance, H:advanceAt{wght = 700} > H.advance, #d > 0, #d[1].x == #d[1].y,
                   bold.isVariable, bold.postscriptName, bold:rawTable("fvar") == nil
            """)
        #expect(r == ["true", "true", "true", "true", "true", "false", "Inter-Bold", "true"])
        expectError(lua, "face:instance({wght = 700}, {nmes = false})", "did you mean 'names'")
    }

    /// A TTX file of the conformance data (../shared/corpus/conformance.sh) compiled into a
    /// temporary font; nil, with an issue recorded, when the data is missing.
    func compiledConformance(_ relative: String, as fileExtension: String) throws -> String? {
        let conformance =
            ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/fontshell/conformance"
        let source = conformance + "/" + relative
        guard FileManager.default.fileExists(atPath: source) else {
            Issue.record("no \(source): run ../shared/corpus/conformance.sh"); return nil
        }
        let font = NSTemporaryDirectory() + "fontshell-conformance-\(UUID().uuidString)" + fileExtension
        _ = try python(["-m", "fontTools.ttx", "-q", "-o", font, source])
        return font
    }

    /// `downgradeCFF2` from Lua: a CFF2 font's instance comes back with a CFF 1 table (and an
    /// .otf name); without it, CFF2 stays.
    @Test func cff2InstancesDowngradeFromLua() throws {
        guard let font = try compiledConformance("instancer/CFF2Instancer-VF-2.ttx", as: ".otf") else { return }
        defer { try? FileManager.default.removeItem(atPath: font) }
        #expect(FileManager.default.fileExists(atPath: font))
        let lua = try makeState(fonts: [font])
        let r = try eval(
            lua,
            """
            local cff = face:instance({wght = 900}, {downgradeCFF2 = true, rewriteLayout = true})
            local cff2 = face:instance{wght = 900}
            return cff:rawTable("CFF ") ~= nil, cff:rawTable("CFF2") == nil, cff2:rawTable("CFF2") ~= nil, cff.font.path:sub(-4),
                   cff.glyphs[1].advance == cff2.glyphs[1].advance
            """)
        #expect(r == ["true", "true", "true", ".otf", "true"])
    }

    /// `partial = true` from Lua: MutatorSans (wdth and wght) with wght pinned keeps wdth as its
    /// one axis, and the partial face at wdth=1000 draws what the source draws at wght=500
    /// wdth=1000 (within the rounding of the two steps).
    @Test func partialInstancesFromLua() throws {
        guard let font = try compiledConformance("variable/MutatorSans_All_Variable.ttx", as: ".ttf") else { return }
        defer { try? FileManager.default.removeItem(atPath: font) }
        let lua = try makeState(fonts: [font])
        let r = try eval(
            lua,
            """
            local partial = face:instance({wght = 500}, {partial = true})
            local worst = 0
            for _, name in ipairs{"A", "B", "S"} do
              local a = partial.glyphs[name]:contoursAt{wdth = 1000}
              local b = face.glyphs[name]:contoursAt{wght = 500, wdth = 1000}
              for c = 1, #b do for p = 1, #b[c] do
                worst = math.max(worst, math.abs(a[c][p].x - b[c][p].x), math.abs(a[c][p].y - b[c][p].y))
              end end
            end
            local narrow = face:instance{wght = {0, 500}}
            local wght = narrow.axes[1].tag == "wght" and narrow.axes[1] or narrow.axes[2]
            -- Every point listed in gvar: the same outlines, more bytes; some tuples list fewer.
            local dense = face:instance({wght = 500}, {partial = true, optimize = false})
            local same = true
            for _, name in ipairs{"A", "B", "S"} do
              local a, b = partial.glyphs[name]:contoursAt{wdth = 1000}, dense.glyphs[name]:contoursAt{wdth = 1000}
              for c = 1, #b do for p = 1, #b[c] do
                same = same and math.abs(a[c][p].x - b[c][p].x) <= 0.5 and math.abs(a[c][p].y - b[c][p].y) <= 0.5
              end end
            end
            local sparse = 0
            for _, g in ipairs{"A", "B", "S", "O", "H"} do
              for _, t in ipairs(partial.glyphs[g]:deltas()) do if t.points then sparse = sparse + 1 end end
            end
            return #partial.axes, partial.axes[1].tag, partial.isVariable, worst <= 1.5, #narrow.axes, wght.max,
                   same, #partial:rawTable("gvar") < #dense:rawTable("gvar"), sparse > 0, worst
            """)
        // A range keeps the axes not named variable (wdth here), as fontTools does.
        #expect(Array(r.prefix(9)) == ["1", "wdth", "true", "true", "2", "500.0", "true", "true", "true"], "\(r)")
        expectError(lua, "face:instance{wght = {600, 500}}", "min <= max")
    }

    @Test func previewsAtALocation() throws {
        let lua = try makeState(fonts: [Self.inter])
        let widths = try eval(
            lua,
            """
            local thin = preview.text(face, "Hamburg", {size = 40, variations = {wght = 100}})
            local black = preview.text(face, "Hamburg", {size = 40, variations = {wght = 900}})
            local sheet, cells = preview.sweep(face, {field = "axis.wght", values = {100, 400, 900}, text = "Hm", label = {size = 20}})
            local rows = preview.instances(face, "Hm", {size = 20})
            return thin.width < black.width, #cells, cells[3].value, rows.height > sheet.height
            """)
        #expect(widths == ["true", "3", "900.0", "true"])
        expectError(lua, "preview.text(face, 'x', {variations = {wght = 50}})", "outside its range 100…900")
        expectError(lua, "preview.sweep(face, {field = 'axis.wdth', values = {100}, text = 'x'})", "no axis 'wdth'")
    }

    /// The variable-font checks pass on Inter and find what a broken copy lacks.
    @Test func variableChecks() throws {
        let lua = try makeState(fonts: [Self.inter])
        func statuses() throws -> [String] {
            try eval(
                lua,
                """
                local out = {}
                for _, r in ipairs(check.run(face, {only = {'variable'}}).results) do out[#out + 1] = r.id .. '=' .. r.status end
                table.sort(out)
                return table.concat(out, ' ')
                """)
        }
        #expect(
            try statuses() == [
                "variable/distinct-instances=pass variable/names-exist=pass variable/stat-axis-for-each-axis=pass variable/valid-nameids=pass"
            ])
        _ = try eval(lua, "face.name:remove(face.instances[2].subfamilyNameID)")
        let broken = try eval(
            lua, "local r = check.run(face, {only = {'variable/names-exist'}}).results[1]; return r.status, r.messages[1]")
        #expect(broken.first == "fail" && broken.last?.contains("instance 2: subfamily name ID") == true, "\(broken)")
        #expect(
            try eval(lua, "return check.run(fontshell.open('\(dejavu)').faces[1], {only = {'variable'}}).results[1].status") == ["skip"])
    }
}
