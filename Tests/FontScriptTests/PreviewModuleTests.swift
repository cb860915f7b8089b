import Foundation
import Testing
@testable import FontScript
@testable import LuaBridge

@Suite struct PreviewModuleTests {
    @Test func labelReturnsImageAndMeasurements() throws {
        let lua = try makeState()
        let r = try eval(
            lua,
            """
            local img, m = preview.label(face, "Hello", {width = 200, height = 44, size = 17, scale = 2})
            return img.width, img.height, m.metrics, math.abs(m.capCenterOffset - img.measurements.capCenterOffset), tostring(img):match("^<Image 400x88")
            """)
        #expect(r == ["400", "88", "hhea", "0.0", "<Image 400x88"])
    }

    /// Explicit options win over the kind, the kind over the defaults.
    @Test func appearanceLayersDefaultsKindAndCall() throws {
        let lua = try makeState()
        let r = try eval(
            lua,
            """
            preview.appearance{size = 20, color = "#ff0000", background = "#ffffff"}
            preview.appearance("points", {size = 30, color = "#00ff00"})
            local function capHeight(o) local _, m = preview.label(face, "H", o) return m.capHeight end
            local function ink(img)  -- the colour of the most opaque-looking pixel
              local best, br, bg, bb = 766
              for y = 0, img.height - 1 do for x = 0, img.width - 1 do
                local r, g, b = img:pixel(x, y)
                if r + g + b < best then best, br, bg, bb = r + g + b, r, g, b end
              end end
              return ("%d,%d,%d"):format(br, bg, bb)
            end
            local box = {width = 100, height = 50}
            local plain = capHeight(box)
            local kind = capHeight{width = 100, height = 50, kind = "points"}
            local explicit = capHeight{width = 100, height = 50, kind = "points", size = 40}
            local colours = ink(preview.text(face, "H")) .. " " .. ink(preview.text(face, "H", {kind = "points"}))
              .. " " .. ink(preview.text(face, "H", {kind = "points", color = "#0000ff"}))
            preview.resetAppearance()
            local reset = capHeight(box)
            return plain / kind, explicit / kind, colours, reset / plain
            """)
        #expect(Double(r[0]).map { abs($0 - 20.0 / 30.0) < 1e-9 } == true, "\(r)")
        #expect(Double(r[1]).map { abs($0 - 40.0 / 30.0) < 1e-9 } == true, "\(r)")
        #expect(r[2] == "255,0,0 0,255,0 0,0,255")
        #expect(Double(r[3]).map { abs($0 - 17.0 / 20.0) < 1e-9 } == true, "\(r)")   // back to a label's 17 pt default
    }

    @Test func sweepFromLuaRestoresTheField() throws {
        let lua = try makeState()
        let r = try eval(
            lua,
            """
            local before = face.hhea.ascender
            local sheet, results, best = face:sweep{field = "hhea.ascender", values = {1700, 1900, 2100}, text = "Hi",
                                                    label = {width = 120, height = 44, size = 17}}
            return #results, best, face.hhea.ascender == before, results[1].capCenterOffset < results[3].capCenterOffset, sheet.width > 360
            """)
        #expect(r == ["3", "1900", "true", "true", "true"])
    }

    @Test func compareAndLoad() throws {
        let lua = try makeState()
        let folder = NSTemporaryDirectory() + "fontshell-lua-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try eval(
            lua,
            """
            local a = preview.text(face, "Hamburg", {size = 24})
            a:save("\(folder)/a.png")
            local same, s1 = preview.compare(a, preview.load("\(folder)/a.png"))
            face.hhea.ascender = face.hhea.ascender - 300
            local b = preview.text(face, "Hamburg", {size = 24})
            local diff, s2 = preview.compare(a, b)
            return s1.changedPixels, s1.bounds == nil, s2.changedPixels > 0, s2.bounds.width > 0, diff.width == 3 * a.width + 16
            """)
        #expect(r == ["0", "true", "true", "true", "true"])
    }

    /// `show(preview.X(...))` passes the preview's information table on as show's second
    /// argument: show takes the Image alone (issue 35, item 1), while a table the user writes
    /// is still checked as options. (Outside a terminal show draws nothing and says so.)
    @Test func showTakesAPreviewsImageWithItsInformation() throws {
        let lua = try makeState()
        for call in [
            #"preview.text(face, "Hi", {size = 24})"#, #"preview.label(face, "Hi", {width = 80, height = 30})"#,
            #"preview.compare(preview.text(face, "Hi"), preview.text(face, "Ho"))"#,
        ] {
            #expect(try eval(lua, "show(\(call)); return 'drawn'") == ["drawn"], "\(call)")
        }
        // The information is still there, and still a plain table to read.
        #expect(
            try eval(lua, #"local _, info = preview.text(face, "Hi"); return type(info.missing), #info.baselines, (next(info))"#)[0...1]
                == ["table", "1"])
        expectError(lua, #"show(preview.text(face, "Hi"), {baselines = {1}})"#, "unknown option 'baselines'")
    }

    @Test func errorsAreLuaErrorsWithPosition() throws {
        let lua = try makeState()
        expectError(lua, #"preview.text(face, "x", {sise = 3})"#, "unknown option 'sise' (did you mean 'size'?)")
        expectError(lua, #"preview.label(face, "x", {width = 10, height = 10, platform = "mac"})"#, "unknown platform 'mac'")
        expectError(lua, #"preview.text(face, "x", {size = -1})"#, "size must be a positive number")
        expectError(lua, #"preview.text(face, "")"#, "text is empty")
        expectError(lua, ##"preview.text(face, "x", {color = "#12"})"##, "colour '#12'")
        expectError(lua, #"preview.text(face, "x", {kind = "nope"})"#, "no appearance for kind 'nope'")
        expectError(lua, #"preview.text(font, "x")"#, "bad argument #1 to 'text' (Face expected, got Font)")
        expectError(lua, #"preview.sheet({})"#, "empty table")
        expectError(lua, #"preview.sheet({1})"#, "item 1 is a number, not an Image")
        expectError(lua, #"preview.text(face, "x"):pixel(5000, 0)"#, "outside the")
        expectError(lua, #"preview.appearance{stroke = "thick"}"#, "option 'stroke' must be")
        expectError(lua, #"face:sweep{field = "hhea.ascender", values = {1}, text = "x"}"#, "width and height")
    }
}
