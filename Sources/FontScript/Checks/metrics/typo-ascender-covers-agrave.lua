return {
  id = "typo-ascender-covers-agrave",
  title = "The typo ascender is above the accented capital À",
  rationale = [[With USE_TYPO_METRICS, Windows and browsers reserve sTypoAscender above the
baseline; accented capitals taller than it collide with the line above.]],
  severity = "warn",
  fontbakery = "typoascender_exceeds_Agrave",
  check = function(face, report)
    local os2 = util.os2(face)
    local A = face:glyphFor(0xC0)
    if not os2 or not A or not A.bounds then return report.skip("no OS/2 or no À") end
    if os2.sTypoAscender < A.bounds.yMax then
      report.warn(string.format("sTypoAscender %d is below the top of À (%d)", os2.sTypoAscender, A.bounds.yMax))
    end
  end,
}
