return {
  id = "math-signs-width",
  title = "Common math signs share one width",
  rationale = [[Operators such as + − × ÷ = < > ± ≠ ≤ ≥ line up in formulas and tables only when
they are equally wide.]],
  severity = "warn",
  fontbakery = "math_signs_width",
  check = function(face, report)
    -- Operators and relations set between operands: + < = > ¬ ± × ÷, element-of, minus and
    -- minus-or-plus, proportional, angles, and the relations and operators from U+2236 on,
    -- leaving out the n-ary (large) operators.
    local signs = {0x2B, 0x3C, 0x3D, 0x3E, 0xAC, 0xB1, 0xD7, 0xF7, 0x221D}
    for _, r in ipairs{{0x2208, 0x220D}, {0x2212, 0x2214}, {0x221F, 0x2222}, {0x2236, 0x22BF}, {0x22C4, 0x22FF}} do
      for cp = r[1], r[2] do signs[#signs + 1] = cp end
    end
    local byWidth, count = {}, 0
    for _, cp in ipairs(signs) do
      local g = face:glyphFor(cp)
      if g then
        byWidth[g.advance] = byWidth[g.advance] or {}
        table.insert(byWidth[g.advance], g.name)
        count = count + 1
      end
    end
    local common, most = nil, 0
    for w, list in pairs(byWidth) do if #list > most or (#list == most and w < common) then common, most = w, #list end end
    if count > 1 and most < count then
      local odd = {}
      for w, list in pairs(byWidth) do
        if w ~= common then odd[#odd + 1] = util.list(list, 6) .. " (" .. w .. ")" end
      end
      table.sort(odd)
      report.warn("most signs are " .. common .. " units wide; these are not: " .. table.concat(odd, ", "))
    end
  end,
}
