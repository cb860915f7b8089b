return {
  id = "win-clipping",
  title = "usWinAscent and usWinDescent cover every glyph",
  rationale = [[Windows clips every glyph above usWinAscent and below -usWinDescent: accents on
capitals and deep descenders are cut off. They must reach head.yMax and head.yMin, the bounds
of all glyphs.]],
  severity = "fail",
  fontbakery = "family/win_ascent_and_descent",
  check = function(face, report)
    local os2 = util.os2(face)
    if not os2 then return report.skip("no OS/2 table") end
    local head = face.head
    if os2.usWinAscent < head.yMax then
      report.fail(string.format("usWinAscent %d is below the highest glyph (head.yMax %d): tops are clipped", os2.usWinAscent, head.yMax))
    end
    if os2.usWinDescent < -head.yMin then
      report.fail(string.format("usWinDescent %d is above the lowest glyph (head.yMin %d): descenders are clipped", os2.usWinDescent, head.yMin))
    end
  end,
  fix = function(face)
    local os2, head = face["OS/2"], face.head
    os2.usWinAscent = math.max(os2.usWinAscent, head.yMax)
    os2.usWinDescent = math.max(os2.usWinDescent, -head.yMin)
    return string.format("usWinAscent %d, usWinDescent %d", os2.usWinAscent, os2.usWinDescent)
  end,
}
