return {
  id = "control-chars",
  title = "No glyphs for C0 control characters",
  rationale = [[Control characters (U+0001–U+001F but CR) should never be drawn; fonts that map
or name glyphs for them show boxes or marks where text has stray control codes.]],
  severity = "fail",
  fontbakery = "control_chars",
  check = function(face, report)
    local found = {}
    for cp = 1, 0x1F do
      if cp ~= 0x0D then
        local name = string.format("uni%04X", cp)
        if face.glyphs:get(name) or (face.cmap and face.cmap[cp]) then found[#found + 1] = util.u(cp) end
      end
    end
    if #found > 0 then report.fail("glyphs for control characters: " .. util.list(found)) end
  end,
}
