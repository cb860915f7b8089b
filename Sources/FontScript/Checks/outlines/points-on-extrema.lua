-- Whether a curve from a to b through the controls bulges past its ends on an axis.
local function bulges(seg, axis, tolerance)
  local a, b = seg[1][axis], seg[#seg][axis]
  local lo, hi = math.min(a, b), math.max(a, b)
  for i = 2, #seg - 1 do
    local c = seg[i][axis]
    if c < lo - tolerance or c > hi + tolerance then return true end
  end
  return false
end
return {
  id = "points-on-extrema",
  title = "Curves have points at their extremes",
  rationale = [[Hinting (both TrueType autohinters and CFF hint zones), bounding boxes computed
from points, and overlap removal all assume on-curve points where a curve is at its horizontal
or vertical extreme. Curves that bulge past their points get uneven stems and wrong bounds.]],
  severity = "warn",
  outlines = true,
  check = function(face, report)
    local cubic = face.format == "OpenType CFF"
    local tolerance = face.unitsPerEm / 500
    local glyphs, skipped = util.mappedGlyphs(face)
    local missing = {}
    for _, g in ipairs(glyphs) do
      if g and not g.isComposite then
        local found = false
        for _, contour in ipairs(g.contours) do
          for _, seg in ipairs(util.segments(contour, cubic)) do
            if #seg > 2 and (bulges(seg, "x", tolerance) or bulges(seg, "y", tolerance)) then found = true; break end
          end
          if found then break end
        end
        if found then missing[#missing + 1] = g.name end
      end
    end
    if #missing > 0 then report.warn(#missing .. " glyphs lack points at extremes: " .. util.list(missing)) end
    if skipped > 0 then report.info(skipped .. " mapped glyphs past the first 5000 were not checked") end
  end,
}
