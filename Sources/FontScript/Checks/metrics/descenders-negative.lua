return {
  id = "descenders-negative",
  title = "Descenders are negative and ascenders positive",
  rationale = [[hhea.descender and OS/2.sTypoDescender are measured downward from the baseline
as negative numbers; a positive value makes lines overlap on every platform that reads it.]],
  severity = "fail",
  check = function(face, report)
    local h, os2 = face.hhea, util.os2(face)
    if h.descender > 0 then report.fail("hhea.descender is " .. h.descender .. ", should be ≤ 0") end
    if h.ascender <= 0 then report.fail("hhea.ascender is " .. h.ascender .. ", should be > 0") end
    if os2 and os2.sTypoDescender > 0 then report.fail("OS/2.sTypoDescender is " .. os2.sTypoDescender .. ", should be ≤ 0") end
    if os2 and os2.sTypoAscender <= 0 then report.fail("OS/2.sTypoAscender is " .. os2.sTypoAscender .. ", should be > 0") end
  end,
}
