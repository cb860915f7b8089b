return {
  id = "whitespace-glyphs",
  title = "Space and no-break space are in the font",
  rationale = [[Text without a space glyph falls back to another font for every word break,
and U+00A0 is typed by word processors and web pages (&nbsp;) all the time.]],
  severity = "fail",
  fontbakery = "whitespace_glyphs",
  applies = function(face) return face.cmap ~= nil end,
  check = function(face, report)
    if not face.cmap[0x20] then report.fail("U+0020 SPACE is not mapped") end
    if not face.cmap[0xA0] then report.fail("U+00A0 NO-BREAK SPACE is not mapped") end
  end,
}
