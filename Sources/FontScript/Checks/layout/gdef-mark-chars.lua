return {
  id = "gdef-mark-chars",
  title = "Combining marks are classed as marks in GDEF",
  rationale = [[Mark positioning (GPOS mark attachment) and lookups that skip marks find marks
through GDEF's glyph classes; a combining character's glyph left out is placed as a base:
accents land beside their letters.]],
  severity = "warn",
  fontbakery = "opentype/gdef_mark_chars",
  applies = function(face) return util.has(face, "GDEF") end,
  check = function(face, report)
    local marks = util.markGlyphs(face)
    local missing = {}
    for _, m in ipairs(util.mappings(face)) do
      if util.isMark(m[1]) and not marks[m[2]] then missing[#missing + 1] = util.u(m[1]) end
    end
    if #missing > 0 then report.warn("combining characters not in GDEF mark class: " .. util.list(missing)) end
  end,
}
