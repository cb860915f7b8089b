return {
  id = "gdef-spacing-marks",
  title = "Glyphs classed as marks have no advance",
  rationale = [[A mark glyph with an advance pushes the following letter away once positioned
over its base: text with accents gets gaps.]],
  severity = "warn",
  fontbakery = "opentype/gdef_spacing_marks",
  applies = function(face) return util.has(face, "GDEF") end,
  check = function(face, report)
    local spacing = {}
    for id in pairs(util.markGlyphs(face)) do
      local g = face.glyphs[id]
      if g and g.advance ~= 0 then spacing[#spacing + 1] = g.name .. " (" .. g.advance .. ")" end
    end
    table.sort(spacing)
    if #spacing > 0 then report.warn("spacing mark glyphs: " .. util.list(spacing)) end
  end,
}
