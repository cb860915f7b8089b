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

local leading = {index = 1, id = 2, table = 3, tag = 4, script = 5, language = 6, feature = 7, name = 8,
                 min = 9, default = 10, max = 11}

-- A short list of numbers, strings or booleans (a feature's lookups), which fits a cell.
local function isShortList(v)
  if getmetatable(v) or #v > 12 or next(v, #v > 0 and #v or nil) ~= nil then return false end
  for _, x in ipairs(v) do
    local tx = type(x)
    if tx ~= "number" and tx ~= "string" and tx ~= "boolean" then return false end
  end
  return true
end

local function shortList(v)
  local parts = {}
  for i, x in ipairs(v) do parts[i] = type(x) == "string" and short(x, 12) or tostring(x) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- A list of at least two records (tables of strings, numbers, booleans and short lists of
-- them, with the same keys) as rows under a header, columns aligned; nil when the value is
-- not one.
local function recordTable(list, maxRows)
  if type(list) ~= "table" or #list < 2 then return nil end
  local columns, known = {}, {}
  for i = 1, #list do
    local row = list[i]
    if type(row) ~= "table" or getmetatable(row) or #row > 0 then return nil end
    for k, v in pairs(row) do
      if type(k) ~= "string" then return nil end
      local tv = type(v)
      if tv == "table" and not isShortList(v) then return nil end
      if tv ~= "string" and tv ~= "number" and tv ~= "boolean" and tv ~= "table" then return nil end
      if not known[k] then known[k] = true; columns[#columns + 1] = k end
    end
  end
  for k in pairs(list) do
    if not (math.type(k) == "integer" and k >= 1 and k <= #list) then return nil end
  end
  -- Names that identify a row first (tag, name …; min before default before max), then
  -- numbers (ids read best on the left), then the rest, each alphabetical.
  table.sort(columns, function(a, b)
    local ra, rb = leading[a] or 99, leading[b] or 99
    if ra ~= rb then return ra < rb end
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
      local text = v == nil and "" or (type(v) == "string" and short(v, 40)) or (type(v) == "table" and shortList(v)) or tostring(v)
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

