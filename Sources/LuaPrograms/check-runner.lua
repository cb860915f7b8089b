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
-- A tag member of a structured table (read as its 32-bit number) as text: "wght".
function util.tag(v)
  if type(v) ~= "number" then return v end
  local text = string.char((v >> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255)
  return (text:gsub(" +$", ""))
end
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
-- Combining marks: general categories Mn and Me of Unicode 14 (made with Python's
-- unicodedata: every maximal run of code points in those categories).
local markRanges = {
  {0x300, 0x36F}, {0x483, 0x489}, {0x591, 0x5BD}, {0x5BF, 0x5BF}, {0x5C1, 0x5C2},
  {0x5C4, 0x5C5}, {0x5C7, 0x5C7}, {0x610, 0x61A}, {0x64B, 0x65F}, {0x670, 0x670},
  {0x6D6, 0x6DC}, {0x6DF, 0x6E4}, {0x6E7, 0x6E8}, {0x6EA, 0x6ED}, {0x711, 0x711},
  {0x730, 0x74A}, {0x7A6, 0x7B0}, {0x7EB, 0x7F3}, {0x7FD, 0x7FD}, {0x816, 0x819},
  {0x81B, 0x823}, {0x825, 0x827}, {0x829, 0x82D}, {0x859, 0x85B}, {0x898, 0x89F},
  {0x8CA, 0x8E1}, {0x8E3, 0x902}, {0x93A, 0x93A}, {0x93C, 0x93C}, {0x941, 0x948},
  {0x94D, 0x94D}, {0x951, 0x957}, {0x962, 0x963}, {0x981, 0x981}, {0x9BC, 0x9BC},
  {0x9C1, 0x9C4}, {0x9CD, 0x9CD}, {0x9E2, 0x9E3}, {0x9FE, 0x9FE}, {0xA01, 0xA02},
  {0xA3C, 0xA3C}, {0xA41, 0xA42}, {0xA47, 0xA48}, {0xA4B, 0xA4D}, {0xA51, 0xA51},
  {0xA70, 0xA71}, {0xA75, 0xA75}, {0xA81, 0xA82}, {0xABC, 0xABC}, {0xAC1, 0xAC5},
  {0xAC7, 0xAC8}, {0xACD, 0xACD}, {0xAE2, 0xAE3}, {0xAFA, 0xAFF}, {0xB01, 0xB01},
  {0xB3C, 0xB3C}, {0xB3F, 0xB3F}, {0xB41, 0xB44}, {0xB4D, 0xB4D}, {0xB55, 0xB56},
  {0xB62, 0xB63}, {0xB82, 0xB82}, {0xBC0, 0xBC0}, {0xBCD, 0xBCD}, {0xC00, 0xC00},
  {0xC04, 0xC04}, {0xC3C, 0xC3C}, {0xC3E, 0xC40}, {0xC46, 0xC48}, {0xC4A, 0xC4D},
  {0xC55, 0xC56}, {0xC62, 0xC63}, {0xC81, 0xC81}, {0xCBC, 0xCBC}, {0xCBF, 0xCBF},
  {0xCC6, 0xCC6}, {0xCCC, 0xCCD}, {0xCE2, 0xCE3}, {0xD00, 0xD01}, {0xD3B, 0xD3C},
  {0xD41, 0xD44}, {0xD4D, 0xD4D}, {0xD62, 0xD63}, {0xD81, 0xD81}, {0xDCA, 0xDCA},
  {0xDD2, 0xDD4}, {0xDD6, 0xDD6}, {0xE31, 0xE31}, {0xE34, 0xE3A}, {0xE47, 0xE4E},
  {0xEB1, 0xEB1}, {0xEB4, 0xEBC}, {0xEC8, 0xECD}, {0xF18, 0xF19}, {0xF35, 0xF35},
  {0xF37, 0xF37}, {0xF39, 0xF39}, {0xF71, 0xF7E}, {0xF80, 0xF84}, {0xF86, 0xF87},
  {0xF8D, 0xF97}, {0xF99, 0xFBC}, {0xFC6, 0xFC6}, {0x102D, 0x1030}, {0x1032, 0x1037},
  {0x1039, 0x103A}, {0x103D, 0x103E}, {0x1058, 0x1059}, {0x105E, 0x1060}, {0x1071, 0x1074},
  {0x1082, 0x1082}, {0x1085, 0x1086}, {0x108D, 0x108D}, {0x109D, 0x109D}, {0x135D, 0x135F},
  {0x1712, 0x1714}, {0x1732, 0x1733}, {0x1752, 0x1753}, {0x1772, 0x1773}, {0x17B4, 0x17B5},
  {0x17B7, 0x17BD}, {0x17C6, 0x17C6}, {0x17C9, 0x17D3}, {0x17DD, 0x17DD}, {0x180B, 0x180D},
  {0x180F, 0x180F}, {0x1885, 0x1886}, {0x18A9, 0x18A9}, {0x1920, 0x1922}, {0x1927, 0x1928},
  {0x1932, 0x1932}, {0x1939, 0x193B}, {0x1A17, 0x1A18}, {0x1A1B, 0x1A1B}, {0x1A56, 0x1A56},
  {0x1A58, 0x1A5E}, {0x1A60, 0x1A60}, {0x1A62, 0x1A62}, {0x1A65, 0x1A6C}, {0x1A73, 0x1A7C},
  {0x1A7F, 0x1A7F}, {0x1AB0, 0x1ACE}, {0x1B00, 0x1B03}, {0x1B34, 0x1B34}, {0x1B36, 0x1B3A},
  {0x1B3C, 0x1B3C}, {0x1B42, 0x1B42}, {0x1B6B, 0x1B73}, {0x1B80, 0x1B81}, {0x1BA2, 0x1BA5},
  {0x1BA8, 0x1BA9}, {0x1BAB, 0x1BAD}, {0x1BE6, 0x1BE6}, {0x1BE8, 0x1BE9}, {0x1BED, 0x1BED},
  {0x1BEF, 0x1BF1}, {0x1C2C, 0x1C33}, {0x1C36, 0x1C37}, {0x1CD0, 0x1CD2}, {0x1CD4, 0x1CE0},
  {0x1CE2, 0x1CE8}, {0x1CED, 0x1CED}, {0x1CF4, 0x1CF4}, {0x1CF8, 0x1CF9}, {0x1DC0, 0x1DFF},
  {0x20D0, 0x20F0}, {0x2CEF, 0x2CF1}, {0x2D7F, 0x2D7F}, {0x2DE0, 0x2DFF}, {0x302A, 0x302D},
  {0x3099, 0x309A}, {0xA66F, 0xA672}, {0xA674, 0xA67D}, {0xA69E, 0xA69F}, {0xA6F0, 0xA6F1},
  {0xA802, 0xA802}, {0xA806, 0xA806}, {0xA80B, 0xA80B}, {0xA825, 0xA826}, {0xA82C, 0xA82C},
  {0xA8C4, 0xA8C5}, {0xA8E0, 0xA8F1}, {0xA8FF, 0xA8FF}, {0xA926, 0xA92D}, {0xA947, 0xA951},
  {0xA980, 0xA982}, {0xA9B3, 0xA9B3}, {0xA9B6, 0xA9B9}, {0xA9BC, 0xA9BD}, {0xA9E5, 0xA9E5},
  {0xAA29, 0xAA2E}, {0xAA31, 0xAA32}, {0xAA35, 0xAA36}, {0xAA43, 0xAA43}, {0xAA4C, 0xAA4C},
  {0xAA7C, 0xAA7C}, {0xAAB0, 0xAAB0}, {0xAAB2, 0xAAB4}, {0xAAB7, 0xAAB8}, {0xAABE, 0xAABF},
  {0xAAC1, 0xAAC1}, {0xAAEC, 0xAAED}, {0xAAF6, 0xAAF6}, {0xABE5, 0xABE5}, {0xABE8, 0xABE8},
  {0xABED, 0xABED}, {0xFB1E, 0xFB1E}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0x101FD, 0x101FD},
  {0x102E0, 0x102E0}, {0x10376, 0x1037A}, {0x10A01, 0x10A03}, {0x10A05, 0x10A06},
  {0x10A0C, 0x10A0F}, {0x10A38, 0x10A3A}, {0x10A3F, 0x10A3F}, {0x10AE5, 0x10AE6},
  {0x10D24, 0x10D27}, {0x10EAB, 0x10EAC}, {0x10F46, 0x10F50}, {0x10F82, 0x10F85},
  {0x11001, 0x11001}, {0x11038, 0x11046}, {0x11070, 0x11070}, {0x11073, 0x11074},
  {0x1107F, 0x11081}, {0x110B3, 0x110B6}, {0x110B9, 0x110BA}, {0x110C2, 0x110C2},
  {0x11100, 0x11102}, {0x11127, 0x1112B}, {0x1112D, 0x11134}, {0x11173, 0x11173},
  {0x11180, 0x11181}, {0x111B6, 0x111BE}, {0x111C9, 0x111CC}, {0x111CF, 0x111CF},
  {0x1122F, 0x11231}, {0x11234, 0x11234}, {0x11236, 0x11237}, {0x1123E, 0x1123E},
  {0x112DF, 0x112DF}, {0x112E3, 0x112EA}, {0x11300, 0x11301}, {0x1133B, 0x1133C},
  {0x11340, 0x11340}, {0x11366, 0x1136C}, {0x11370, 0x11374}, {0x11438, 0x1143F},
  {0x11442, 0x11444}, {0x11446, 0x11446}, {0x1145E, 0x1145E}, {0x114B3, 0x114B8},
  {0x114BA, 0x114BA}, {0x114BF, 0x114C0}, {0x114C2, 0x114C3}, {0x115B2, 0x115B5},
  {0x115BC, 0x115BD}, {0x115BF, 0x115C0}, {0x115DC, 0x115DD}, {0x11633, 0x1163A},
  {0x1163D, 0x1163D}, {0x1163F, 0x11640}, {0x116AB, 0x116AB}, {0x116AD, 0x116AD},
  {0x116B0, 0x116B5}, {0x116B7, 0x116B7}, {0x1171D, 0x1171F}, {0x11722, 0x11725},
  {0x11727, 0x1172B}, {0x1182F, 0x11837}, {0x11839, 0x1183A}, {0x1193B, 0x1193C},
  {0x1193E, 0x1193E}, {0x11943, 0x11943}, {0x119D4, 0x119D7}, {0x119DA, 0x119DB},
  {0x119E0, 0x119E0}, {0x11A01, 0x11A0A}, {0x11A33, 0x11A38}, {0x11A3B, 0x11A3E},
  {0x11A47, 0x11A47}, {0x11A51, 0x11A56}, {0x11A59, 0x11A5B}, {0x11A8A, 0x11A96},
  {0x11A98, 0x11A99}, {0x11C30, 0x11C36}, {0x11C38, 0x11C3D}, {0x11C3F, 0x11C3F},
  {0x11C92, 0x11CA7}, {0x11CAA, 0x11CB0}, {0x11CB2, 0x11CB3}, {0x11CB5, 0x11CB6},
  {0x11D31, 0x11D36}, {0x11D3A, 0x11D3A}, {0x11D3C, 0x11D3D}, {0x11D3F, 0x11D45},
  {0x11D47, 0x11D47}, {0x11D90, 0x11D91}, {0x11D95, 0x11D95}, {0x11D97, 0x11D97},
  {0x11EF3, 0x11EF4}, {0x16AF0, 0x16AF4}, {0x16B30, 0x16B36}, {0x16F4F, 0x16F4F},
  {0x16F8F, 0x16F92}, {0x16FE4, 0x16FE4}, {0x1BC9D, 0x1BC9E}, {0x1CF00, 0x1CF2D},
  {0x1CF30, 0x1CF46}, {0x1D167, 0x1D169}, {0x1D17B, 0x1D182}, {0x1D185, 0x1D18B},
  {0x1D1AA, 0x1D1AD}, {0x1D242, 0x1D244}, {0x1DA00, 0x1DA36}, {0x1DA3B, 0x1DA6C},
  {0x1DA75, 0x1DA75}, {0x1DA84, 0x1DA84}, {0x1DA9B, 0x1DA9F}, {0x1DAA1, 0x1DAAF},
  {0x1E000, 0x1E006}, {0x1E008, 0x1E018}, {0x1E01B, 0x1E021}, {0x1E023, 0x1E024},
  {0x1E026, 0x1E02A}, {0x1E130, 0x1E136}, {0x1E2AE, 0x1E2AE}, {0x1E2EC, 0x1E2EF},
  {0x1E8D0, 0x1E8D6}, {0x1E944, 0x1E94A}, {0xE0100, 0xE01EF}
}
-- Binary search: the ranges are sorted and disjoint.
local function inSorted(ranges, cp)
  local lo, hi = 1, #ranges
  while lo <= hi do
    local mid = (lo + hi) // 2
    local r = ranges[mid]
    if cp < r[1] then hi = mid - 1 elseif cp > r[2] then lo = mid + 1 else return true end
  end
  return false
end
function util.isMark(cp) return inSorted(markRanges, cp) end
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
-- Whether a glyph draws anything (see util.blanks).
function util.hasInk(glyph)
  return not util.blanks(glyph.face)[glyph.id]
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
