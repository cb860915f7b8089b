return {
  id = "base-has-width",
  title = "Characters that are not marks have an advance",
  rationale = [[A zero-width letter or symbol overprints the next one. Only combining marks
(and format characters) should have no advance.]],
  severity = "fail",
  fontbakery = "base_has_width",
  check = function(face, report)
    local marks = util.markGlyphs(face)
    local zero, advances = {}, util.advances(face)
    for _, m in ipairs(util.mappings(face)) do
      local cp, gid = m[1], m[2]
      if cp ~= 0 and advances[gid + 1] == 0 and not util.isBlank(cp) and not util.isMark(cp) and not marks[gid] then
        zero[#zero + 1] = util.u(cp) .. " (" .. face.glyphs[gid].name .. ")"
      end
    end
    if #zero > 0 then report.fail("zero advance: " .. util.list(zero)) end
  end,
}
