import FontModel
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Font checks written in Lua: `Checks/<area>/<id>.lua`, each returning
/// `{id, title, rationale, severity, check = function(face, report) ... end [, fix =, applies =,
/// fontbakery =, outlines =]}`. The Swift side finds and reads the files (checks run in sandboxed
/// states too, which have no io); `CheckModule.runner`, in Lua, loads each in an environment of
/// its own, runs it over faces and applies fixes. `check(face)` in the REPL, `fontshell check`
/// and its batch workers all run through it. docs/checks.md lists the shipped checks.
public enum CheckModule {
    /// The checks shipped with FontShell: `$FONTSHELL_CHECKS`, else the resource folder SwiftPM
    /// copies beside the executable, else the source tree this was built from.
    public static func shippedDirectory() -> String? {
        if let env = getenv("FONTSHELL_CHECKS") { return String(cString: env) }
        var candidates: [String] = []
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            candidates.append(dir + "/FontShell_FontScript.resources/Checks")
            // Test bundles live one level down from the build folder.
            candidates.append(dir + "/../FontShell_FontScript.resources/Checks")
        }
        #else
        let exe = CommandLine.arguments[0]
        let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        candidates.append(dir + "/FontShell_FontScript.resources/Checks")
        #endif
        let source = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        candidates.append(source + "/Checks")
        return candidates.first { isDirectory($0) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every `<area>/<id>.lua` below each folder, sorted by id: `{id, path, source}`, or
    /// `{id, path, error}` for a file that cannot be read. A later folder's check replaces an
    /// earlier one with the same id (a user's folder can override a shipped check).
    static func sources(in directories: [String]) -> [(id: String, path: String, source: [UInt8]?, error: String?)] {
        var byID: [String: (String, String, [UInt8]?, String?)] = [:]
        for dir in directories {
            for area in names(in: dir).sorted() where isDirectory(dir + "/" + area) && !area.hasPrefix(".") {
                for file in names(in: dir + "/" + area).sorted() where file.hasSuffix(".lua") {
                    let id = area + "/" + String(file.dropLast(4))
                    let path = dir + "/" + area + "/" + file
                    if let bytes = readAll(path) {
                        byID[id] = (id, path, bytes, nil)
                    } else {
                        byID[id] = (id, path, nil, "cannot read \(path): \(String(cString: strerror(errno)))")
                    }
                }
            }
        }
        return byID.keys.sorted().compactMap { byID[$0] }
    }

    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    static func readAll(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
            if n < buffer.count { break }
            if bytes.count > 1 << 20 { errno = EFBIG; return nil }   // a check is a small file
        }
        return ferror(f) == 0 ? bytes : nil
    }

