return {
  id = "code-pages",
  title = "OS/2 code page ranges are set",
  rationale = [[Windows decides which scripts a font supports (and lists it in Office's script
menus) from ulCodePageRange1/2; all zeros hides the font from those lists.]],
  severity = "fail",
  fontbakery = "opentype/code_pages",
  applies = function(face) local os2 = util.os2(face); return os2 and os2.version >= 1 end,
  check = function(face, report)
    local os2 = face["OS/2"]
    if os2.ulCodePageRange1 == 0 and os2.ulCodePageRange2 == 0 then report.fail("no code page bit is set") end
  end,
}
