return {
  id = "math-signs-width",
  title = "Common math signs share one width",
  rationale = [[Operators such as + − × ÷ = < > ± ≠ ≤ ≥ line up in formulas and tables only when
they are equally wide.]],
  severity = "warn",
  fontbakery = "math_signs_width",
  check = function(face, report)
    local signs = {0x2B, 0x3C, 0x3D, 0x3E, 0xAC, 0xB1, 0xD7, 0xF7, 0x2212, 0x2248, 0x2260, 0x2264, 0x2265}
    local byWidth, count = {}, 0
    for _, cp in ipairs(signs) do
      local g = face:glyphFor(cp)
      if g then
        byWidth[g.advance] = byWidth[g.advance] or {}
        table.insert(byWidth[g.advance], utf8.char(cp))
        count = count + 1
      end
    end
    local common, most = nil, 0
    for w, list in pairs(byWidth) do if #list > most or (#list == most and w < common) then common, most = w, #list end end
    if count > 1 and most < count then
      local odd = {}
      for w, list in pairs(byWidth) do
        if w ~= common then odd[#odd + 1] = table.concat(list, " ") .. " (" .. w .. ")" end
      end
      table.sort(odd)
      report.warn("most signs are " .. common .. " units wide; these are not: " .. table.concat(odd, ", "))
    end
  end,
}
