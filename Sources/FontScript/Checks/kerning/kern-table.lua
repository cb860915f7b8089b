return {
  id = "kern-table",
  title = "A legacy kern table does not contradict GPOS",
  rationale = [[When a font has GPOS kerning, HarfBuzz, CoreText and DirectWrite ignore the kern
table, but older apps (and some PDF tools) read only it: the two must not disagree, and a kern
table with pairs of unmapped glyphs is ignored by Windows.]],
  severity = "warn",
  fontbakery = "opentype/kern_table",
  applies = function(face) return util.has(face, "kern") end,
  check = function(face, report)
    local kern = face.kern
    if not kern or #kern.subtables == 0 then return report.warn("the kern table has no subtables") end
    if #face:features("kern") > 0 then
      report.info("both a kern table and a GPOS kern feature: modern engines use GPOS only, a few legacy apps the kern table")
    end
    -- Glyph names with a character, from the cmap read once (not a reverse lookup per pair).
    local names, mapped = face.glyphs:names(), {}
    for _, m in ipairs(util.mappings(face)) do if names[m[2] + 1] then mapped[names[m[2] + 1]] = true end end
    local unmapped = 0
    for _, st in ipairs(kern.subtables) do
      for _, p in ipairs(st.pairs or {}) do
        if not mapped[p[1]] or not mapped[p[2]] then unmapped = unmapped + 1 end
      end
    end
    if unmapped > 0 then report.warn(unmapped .. " kern table pairs involve glyphs without a character (ignored by Windows' kern table reader)") end
  end,
}