    /// check.sources(dirs) → list of {id =, path =, source =} or {id =, path =, error =}.
    static let sourcesFunction: LuaFunction = { L in
        LuaCall.run(L, "check.sources") { call in
            let s = call.stack
            var dirs: [String] = []
            if s.type(at: 1) == .table {
                dirs = try s.items(ofListAt: 1) { _ in
                    guard let d = s.string(at: -1) else { throw LuaArgumentError(1, "a list of folder paths expected") }
                    return d
                }
            }
            if dirs.isEmpty, let shipped = shippedDirectory() { dirs = [shipped] }
            let found = sources(in: dirs)
            s.pushTable(arrayCount: Int32(found.count))
            for (i, f) in found.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(f.id); s.setField("id", in: -2)
                s.push(f.path); s.setField("path", in: -2)
                if let source = f.source { s.push(bytes: source); s.setField("source", in: -2) }
                if let error = f.error { s.push(error); s.setField("error", in: -2) }
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    /// A sandboxed state reads only the shipped checks (no folder of its choosing).
    static let shippedSourcesFunction: LuaFunction = { L in
        if let L { LuaStack(L).truncate(to: 0) }
        return sourcesFunction(L)
    }

    /// Installs `check` as a stand-in that loads the runner when first used: a batch run makes
    /// a Lua state per font, and most scripts never check anything.
    static func install(in lua: LuaState, sandboxed: Bool) throws {
        try lua.load(stub, name: "=check stub", cached: true)
        lua.stack.push(function: loadRunner)
        lua.stack.push(function: sandboxed ? shippedSourcesFunction : sourcesFunction)
        try lua.call(arguments: 2, results: 0)
    }

    /// (loadRunner, sources) → `check`, a table whose first use fills it with the runner.
    static let stub = """
        local loadRunner, sources = ...
        local function fill(t)
          setmetatable(t, nil)
          loadRunner()(sources, t)
        end
        _G.check = setmetatable({}, {
          __index = function(t, k) fill(t); return t[k] end,
          __call = function(t, ...) fill(t); return t(...) end,
          __pairs = function(t) fill(t); return next, t, nil end,
        })
        """

    /// The runner compiled (from the process's bytecode after the first time), as a function.
    static let loadRunner: LuaFunction = { L in
        LuaCall.run(L, "check") { call in
            try call.stack.load(runner, name: "=check runner", cached: true)
            return 1
        }
    }

    /// A batch worker's job for `fontshell check`: every selected check over every face of the
    /// font, fixes applied and the font saved when asked; the record lists each result.
    public static func run(fontPath: String, directories: [String], profile: String, only: [String],
                           fix: Bool, inPlace: Bool) -> FontJob.Record {
        let start = FontJob.monotonicSeconds()
        let lua = LuaState()
        let s = lua.stack
        do {
            try FontScript.install(in: lua, sandboxed: false)
            try lua.load(workerChunk, name: "=(check worker)", cached: true)
            s.push(fontPath)
            s.push(strings: directories)
            s.push(profile)
            s.push(strings: only)
            s.push(fix)
            s.push(inPlace)
            try lua.call(arguments: 6, results: 2)
            // The record is finished here so its time includes the save.
            let failed = s.truthy(at: -1)
            s.pop()
            s.push(FontJob.rounded(FontJob.monotonicSeconds() - start))
            s.setField("seconds", in: -2)
            try lua.load("return fontshell.json(...)", name: "=(check record)", cached: true)
            s.insert(at: -2)
            try lua.call(arguments: 1, results: 1)
            return FontJob.Record(json: s.string(at: -1) ?? "", failed: failed)
        } catch {
            return FontJob.failure(path: fontPath, seconds: FontJob.monotonicSeconds() - start, error: "\(error)")
        }
    }

    /// (path, dirs, profile, only, fix, inPlace) → record, failed.
    static let workerChunk = """
        local path, dirs, profile, only, fix, inPlace = ...
        local record = {path = path}
        local ok, font = pcall(fontshell.open, path)
        if not ok then
          record.ok, record.error = false, tostring(font)
          return record, true
        end
        record.faces = #font
        local report = check.run(font, {checks = dirs, profile = profile, only = only, fix = fix})
        record.results = report.results
        local failed = false
        for _, r in ipairs(report.results) do
          local final = r.after or r.status
          if final == "fail" or final == "error" then failed = true end
        end
        if fix then
          if report.fixFailed then
            record.fixError = report.fixFailed .. "; nothing was written"
            failed = true
          elseif report.fixed > 0 then
            local target = inPlace and path or path:gsub("(%.[^./]+)$", ".fixed%1")
            if target == path and not inPlace then target = path .. ".fixed" end
            local saved, err = pcall(font.save, font, target, {overwrite = inPlace})
            if saved then record.saved = target
            else record.fixError = "the fixed font could not be saved: " .. tostring(err); failed = true end
          end
        end
        record.ok = not failed
        return record, failed
        """

    /// The `check` module, in Lua: the sources function is its one upvalue from Swift.
    static let runner = #"""
    local sources, check = ...
    local statuses = {pass = 0, skip = 1, warn = 2, fail = 3, error = 4}
    local required = {id = "string", title = "string", rationale = "string", check = "function"}

    -- The definitions of every check in `dirs` (default: the shipped ones); a file that does
    -- not load or does not return a valid definition becomes {id, path, broken = reason}.
    -- Helpers every check sees as `util` (what several checks need, written once).
    local util = {}
    -- What several checks read of a face is made once per face and run (check.run clears it,
    -- and so does every fix).
    local cache = {}
    local function cached(face, what, make)
      local key = tostring(face.font.path) .. "#" .. face.index .. "#" .. what
      local value = cache[key]
      if value == nil then value = make(); cache[key] = value end
      return value
    end
    function util.clearCache() cache = {} end
    -- The best Unicode cmap as a list of {cp, gid}, sorted by code point (empty without one).
    function util.mappings(face)
      return cached(face, "mappings", function()
        local cmap = face.cmap
        return cmap and cmap:mappings() or {}
      end)
    end
    -- Faces of a collection that share a table share what is read from it: the first face
    -- sharing it stands for them all.
    local function owner(face, tags)
      for _, tag in ipairs(tags) do
        local sharing = util.has(face, tag) and face:sharing(tag)
        if sharing and sharing[1] then return face.font.faces[sharing[1] + 1] end
      end
      return face
    end
    -- Advances by glyph id: util.advances(face)[id + 1].
    function util.advances(face)
      local f = owner(face, {"hmtx"})
      return cached(f, "advances", function() return f.glyphs:advances() end)
    end
    -- The set of glyph ids that draw nothing.
    function util.blanks(face)
      local f = owner(face, {"glyf", "CFF ", "CFF2"})
      return cached(f, "blanks", function() return f.glyphs:blanks() end)
    end
    function util.u(cp) return string.format("U+%04X", cp) end
    -- Characters that draw nothing: spaces, controls, format and default-ignorable characters.
    local blankRanges = {{0x0000, 0x0020}, {0x007F, 0x00A0}, {0x00AD, 0x00AD}, {0x034F, 0x034F},
      {0x061C, 0x061C}, {0x115F, 0x1160}, {0x1680, 0x1680}, {0x17B4, 0x17B5}, {0x180B, 0x180F},
      {0x2000, 0x200F}, {0x2028, 0x202F}, {0x205F, 0x206F}, {0x3000, 0x3000}, {0x3164, 0x3164},
      {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3},
      {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}, {0x2800, 0x2800}, {0xFFF9, 0xFFFB}}
    -- (U+1680 OGHAM SPACE MARK is drawn as a line by design.)
    local spaceChars = {[0x0020] = true, [0x00A0] = true, [0x202F] = true,
      [0x205F] = true, [0x3000] = true}
    for cp = 0x2000, 0x200A do spaceChars[cp] = true end
    local function inRanges(ranges, cp)
      for _, r in ipairs(ranges) do if cp >= r[1] and cp <= r[2] then return true end end
      return false
    end
    function util.isBlank(cp) return inRanges(blankRanges, cp) end
    function util.isSpace(cp) return spaceChars[cp] == true end
    function util.isPrivateUse(cp)
      return (cp >= 0xE000 and cp <= 0xF8FF) or cp >= 0xF0000
    end
    -- Combining marks (general category Mn/Me in the main combining blocks).
    local markRanges = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
      {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F},
      {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED},
      {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
      {0x20D0, 0x20FF}, {0x302A, 0x302D}, {0x3099, 0x309A}, {0xFE20, 0xFE2F}}
    function util.isMark(cp) return inRanges(markRanges, cp) end
    -- Glyph ids GDEF classes as marks (class 3).
    function util.markGlyphs(face)
      return cached(face, "marks", function() return util.readMarkGlyphs(face) end)
    end
    function util.readMarkGlyphs(face)
      local marks = {}
      local ok, gdef = pcall(function() return face.GDEF end)
      if ok and gdef then
        local classes = gdef.GlyphClassDef
        if classes then
          for name, class in pairs(classes) do
            if class == 3 then local g = face.glyphs:get(name); if g then marks[g.id] = true end end
          end
        end
      end
      return marks
    end
    -- The style words of the face: ID 17, else ID 2.
    function util.style(face) return face.name[17] or face.name[2] or "" end
    function util.isItalicName(face) local s = util.style(face):lower(); return s:find("italic") or s:find("oblique") end
    function util.isBoldName(face)
      local s = util.style(face):lower():gsub("semi%s*bold", ""):gsub("demi%s*bold", ""):gsub("extra%s*bold", ""):gsub("ultra%s*bold", "")
      return s:find("bold") ~= nil
    end
    function util.os2(face) local ok, t = pcall(function() return face["OS/2"] end); return ok and t or nil end
    function util.has(face, tag)
      for _, t in ipairs(face.tags) do if t == tag then return true end end
      return false
    end
    -- Whether a glyph draws anything (an empty glyph has no bounds).
    function util.hasInk(glyph)
      return glyph.bounds ~= nil
    end
    -- Names of at most `limit` items, then a count of the rest.
    function util.list(items, limit)
      limit = limit or 12
      local shown = {}
      for i = 1, math.min(#items, limit) do shown[i] = tostring(items[i]) end
      local text = table.concat(shown, ", ")
      if #items > limit then text = text .. " … (" .. #items .. " in all)" end
      return text
    end
    -- A contour ({x, y, on} points) as segments {from, control..., to}: quadratic (TrueType,
    -- implied on-curve points between two off-curve ones made explicit) or, for `cubic`
    -- (CFF), two controls per curve.
    function util.segments(contour, cubic)
      local n = #contour
      if n < 2 then return {} end
      local start = 1
      while start <= n and not contour[start].on do start = start + 1 end
      local pts = {}
      if start > n then  -- all off-curve: start at the implied point between the first two
        local a, b = contour[1], contour[2]
        pts[1] = {x = (a.x + b.x) / 2, y = (a.y + b.y) / 2, on = true}
        for i = 2, n do pts[#pts + 1] = contour[i] end
        pts[#pts + 1] = contour[1]
      else
        for i = 0, n - 1 do pts[#pts + 1] = contour[(start - 1 + i) % n + 1] end
      end
      pts[#pts + 1] = pts[1]
      local segs, current = {}, {pts[1]}
      for i = 2, #pts do
        local p = pts[i]
        if p.on then
          current[#current + 1] = p
          segs[#segs + 1] = current
          current = {p}
        elseif not cubic and not current[#current].on then
          local q = current[#current]
          local mid = {x = (q.x + p.x) / 2, y = (q.y + p.y) / 2, on = true}
          current[#current + 1] = mid
          segs[#segs + 1] = current
          current = {mid, p}
        else
          current[#current + 1] = p
        end
      end
      return segs
    end
    -- Points along a contour (each curve cut into `steps` straight pieces).
    function util.flatten(contour, cubic, steps)
      steps = steps or 4
      local out = {}
      for _, seg in ipairs(util.segments(contour, cubic)) do
        local a = seg[1]
        out[#out + 1] = {a.x, a.y}
        if #seg == 3 then
          local c, b = seg[2], seg[3]
          for k = 1, steps - 1 do
            local t = k / steps
            local u = 1 - t
            out[#out + 1] = {u * u * a.x + 2 * u * t * c.x + t * t * b.x, u * u * a.y + 2 * u * t * c.y + t * t * b.y}
          end
        elseif #seg == 4 then
          local c1, c2, b = seg[2], seg[3], seg[4]
          for k = 1, steps - 1 do
            local t = k / steps
            local u = 1 - t
            out[#out + 1] = {u*u*u*a.x + 3*u*u*t*c1.x + 3*u*t*t*c2.x + t*t*t*b.x, u*u*u*a.y + 3*u*u*t*c1.y + 3*u*t*t*c2.y + t*t*t*b.y}
          end
        end
      end
      return out
    end
    -- Twice the signed area of a polygon of {x, y}: positive counter-clockwise (y up).
    function util.area(poly)
      local a = 0
      for i = 1, #poly do
        local p, q = poly[i], poly[i % #poly + 1]
        a = a + p[1] * q[2] - q[1] * p[2]
      end
      return a
    end
    -- The glyphs outline checks look at: those mapped to characters, at most `limit`
    -- (returns the list and how many were left out).
    function util.mappedGlyphs(face, limit)
      limit = limit or 5000
      local seen, out, skipped = {}, {}, 0
      for _, m in ipairs(util.mappings(face)) do
        if not seen[m[2]] then
          seen[m[2]] = true
          if #out < limit then out[#out + 1] = face.glyphs[m[2]] else skipped = skipped + 1 end
        end
      end
      return out, skipped
    end
    check.util = util

    -- Lua shortens long chunk names in messages ("...cks/x.lua:3: boom"): give the whole path.
    local function located(message, path)
      message = tostring(message)
      local line, rest = message:match("^[^\n]-%.lua:(%d+): (.*)$")
      if line and path then return path .. ":" .. line .. ": " .. rest end
      return message
    end

    function check.load(dirs)
      local list = {}
      for _, src in ipairs(sources(dirs)) do
        local entry = {id = src.id, path = src.path}
        if src.error then
          entry.broken = src.error
        else
          local env = setmetatable({util = util}, {__index = _G})
          local chunk, err = load(src.source, "@" .. src.path, "t", env)
          local ok, def
          if chunk then ok, def = pcall(chunk) else ok, def = false, err end
          if not ok then
            entry.broken = located(def, src.path)
          elseif type(def) ~= "table" then
            entry.broken = src.path .. ": a check file must return a table, got " .. type(def)
          else
            for field, kind in pairs(required) do
              if type(def[field]) ~= kind then
                entry.broken = entry.broken or (src.path .. ": '" .. field .. "' must be a " .. kind .. ", got " .. type(def[field]))
              end
            end
            if def.severity ~= "fail" and def.severity ~= "warn" then
              entry.broken = entry.broken or (src.path .. ": severity must be \"fail\" or \"warn\", got " .. tostring(def.severity))
            end
            if type(def.id) == "string" and src.id:match("[^/]+$") ~= def.id then
              entry.broken = entry.broken or (src.path .. ": id '" .. def.id .. "' differs from the file name")
            end
            for _, f in ipairs{"fix", "applies"} do
              if def[f] ~= nil and type(def[f]) ~= "function" then
                entry.broken = entry.broken or (src.path .. ": '" .. f .. "' must be a function")
              end
            end
            if not entry.broken then entry.def = def end
          end
        end
        list[#list + 1] = entry
      end
      return list
    end

    -- Which checks a profile selects: "default" (all), "fontbakery" (those fontbakery also
    -- has), or an area ("names", "metrics" ...); `only` lists ids or areas to keep.
    local function selected(entry, profile, only)
      if only and #only > 0 then
        local keep = false
        for _, o in ipairs(only) do
          if entry.id == o or entry.id:sub(1, #o + 1) == o .. "/" then keep = true end
        end
        if not keep then return false end
      end
      if profile == nil or profile == "default" or profile == "all" then return true end
      if profile == "fontbakery" then return entry.broken or (entry.def and entry.def.fontbakery ~= nil) end
      return entry.id:sub(1, #profile + 1) == profile .. "/"
    end
    check.selected = selected

    local function runOne(entry, face)
      local r = {id = entry.id, face = face.index, status = "pass"}
      if entry.broken then
        r.status, r.messages = "error", {"broken check: " .. entry.broken}
        return r
      end
      local def = entry.def
      local messages, hidden = {}, 0
      local function add(status, text)
        if statuses[status] > statuses[r.status] then r.status = status end
        if text ~= nil then
          if #messages < 25 then messages[#messages + 1] = tostring(text) else hidden = hidden + 1 end
        end
      end
      local report = {
        fail = function(text) add("fail", text) end,
        warn = function(text) add("warn", text) end,
        problem = function(text) add(def.severity, text) end,
        skip = function(text) add("skip", text) end,
        info = function(text) add("pass", text) end,
      }
      if def.outlines then
        -- Faces of a collection sharing glyph data with an earlier face were checked there.
        for _, tag in ipairs{"glyf", "CFF ", "CFF2"} do
          local sharing = face:sharing(tag)
          if sharing and sharing[1] and sharing[1] < face.index then
            r.status, r.messages = "skip", {"outlines shared with face " .. sharing[1] .. ", checked there"}
            return r
          end
        end
      end
      local ok, err = true, nil
      if def.applies then
        local applies
        ok, applies = pcall(def.applies, face)
        if ok and not applies then r.status, r.messages = "skip", {"does not apply"}; return r end
      end
      if ok then ok, err = pcall(def.check, face, report) end
      if not ok then
        r.status, messages, hidden = "error", {"the check failed: " .. located(err, entry.path)}, 0
      end
      if hidden > 0 then messages[#messages + 1] = "… and " .. hidden .. " more" end
      if #messages > 0 then r.messages = messages end
      return r
    end

    -- Runs the selected checks over a Face or every face of a Font.
    -- options: checks = {dirs}, profile =, only = {ids or areas}, fix = true (apply the fixes
    -- checks offer for what they found, in memory, then check again).
    -- Returns {results = {{id, face, status, messages, fix, after}}, fixed = n, fixFailed = reason}.
    function check.run(target, options)
      options = options or {}
      local isFont, faces = pcall(function() return target.faces end)
      if not (isFont and type(faces) == "table") then faces = {target} end
      local entries = {}
      for _, e in ipairs(check.load(options.checks)) do
        if selected(e, options.profile, options.only) then entries[#entries + 1] = e end
      end
      local results, fixed, fixFailed = {}, 0, nil
      util.clearCache()
      for _, face in ipairs(faces) do
        for _, e in ipairs(entries) do
          local r = runOne(e, face)
          if options.fix and (r.status == "fail" or r.status == "warn") and e.def and e.def.fix and not fixFailed then
            local ok, what = pcall(e.def.fix, face)
            util.clearCache()
            if ok then
              r.fix = what ~= nil and tostring(what) or "fixed"
              fixed = fixed + 1
              r.after = runOne(e, face).status
            else
              r.fixError = located(what, e.path)
              fixFailed = e.id .. " (face " .. face.index .. "): the fix failed: " .. r.fixError
            end
          end
          results[#results + 1] = r
        end
      end
      return {results = results, fixed = fixed, fixFailed = fixFailed, checks = #entries}
    end

    -- The checks: {{id, title, severity, fontbakery, fix = true/false, path, broken}}.
    function check.list(dirs)
      local out = {}
      for _, e in ipairs(check.load(dirs)) do
        local d = e.def or {}
        out[#out + 1] = {id = e.id, title = d.title, severity = d.severity, rationale = d.rationale,
                         fontbakery = d.fontbakery, fix = d.fix ~= nil, path = e.path, broken = e.broken}
      end
      return out
    end

    local marks = {pass = "pass", skip = "skip", warn = "WARN", fail = "FAIL", error = "ERROR"}
    -- check(face or font [, options]): runs the checks and prints the findings (check.run
    -- returns them instead; printing and returning both would print twice in the REPL).
    setmetatable(check, {__call = function(_, target, options)
      if target == nil then error("check(face or font [, {profile =, only =, fix =}]): what should be checked?", 2) end
      local report = check.run(target, options)
      local counts = {pass = 0, skip = 0, warn = 0, fail = 0, error = 0}
      for _, r in ipairs(report.results) do
        counts[r.status] = counts[r.status] + 1
        if r.status ~= "pass" and r.status ~= "skip" then
          print(string.format("%-5s %s (face %d)", marks[r.status], r.id, r.face))
          for _, m in ipairs(r.messages or {}) do print("      " .. m) end
          if r.fix then print("      fixed: " .. r.fix .. " → now " .. r.after) end
        end
      end
      print(string.format("%d checks: %d failed, %d warnings, %d errors, %d passed, %d skipped",
        #report.results, counts.fail, counts.warn, counts.error, counts.pass, counts.skip))
    end})
    _G.check = check
    """#
}
