import Foundation
import Testing
@testable import FontScript
@testable import LuaBridge

/// The shipped Lua checks and the module that runs them (`check`).
@Suite struct CheckModuleTests {
    /// Runs `code` and returns its one string result.
    func string(_ lua: LuaState, _ code: String) throws -> String {
        try eval(lua, code).first ?? ""
    }

    @Test func everyShippedCheckLoadsWithItsDescription() throws {
        let lua = try makeState()
        let n = try string(lua, "return #check.list()")
        #expect(Int(n) ?? 0 >= 40, "only \(n) checks")
        let broken = try string(
            lua,
            """
            local out = {}
            for _, c in ipairs(check.list()) do
              if c.broken or not c.title or not c.rationale or (c.severity ~= 'fail' and c.severity ~= 'warn') then out[#out + 1] = c.id end
            end
            return table.concat(out, ' ')
            """)
        #expect(broken == "")
        // Every area the issue asks for has checks.
        let areas = try string(
            lua,
            """
            local seen = {}
            for _, c in ipairs(check.list()) do seen[c.id:match('^[^/]+')] = true end
            local out = {}
            for a in pairs(seen) do out[#out + 1] = a end
            table.sort(out)
            return table.concat(out, ' ')
            """)
        #expect(areas == "flags glyphs kerning layout metrics names outlines structure variable")
    }

