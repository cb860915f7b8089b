return {
  id = "notdef",
  title = ".notdef is glyph 0, drawn, and mapped to no character",
  rationale = [[Every renderer shows glyph 0 for characters the font lacks. If it is blank the
missing text silently disappears; if a character maps to it, that character looks missing.]],
  severity = "fail",
  fontbakery = "mandatory_glyphs",
  check = function(face, report)
    local g = face.glyphs[0]
    if not g then return report.fail("the font has no glyphs") end
    if g.name ~= ".notdef" then report.warn("glyph 0 is named '" .. g.name .. "', not '.notdef'") end
    if not util.hasInk(g) then report.fail("glyph 0 (.notdef) is blank: missing characters would vanish") end
    local mapped = face.cmap and face.cmap:chars(0) or {}
    if #mapped > 0 then
      local shown = {}
      for i, c in ipairs(mapped) do shown[i] = util.u(utf8.codepoint(c)) end
      report.warn("characters map to glyph 0: " .. util.list(shown))
    end
  end,
}
