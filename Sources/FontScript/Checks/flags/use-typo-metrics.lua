return {
  id = "use-typo-metrics",
  title = "USE_TYPO_METRICS is set when typo metrics are the ones to use",
  rationale = [[Without fsSelection bit 7, Windows and browsers on Windows lay lines out with
usWin metrics, which must cover every glyph and so usually give loose, uneven line spacing. When
the typo metrics match hhea, setting the bit gives one line height on every platform.]],
  severity = "warn",
  applies = function(face) local os2 = util.os2(face); return os2 and os2.version >= 4 end,
  check = function(face, report)
    local os2, h = face["OS/2"], face.hhea
    local agree = os2.sTypoAscender == h.ascender and os2.sTypoDescender == h.descender and os2.sTypoLineGap == h.lineGap
    if os2.fsSelection & 128 == 0 and agree then
      report.warn("typo metrics equal hhea but USE_TYPO_METRICS (fsSelection bit 7) is clear")
    end
  end,
  fix = function(face)
    face["OS/2"].fsSelection = face["OS/2"].fsSelection | 128
    return "fsSelection bit 7 set"
  end,
}
