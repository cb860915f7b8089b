return {
  id = "empty-printing-chars",
  title = "No printing character maps to an empty glyph",
  rationale = [[A letter, digit or symbol mapped to a glyph without contours is invisible; the
text looks fine to the program (no fallback happens) and is lost to the reader.]],
  severity = "fail",
  fontbakery = "empty_letters",
  check = function(face, report)
    local empty, blanks = {}, util.blanks(face)
    for _, m in ipairs(util.mappings(face)) do
      local cp = m[1]
      if blanks[m[2]] and not util.isBlank(cp) and not util.isPrivateUse(cp) then
        empty[#empty + 1] = util.u(cp) .. " (" .. face.glyphs[m[2]].name .. ")"
      end
    end
    if #empty > 0 then report.fail("empty glyphs for " .. util.list(empty)) end
  end,
}
