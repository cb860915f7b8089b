import LuaBridge

/// Parts of the `fontshell` module written in Lua: the REPL's pretty-printer and completion.
enum Prelude {
    static let source = #"""
    local fontshell = ...
    local members = fontshell.members

    -- A readable rendering: strings quoted inside tables (long ones shortened, bytes that are
    -- not text shown as a count), tables to a depth limit with long ones cut and counted,
    -- objects through their __tostring, and a list of records as an aligned table.
    local function short(s, limit)
      local printable = utf8.len(s) and not s:find("[%z\1-\8\11\12\14-\31\127]")
      if not printable then return "<" .. #s .. " bytes>" end
      if utf8.len(s) > limit then
        local cut = s:sub(1, (utf8.offset(s, limit - 1) or (limit)) - 1)
        return string.format("%q", cut):sub(1, -2) .. "…\" (" .. utf8.len(s) .. " chars)"
      end
      return string.format("%q", s)
    end

    local function pretty(value, depth, seen)
      local t = type(value)
      if t == "string" then return depth > 0 and short(value, 60) or value end
      if t ~= "table" then return tostring(value) end
      if depth >= 3 then return "{…}" end
      seen = seen or {}
      if seen[value] then return "{<cycle>}" end
      seen[value] = true
      local parts, count, n = {}, 0, #value
      local keys = {}
      for k in pairs(value) do
        if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
      end
      local total = n + #keys
      for i = 1, n do
        count = count + 1
        if count > 25 then parts[#parts + 1] = "… (" .. (total - 25) .. " more)"; break end
        parts[#parts + 1] = pretty(value[i], depth + 1, seen)
      end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      for _, k in ipairs(keys) do
        if count >= 25 then
          if count == 25 then parts[#parts + 1] = "… (" .. (total - 25) .. " more)" end
          break
        end
        count = count + 1
        local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or "[" .. pretty(k, depth + 1, seen) .. "]"
        parts[#parts + 1] = key .. " = " .. pretty(value[k], depth + 1, seen)
      end
      seen[value] = nil
      return "{" .. table.concat(parts, ", ") .. "}"
    end

    -- A list of at least two records (tables of strings, numbers and booleans with the same
    -- keys) as rows under a header, columns aligned; nil when the value is not one.
    local function recordTable(list, maxRows)
      if type(list) ~= "table" or #list < 2 then return nil end
      local columns, known = {}, {}
      for i = 1, #list do
        local row = list[i]
        if type(row) ~= "table" or getmetatable(row) or #row > 0 then return nil end
        for k, v in pairs(row) do
          if type(k) ~= "string" then return nil end
          local tv = type(v)
          if tv ~= "string" and tv ~= "number" and tv ~= "boolean" then return nil end
          if not known[k] then known[k] = true; columns[#columns + 1] = k end
        end
      end
      for k in pairs(list) do
        if not (math.type(k) == "integer" and k >= 1 and k <= #list) then return nil end
      end
      -- Numbers first (ids read best on the left), then text, each alphabetical.
      table.sort(columns, function(a, b)
        local na, nb = type(list[1][a]) == "number", type(list[1][b]) == "number"
        if na ~= nb then return na end
        return a < b
      end)
      local cells, widths = {}, {}
      for c, name in ipairs(columns) do widths[c] = utf8.len(name) end
      local shown = math.min(#list, maxRows)
      for i = 1, shown do
        local row = {}
        for c, name in ipairs(columns) do
          local v = list[i][name]
          local text = v == nil and "" or (type(v) == "string" and short(v, 40) or tostring(v))
          row[c] = text
          widths[c] = math.max(widths[c], utf8.len(text) or #text)
        end
        cells[i] = row
      end
      local function line(values)
        local out = {}
        for c, v in ipairs(values) do out[c] = v .. string.rep(" ", widths[c] - (utf8.len(v) or #v)) end
        return (table.concat(out, "  "):gsub("%s+$", ""))
      end
      local lines = {line(columns)}
      for i = 1, shown do lines[#lines + 1] = line(cells[i]) end
      if #list > shown then lines[#lines + 1] = "… (" .. (#list - shown) .. " more rows)" end
      return table.concat(lines, "\n")
    end

    fontshell.pretty = function(value) return recordTable(value, 40) or pretty(value, 0) end

    -- Completion of "expr.partial" / "expr:partial" / "partial": returns candidate full texts.
    -- The expression part may only be names, dots, brackets and quoted keys (nothing is called).
    fontshell.complete = function(text)
      local head, sep, partial = text:match("^(.-)([%.:])([%w_]*)$")
      local out = {}
      if not head or head == "" then
        partial = text:match("([%w_]*)$")
        local prefix = text:sub(1, #text - #partial)
        for k in pairs(_G) do
          if type(k) == "string" and k:sub(1, #partial) == partial then out[#out + 1] = prefix .. k end
        end
        table.sort(out)
        return out
      end
      if not head:match("^[%w_%.%[%]\"'/ ]+$") then return out end
      local chunk = load("return " .. head, "=complete", "t")
      if not chunk then return out end
      local ok, object = pcall(chunk)
      if not ok or object == nil then return out end
      local names = {}
      if type(object) == "table" then
        for k, v in pairs(object) do
          if type(k) == "string" then names[#names + 1] = (type(v) == "function") and (k .. "()") or k end
        end
      elseif type(object) == "userdata" then
        names = members(object)
        -- The glyphs of a face complete by name (face.glyphs.A<Tab>).
        if sep == "." and tostring(object):match("^<glyphs:") then
          for _, glyph in pairs(object) do
            local name = glyph.name
            if name:sub(1, #partial) == partial then names[#names + 1] = name end
            if #names > 500 then break end
          end
        end
      elseif type(object) == "string" then
        for k in pairs(string) do names[#names + 1] = k .. "()" end
      end
      for _, name in ipairs(names) do
        local isMethod = name:sub(-2) == "()"
        local bare = isMethod and name:sub(1, -3) or name
        local wanted = (sep == ":" and isMethod) or (sep == "." and bare:match("^[%a_][%w_]*$"))
        if wanted and bare:sub(1, #partial) == partial then out[#out + 1] = head .. sep .. bare end
      end
      table.sort(out)
      return out
    end

    -- JSON text of a value (one line): tables whose keys are exactly 1..n become arrays, other
    -- tables objects with their keys as strings, sorted; integers stay integers, NaN and
    -- infinities become null, other values (objects, functions) their tostring. Cycles and
    -- nesting past 64 levels are errors.
    local escapes = {['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
                     ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
    local function jsonString(s)
      if not utf8.len(s) then  -- not UTF-8: bytes above 127 as Latin-1 code points
        s = s:gsub("[\128-\255]", function(c) return utf8.char(c:byte()) end)
      end
      return '"' .. s:gsub('[%c"\\]', function(c)
        return escapes[c] or string.format("\\u%04x", c:byte())
      end) .. '"'
    end
    local function json(value, out, depth, open)
      local t = type(value)
      if t == "string" then out[#out + 1] = jsonString(value)
      elseif t == "number" then
        if value ~= value or value == math.huge or value == -math.huge then out[#out + 1] = "null"
        elseif math.type(value) == "integer" then out[#out + 1] = string.format("%d", value)
        else out[#out + 1] = string.format("%.14g", value) end
      elseif t == "boolean" then out[#out + 1] = tostring(value)
      elseif t == "nil" then out[#out + 1] = "null"
      elseif t == "table" and not getmetatable(value) then
        if depth > 64 then error("fontshell.json: nested deeper than 64 levels", 0) end
        if open[value] then error("fontshell.json: a table contains itself", 0) end
        open[value] = true
        local n, count = #value, 0
        for _ in pairs(value) do count = count + 1 end
        if count == n and (n > 0 or next(value) == nil) then
          out[#out + 1] = "["
          for i = 1, n do
            if i > 1 then out[#out + 1] = "," end
            json(value[i], out, depth + 1, open)
          end
          out[#out + 1] = "]"
        else
          local keys = {}
          for k in pairs(value) do keys[#keys + 1] = tostring(k) end
          table.sort(keys)
          local byName = {}
          for k, v in pairs(value) do byName[tostring(k)] = v end
          out[#out + 1] = "{"
          for i, k in ipairs(keys) do
            if i > 1 then out[#out + 1] = "," end
            out[#out + 1] = jsonString(k) .. ":"
            json(byName[k], out, depth + 1, open)
          end
          out[#out + 1] = "}"
        end
        open[value] = nil
      else out[#out + 1] = jsonString(tostring(value)) end
    end
    fontshell.json = function(value)
      local out = {}
      json(value, out, 0, {})
      return table.concat(out)
    end
    """#

    static func install(in lua: LuaState) throws {
        try lua.load(source, name: "=fontshell prelude", cached: true)
        lua.stack.getGlobal("fontshell")
        try lua.call(arguments: 1, results: 0)
    }
}
