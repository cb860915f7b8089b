return {
  id = "required-tables",
  title = "The tables every platform needs are present",
  rationale = [[cmap, head, hhea, hmtx, maxp, name, OS/2 and post are required by the spec
and by Windows; glyf+loca or CFF/CFF2 hold the outlines, or a colour bitmap font's CBDT+CBLC
(or sbix, EBDT+EBLC) its pictures. Missing tables make the font refuse to install or render blank.]],
  severity = "fail",
  fontbakery = "required_tables",
  check = function(face, report)
    for _, tag in ipairs{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post"} do
      if not util.has(face, tag) then report.fail("no '" .. tag .. "' table") end
    end
    local outlines = (util.has(face, "glyf") and util.has(face, "loca")) or util.has(face, "CFF ") or util.has(face, "CFF2")
    local bitmaps = (util.has(face, "CBDT") and util.has(face, "CBLC")) or util.has(face, "sbix")
      or (util.has(face, "EBDT") and util.has(face, "EBLC"))
    if not outlines and not bitmaps then
      report.fail("no glyphs: neither outlines (glyf+loca, CFF, CFF2) nor bitmaps (CBDT+CBLC, sbix, EBDT+EBLC)")
    end
  end,
}
