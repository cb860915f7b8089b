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
    local glyphs, skipped = util.mappedGlyphs(face)
    local overlapping = {}
    for _, g in ipairs(glyphs) do
      if g and not g.isComposite and #g:overlaps() > 0 then overlapping[#overlapping + 1] = g.name end
    end
    if #overlapping > 0 then report.warn(#overlapping .. " glyphs have overlapping contours: " .. util.list(overlapping)) end
    if skipped > 0 then report.info(skipped .. " mapped glyphs past the first 5000 were not checked") end
  end,
}
