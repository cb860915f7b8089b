-- Whether segments p1-p2 and q1-q2 cross (touching ends do not count).
local function cross(p1, p2, q1, q2)
  local function orient(a, b, c) return (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]) end
  local d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
  local d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
  return ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0))
end
local function box(poly)
  local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
  for _, p in ipairs(poly) do
    x0, y0, x1, y1 = math.min(x0, p[1]), math.min(y0, p[2]), math.max(x1, p[1]), math.max(y1, p[2])
  end
  return {x0, y0, x1, y1}
end
local function crosses(a, b)
  for i = 1, #a do
    local p1, p2 = a[i], a[i % #a + 1]
    for j = 1, #b do
      if cross(p1, p2, b[j], b[j % #b + 1]) then return true end
    end
  end
  return false
end
return {
  id = "overlaps",
  title = "Contours of a glyph do not overlap",
  rationale = [[Static fonts should ship with overlaps removed: overlapping contours render with
dark seams under anti-aliasing on some rasterizers (and in outlines strokes), and variable
fonts are the only ones that need them (they set the overlap flag).]],
  severity = "warn",
  outlines = true,
  applies = function(face) return not util.has(face, "fvar") end,
  check = function(face, report)
    local cubic = face.format == "OpenType CFF"
    local glyphs, skipped = util.mappedGlyphs(face, 3000)
    local overlapping = {}
    for _, g in ipairs(glyphs) do
      if g and not g.isComposite then
        local polys, boxes = {}, {}
        local contours = g.contours
        if #contours > 1 and #contours <= 64 then
          for i, c in ipairs(contours) do polys[i] = util.flatten(c, cubic, 3); boxes[i] = box(polys[i]) end
          local found = false
          for i = 1, #polys - 1 do
            for j = i + 1, #polys do
              local a, b = boxes[i], boxes[j]
              if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4] and crosses(polys[i], polys[j]) then
                found = true; break
              end
            end
            if found then break end
          end
          if found then overlapping[#overlapping + 1] = g.name end
        end
      end
    end
    if #overlapping > 0 then report.warn(#overlapping .. " glyphs have overlapping contours: " .. util.list(overlapping)) end
    if skipped > 0 then report.info(skipped .. " mapped glyphs past the first 3000 were not checked") end
  end,
}
