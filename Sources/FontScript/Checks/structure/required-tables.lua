return {
  id = "required-tables",
  title = "The tables every platform needs are present",
  rationale = [[cmap, head, hhea, hmtx, maxp, name, OS/2 and post are required by the spec
and by Windows; glyf+loca or CFF/CFF2 hold the outlines. Missing tables make the font refuse
to install or render blank.]],
  severity = "fail",
  fontbakery = "required_tables",
  check = function(face, report)
    for _, tag in ipairs{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post"} do
      if not util.has(face, tag) then report.fail("no '" .. tag .. "' table") end
    end
    if not (util.has(face, "glyf") and util.has(face, "loca")) and not util.has(face, "CFF ") and not util.has(face, "CFF2") then
      report.fail("no outlines: neither glyf+loca nor CFF/CFF2")
    end
  end,
}
