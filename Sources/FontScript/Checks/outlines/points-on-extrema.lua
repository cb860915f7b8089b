return {
  id = "points-on-extrema",
  title = "Curves have points at their extremes",
  rationale = [[Hinting (both TrueType autohinters and CFF hint zones), bounding boxes computed
from points, and overlap removal all assume on-curve points where a curve is at its horizontal
or vertical extreme. Curves that bulge past their points get uneven stems and wrong bounds.]],
  severity = "warn",
  outlines = true,
  check = function(face, report)
    local tolerance = face.unitsPerEm / 500
    local glyphs, skipped = util.mappedGlyphs(face)
    local missing = {}
    for _, g in ipairs(glyphs) do
      if g and not g.isComposite and #g:missingExtrema(tolerance) > 0 then missing[#missing + 1] = g.name end
    end
    if #missing > 0 then report.warn(#missing .. " glyphs lack points at extremes: " .. util.list(missing)) end
    if skipped > 0 then report.info(skipped .. " mapped glyphs past the first 5000 were not checked") end
  end,
}
