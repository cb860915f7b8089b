return {
  id = "no-self-collapse",
  title = "No pair kerns a glyph with itself into negative space",
  rationale = [[A doubled letter (ll, --, ..) kerned by more than its own advance draws the second
copy at or behind the first: the text runs backwards and the caret gets lost.]],
  severity = "fail",
  check = function(face, report)
    local bad = {}
    for _, p in ipairs(face:kerningPairs():selfPairs()) do
      local g = face.glyphs[p[1]]
      if g and g.advance + p[3] <= 0 and g.advance > 0 then
        bad[#bad + 1] = string.format("%s %s %d (advance %d)", p[1], p[2], p[3], g.advance)
      end
    end
    if #bad > 0 then report.fail("pairs that move back past the glyph's start: " .. util.list(bad)) end
  end,
}
