return {
  id = "gdef-non-mark-chars",
  title = "Spacing characters are not classed as marks",
  rationale = [[A glyph of a spacing character (a letter, or a spacing accent such as ´ U+00B4)
classed as a mark is skipped by lookups that ignore marks and may be moved onto the previous
letter.]],
  severity = "warn",
  fontbakery = "opentype/gdef_non_mark_chars",
  applies = function(face) return util.has(face, "GDEF") end,
  check = function(face, report)
    local marks = util.markGlyphs(face)
    local wrong = {}
    for _, m in ipairs(util.mappings(face)) do
      if marks[m[2]] and not util.isMark(m[1]) and m[1] >= 0x20 and m[1] < 0x2000 and m[1] ~= 0x34F then
        wrong[#wrong + 1] = util.u(m[1])
      end
    end
    if #wrong > 0 then report.warn("glyphs of spacing characters in the mark class: " .. util.list(wrong)) end
  end,
}
