return {
  id = "typo-matches-hhea",
  title = "OS/2 typo metrics equal the hhea ascender, descender and line gap",
  rationale = [[macOS lays lines out with hhea, Windows with OS/2 typo metrics when
USE_TYPO_METRICS is set, browsers with either. When the two sets differ, the same text sits at
different heights on each platform.]],
  severity = "fail",
  fontbakery = "os2_metrics_match_hhea",
  check = function(face, report)
    local os2 = util.os2(face)
    if not os2 then return report.fail("no OS/2 table") end
    local h = face.hhea
    if os2.sTypoAscender ~= h.ascender then report.fail(string.format("sTypoAscender %d, hhea.ascender %d", os2.sTypoAscender, h.ascender)) end
    if os2.sTypoDescender ~= h.descender then report.fail(string.format("sTypoDescender %d, hhea.descender %d", os2.sTypoDescender, h.descender)) end
    if os2.sTypoLineGap ~= h.lineGap then report.fail(string.format("sTypoLineGap %d, hhea.lineGap %d", os2.sTypoLineGap, h.lineGap)) end
  end,
}
