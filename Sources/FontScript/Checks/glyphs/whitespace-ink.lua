return {
  id = "whitespace-ink",
  title = "Space characters draw nothing",
  rationale = [[A space character whose glyph has contours prints marks between words.]],
  severity = "fail",
  fontbakery = "whitespace_ink",
  check = function(face, report)
    for _, m in ipairs(util.mappings(face)) do
      if util.isSpace(m[1]) then
        if not util.blanks(face)[m[2]] then report.fail(util.u(m[1]) .. " is drawn with ink (glyph '" .. face.glyphs[m[2]].name .. "')") end
      end
    end
  end,
}