    /// Edits that each break one rule, then the checks that must catch them.
    @Test func checksCatchWhatEditsBreakAndFixesRepairIt() throws {
        let lua = try makeState()
        _ = try eval(
            lua,
            """
            face.hhea.lineGap = 100
            face['OS/2'].fsType = 2
            face['OS/2'].usWeightClass = 750
            face.post.isFixedPitch = 1
            face.post.italicAngle = 5
            face.head.macStyle = 1
            face:glyphFor(0xA0).advance = 700
            face['OS/2'].usWinAscent = 100
            face.name[1] = 'DejaVu Sans '
            face.head.unitsPerEm = 2047
            """)
        func status(_ id: String) throws -> String {
            try string(
                lua,
                "local r = check.run(face, {only = {'\(id)'}}).results[1]; return r.status .. ' ' .. table.concat(r.messages or {}, ' | ')")
        }
        #expect(try status("metrics/linegaps").hasPrefix("warn hhea.lineGap is 100"))
        #expect(try status("flags/fstype").hasPrefix("warn fsType has 'restricted license embedding'"))
        #expect(try status("flags/weight-class").hasPrefix("warn usWeightClass is 750; the style \"Book\" suggests 400"))
        #expect(try status("flags/monospace").hasPrefix("fail post.isFixedPitch is set but ASCII glyphs have"))
        #expect(try status("flags/italic-angle").hasPrefix("fail italicAngle is 5.00"))
        #expect(try status("flags/mac-style").hasPrefix("fail macStyle bold bit is set"))
        #expect(try status("glyphs/whitespace-widths") == "fail space is 651 units wide, no-break space 700")
        #expect(try status("metrics/win-clipping").hasPrefix("fail usWinAscent 100 is below the highest glyph"))
        #expect(try status("names/trailing-spaces").contains("name ID 1 (platform 3): \"DejaVu Sans \""))
        #expect(try status("metrics/units-per-em") == "warn unitsPerEm is 2047; 1000, 2000 or a power of two are usual")
        // Checks that passed before the edits still pass.
        #expect(try status("glyphs/notdef") == "pass ")
        #expect(try status("names/postscript-name") == "pass ")

        let fixed = try string(
            lua,
            """
            local report = check.run(face, {only = {'glyphs/whitespace-widths', 'metrics/win-clipping', 'names/trailing-spaces', 'flags/mac-style'}, fix = true})
            local out = {}
            for _, r in ipairs(report.results) do out[#out + 1] = r.id .. '=' .. tostring(r.after) end
            return report.fixed .. ' ' .. table.concat(out, ' ')
            """)
        #expect(fixed == "4 flags/mac-style=pass glyphs/whitespace-widths=pass metrics/win-clipping=pass names/trailing-spaces=pass")
        #expect(
            try string(lua, "return face:glyphFor(0xA0).advance .. ' ' .. face['OS/2'].usWinAscent .. ' ' .. face.name[1]")
                == "651 2524 DejaVu Sans")
    }

    @Test func brokenChecksAreReportedAndTheOthersStillRun() throws {
        let tmp = NSTemporaryDirectory() + "fontshell-checks-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: tmp + "/mine", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        try "return {".write(toFile: tmp + "/mine/syntax.lua", atomically: true, encoding: .utf8)
        try "return {id = 'fields', title = 'x', rationale = 'y', severity = 'loud', check = function() end}".write(
            toFile: tmp + "/mine/fields.lua", atomically: true, encoding: .utf8)
        try "error('boom at load')".write(toFile: tmp + "/mine/throws.lua", atomically: true, encoding: .utf8)
        try """
        return {id = 'fixfails', title = 'x', rationale = 'y', severity = 'fail',
          check = function(face, r) r.fail('always') end,
          fix = function(face) error('cannot fix this') end}
        """.write(toFile: tmp + "/mine/fixfails.lua", atomically: true, encoding: .utf8)
        try """
        return {id = 'runtime', title = 'x', rationale = 'y', severity = 'warn',
          check = function(face, r) local t = nil; return t.field end}
        """.write(toFile: tmp + "/mine/runtime.lua", atomically: true, encoding: .utf8)
        let lua = try makeState()
        let out = try string(
            lua,
            """
            local report = check.run(face, {checks = {'\(tmp)'}, fix = true})
            local out = {}
            for _, r in ipairs(report.results) do out[#out + 1] = r.id .. ':' .. r.status .. ':' .. (r.messages and r.messages[1] or '') end
            return table.concat(out, '\\n') .. '\\nfixFailed=' .. tostring(report.fixFailed)
            """)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("mine/syntax:error:broken check: \(tmp)/mine/syntax.lua:1:") })
        #expect(
            lines.contains {
                $0.hasPrefix("mine/fields:error:broken check: \(tmp)/mine/fields.lua: severity must be \"fail\" or \"warn\", got loud")
            })
        #expect(lines.contains { $0.hasPrefix("mine/throws:error:broken check: \(tmp)/mine/throws.lua:1: boom at load") })
        #expect(
            lines.contains { $0.hasPrefix("mine/runtime:error:the check failed: \(tmp)/mine/runtime.lua:2: attempt to index a nil value") })
        #expect(lines.contains("mine/fixfails:fail:always"))
        #expect(
            lines.last?.hasPrefix("fixFailed=mine/fixfails (face 0): the fix failed: \(tmp)/mine/fixfails.lua:3: cannot fix this") == true)
    }

    /// The outline and kerning checks (their geometry and pair picking done in Swift) find what
    /// an edit breaks: a reversed contour, crossing contours, a curve bulging past its points,
    /// a pair kerned past half an em that also collapses a glyph onto itself.
    @Test func outlineAndKerningChecksCatchWhatEditsBreak() throws {
        let lua = try makeState()
        func result(_ id: String) throws -> String {
            try string(
                lua,
                "local r = check.run(face, {only = {'\(id)'}}).results[1]; return r.status .. ' ' .. table.concat(r.messages or {}, ' | ')")
        }
        func count(_ text: String) -> Int { Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
        #expect(try result("outlines/contour-direction").hasPrefix("pass"))
        #expect(try result("outlines/overlaps").hasPrefix("pass"))
        #expect(try result("kerning/no-self-collapse").hasPrefix("pass"))
        #expect(!(try result("kerning/extreme-kerns").contains("l l")))
        let extremaBefore = count(try result("outlines/points-on-extrema"))
        _ = try eval(
            lua,
            """
            local o = face.glyphs.o
            local reversed = {}
            for i, c in ipairs(o.contours) do local r = {} for k = #c, 1, -1 do r[#r + 1] = c[k] end reversed[i] = r end
            o.contours = reversed
            face.glyphs.l.contours = {
              {{x = 0, y = 0}, {x = 0, y = 100}, {x = 100, y = 100}, {x = 100, y = 0}},
              {{x = 50, y = 50}, {x = 50, y = 150}, {x = 150, y = 150}, {x = 150, y = 50}}}
            face.glyphs.period.contours = {{{x = 0, y = 0}, {x = 50, y = 300, on = false}, {x = 100, y = 0}}}
            face:setKerning('l', 'l', -2000)
            """)
        #expect(
            try result("outlines/contour-direction")
                == "warn outer contour counter-clockwise (TrueType wants clockwise): o | 918 mapped glyphs past the first 5000 were not checked"
        )
        #expect(
            try result("outlines/overlaps")
                == "warn 1 glyphs have overlapping contours: l | 918 mapped glyphs past the first 5000 were not checked")
        #expect(count(try result("outlines/points-on-extrema")) == extremaBefore + 1)
        #expect(try result("kerning/no-self-collapse") == "fail pairs that move back past the glyph's start: l l -2000 (advance 569)")
        #expect(try result("kerning/extreme-kerns").contains("l l -2000"))
    }

    @Test func checkPrintsAReportInTheREPLAndProfilesSelect() throws {
        let lua = try makeState()
        let counts = try string(
            lua,
            """
            local all = #check.run(face).results
            local fb = #check.run(face, {profile = 'fontbakery'}).results
            local names = #check.run(face, {profile = 'names'}).results
            return all .. ' ' .. fb .. ' ' .. names
            """)
        let n = counts.split(separator: " ").compactMap { Int($0) }
        #expect(n.count == 3 && n[0] > n[1] && n[1] > n[2] && n[2] >= 10, "\(counts)")
        expectError(lua, "check()", "check(face or font")
    }

    @Test func collectionsCheckSharedOutlinesOnce() throws {
        let lua = try makeState(fonts: ["/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"])
        let out = try string(
            lua,
            """
            local r = check.run(font, {only = {'outlines/contour-direction'}}).results
            return #r .. ' ' .. r[1].status .. ' ' .. r[2].status .. ' ' .. (r[2].messages[1] or '')
            """)
        #expect(out.hasPrefix("3 ") && out.hasSuffix("skip outlines shared with face 0, checked there"), "\(out)")
    }

    /// The bulk readers checks use agree with the per-glyph and per-character ones.
    @Test func bulkReadersAgreeWithTheObjects() throws {
        let lua = try makeState()
        let out = try string(
            lua,
            """
            local adv, names, blanks = face.glyphs:advances(), face.glyphs:names(), face.glyphs:blanks()
            local bad = 0
            for id, g in pairs(face.glyphs) do
              if adv[id + 1] ~= g.advance or names[id + 1] ~= g.name or (not g.isComposite and (blanks[id] == true) ~= (g.bounds == nil)) then bad = bad + 1 end
            end
            local m, count, sorted = face.cmap:mappings(), 0, true
            for cp, gid in pairs(face.cmap) do count = count + 1 end
            for i, pair in ipairs(m) do
              if face.cmap[pair[1]] ~= pair[2] or (i > 1 and m[i - 1][1] >= pair[1]) then sorted = false end
            end
            return #adv .. ' ' .. #names .. ' ' .. bad .. ' ' .. tostring(blanks[face.cmap[' ']]) .. ' ' .. tostring(blanks[face.cmap['A']]) .. ' ' .. tostring(#m == count) .. ' ' .. tostring(sorted)
            """)
        #expect(out == "6253 6253 0 true nil true true")
    }

    /// A no-break space drawn as a reference to the (empty) space has a bounding box in its
    /// glyf header but no ink; marks are Unicode's Mn and Me, not only the common blocks.
    @Test func compositesOfEmptyGlyphsAreBlankAndMarksAreUnicodes() throws {
        let lua = try makeState(fonts: ["/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf"])
        let out = try string(
            lua,
            """
            local nbsp = face:glyphFor(0xA0)
            local r = check.run(face, {only = {'glyphs/whitespace-ink'}}).results[1]
            local u = check.util
            return tostring(nbsp.isComposite) .. ' ' .. tostring(nbsp.bounds ~= nil) .. ' ' .. tostring(face.glyphs:blanks()[nbsp.id]) .. ' ' .. r.status
              .. ' ' .. tostring(u.isMark(0x07EB)) .. ' ' .. tostring(u.isMark(0x0301)) .. ' ' .. tostring(u.isMark(0x0041)) .. ' ' .. tostring(u.isMark(0x1E94A))
            """)
        #expect(out == "true true true pass true true false true")
    }

    @Test func jsonEncodesValuesAndRefusesCycles() throws {
        let lua = try makeState()
        #expect(
            try string(lua, #"return fontshell.json{a = 1, b = {1, 2.5, "x\ny\"", true}, c = {}, d = 0/0}"#)
                == #"{"a":1,"b":[1,2.5,"x\ny\"",true],"c":[],"d":null}"#)
        #expect(try string(lua, "return fontshell.json('caf\\xe9')") == "\"café\"")
        // Keys sorted bytewise, integers and floats apart, control characters and DEL escaped,
        // objects and tables with a metatable as their tostring, a stray byte as Latin-1.
        #expect(
            try string(lua, #"return fontshell.json{b = 1, B = 2, [10] = 3, [2] = 4.0, ["é"] = 1e300, x = "\1\127\t\b\f"}"#)
                == #"{"10":3,"2":4,"B":2,"b":1,"x":"\u0001\u007f\t\b\f","é":1e+300}"#)
        #expect(
            try string(lua, "return fontshell.json{setmetatable({}, {__tostring = function() return 'T' end}), 1/0, -0.5, 2^53}")
                == #"["T",null,-0.5,9.007199254741e+15]"#)
        // Integral floats take the integer path; what they print is still "%.14g"'s.
        #expect(
            try string(lua, "return fontshell.json{-0.0, 1e13, 99999999999999.0, 1e14, 123.0, -7.0}")
                == #"[-0,10000000000000,99999999999999,1e+14,123,-7]"#)
        #expect(try string(lua, "return fontshell.json('\\xff ok \\xe2\\x9c\\x93')") == "\"ÿ ok â\u{9C}\u{93}\"")
        // Integers written digit by digit, the smallest one included; a key that needs escaping.
        #expect(
            try string(lua, #"return fontshell.json{n = {-5, math.mininteger, 0, 1234567890123}, ['a"b\\'] = true}"#)
                == #"{"a\"b\\":true,"n":[-5,-9223372036854775808,0,1234567890123]}"#)
        expectError(
            lua, "local t = {} local d = t for i = 1, 70 do d.x = {} d = d.x end return fontshell.json(t)",
            "fontshell.json: nested deeper than 64 levels", positioned: false)
        expectError(lua, "local t = {}; t.t = t; return fontshell.json(t)", "fontshell.json: a table contains itself", positioned: false)
    }
}
