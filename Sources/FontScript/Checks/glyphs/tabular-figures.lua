return {
  id = "tabular-figures",
  title = "Tabular figures share one width",
  rationale = [[Tables, prices and clocks need digits of equal width: the default figures when
the font has no tnum feature, otherwise the figures tnum gives.]],
  severity = "warn",
  check = function(face, report)
    local digits = {}
    for d = 0, 9 do
      local g = face:glyphFor(tostring(d))
      if not g then return report.skip("the font lacks some digits") end
      digits[#digits + 1] = g
    end
    local tnum = face:features("tnum")
    if #tnum > 0 then
      local out = {}
      for _, s in ipairs(face:substitutions("tnum")) do
        if #s["in"] == 1 and #s.out == 1 then out[s["in"][1]] = s.out[1] end
      end
      for i, g in ipairs(digits) do
        if out[g.name] then digits[i] = face.glyphs[out[g.name]] end
      end
    end
    local widths, first = {}, digits[1].advance
    local differ = false
    for i, g in ipairs(digits) do
      widths[i] = g.name .. " " .. g.advance
      if g.advance ~= first then differ = true end
    end
    if differ then
      report.warn((#tnum > 0 and "tnum figures" or "default figures (no tnum feature)") .. " differ: " .. table.concat(widths, ", "))
    end
  end,
}
