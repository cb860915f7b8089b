return {
  id = "monospace",
  title = "Monospace flags agree with the advances",
  rationale = [[Terminals and code editors list fonts with post.isFixedPitch (and PANOSE
proportion 9) as monospaced; a fixed-width font without the flags is hidden from them, and a
proportional font with them is offered and then misaligns columns.]],
  severity = "fail",
  fontbakery = "opentype/monospace",
  check = function(face, report)
    local widths, total, advances = {}, 0, util.advances(face)
    for cp = 0x21, 0x7E do
      local gid = face.cmap and face.cmap[cp]
      local a = gid and advances[gid + 1]
      if a and a > 0 then widths[a] = (widths[a] or 0) + 1; total = total + 1 end
    end
    if total == 0 then return report.skip("no printable ASCII to measure") end
    local common = 0
    for _, n in pairs(widths) do if n > common then common = n end end
    local mono = common == total
    local fixed = face.post.isFixedPitch ~= 0
    local os2 = util.os2(face)
    if mono and not fixed then report.fail("every ASCII glyph has one width but post.isFixedPitch is 0") end
    if not mono and fixed then report.fail("post.isFixedPitch is set but ASCII glyphs have " .. (function() local n = 0; for _ in pairs(widths) do n = n + 1 end; return n end)() .. " different widths") end
    if os2 and os2.bFamilyType == 2 then
      if mono and os2.bProportion ~= 9 then report.warn("monospaced but PANOSE bProportion is " .. os2.bProportion .. ", not 9") end
      if not mono and os2.bProportion == 9 then report.fail("PANOSE bProportion 9 (monospaced) on a proportional font") end
    end
  end,
}
