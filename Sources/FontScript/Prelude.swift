import LuaBridge

/// Parts of the `fontshell` module written in Lua: the REPL's pretty-printer and completion.
enum Prelude {
    static let source = #"""
    local fontshell = ...
    local members = fontshell.members

    -- A readable one-line rendering: strings quoted inside tables, tables to a depth limit,
    -- objects through their __tostring.
    local function pretty(value, depth, seen)
      local t = type(value)
      if t == "string" then return depth > 0 and string.format("%q", value) or value end
      if t ~= "table" then return tostring(value) end
      if depth >= 3 then return "{…}" end
      seen = seen or {}
      if seen[value] then return "{<cycle>}" end
      seen[value] = true
      local parts, count, n = {}, 0, #value
      for i = 1, n do
        count = count + 1
        if count > 25 then parts[#parts + 1] = "…"; break end
        parts[#parts + 1] = pretty(value[i], depth + 1, seen)
      end
      local keys = {}
      for k in pairs(value) do
        if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
      end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      for _, k in ipairs(keys) do
        count = count + 1
        if count > 25 then parts[#parts + 1] = "…"; break end
        local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or "[" .. pretty(k, depth + 1, seen) .. "]"
        parts[#parts + 1] = key .. " = " .. pretty(value[k], depth + 1, seen)
      end
      seen[value] = nil
      return "{" .. table.concat(parts, ", ") .. "}"
    end
    fontshell.pretty = function(value) return pretty(value, 0) end

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
    """#

    static func install(in lua: LuaState) throws {
        try lua.load(source, name: "=fontshell prelude")
        lua.stack.getGlobal("fontshell")
        try lua.call(arguments: 1, results: 0)
    }
}
