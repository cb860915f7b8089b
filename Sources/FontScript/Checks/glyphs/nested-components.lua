return {
  id = "nested-components",
  title = "Composite glyphs do not nest composites",
  rationale = [[Composites whose components are composites themselves are valid but slow some
rasterizers and break in a few (older Windows and PDF tools flatten only one level).]],
  severity = "warn",
  fontbakery = "nested_components",
  outlines = true,
  applies = function(face) return util.has(face, "glyf") end,
  check = function(face, report)
    local nested = {}
    for _, g in pairs(face.glyphs) do
      if g.isComposite then
        for _, c in ipairs(g.components) do
          local child = face.glyphs[c.glyph]
          if child and child.isComposite then nested[#nested + 1] = g.name; break end
        end
      end
    end
    if #nested > 0 then report.warn("composites of composites: " .. util.list(nested)) end
  end,
}
