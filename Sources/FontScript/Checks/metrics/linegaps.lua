return {
  id = "linegaps",
  title = "hhea and typo line gaps are zero",
  rationale = [[A line gap is added differently by each platform (above, below or split), so
lines of text move between Mac, Windows and the web. Putting the spacing into the ascender and
descender instead gives the same line everywhere.]],
  severity = "warn",
  fontbakery = "linegaps",
  check = function(face, report)
    local os2 = util.os2(face)
    if face.hhea.lineGap ~= 0 then report.warn("hhea.lineGap is " .. face.hhea.lineGap) end
    if os2 and os2.sTypoLineGap ~= 0 then report.warn("OS/2.sTypoLineGap is " .. os2.sTypoLineGap) end
  end,
}
