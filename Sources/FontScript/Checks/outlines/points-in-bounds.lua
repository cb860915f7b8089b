return {
  id = "points-in-bounds",
  title = "Every point lies inside its glyph's bounding box",
  rationale = [[The glyf header's bounding box is what renderers clip to and what layout uses
for ink extents; a point outside it (after an edit that did not update the box) is cut off.]],
  severity = "warn",
  fontbakery = "opentype/points_out_of_bounds",
  outlines = true,
  applies = function(face) return util.has(face, "glyf") end,
  check = function(face, report)
    local glyphs, skipped = util.mappedGlyphs(face)
    local bad = {}
    for _, g in ipairs(glyphs) do
      local b = g and not g.isComposite and g.bounds
      if b then
        local out = false
        for _, contour in ipairs(g.contours) do
          for _, p in ipairs(contour) do
            if p.x < b.xMin or p.x > b.xMax or p.y < b.yMin or p.y > b.yMax then out = true; break end
          end
          if out then break end
        end
        if out then bad[#bad + 1] = g.name end
      end
    end
    if #bad > 0 then report.warn("points outside the bounding box in " .. util.list(bad)) end
    if skipped > 0 then report.info(skipped .. " mapped glyphs past the first 5000 were not checked") end
  end,
}
