return {
  id = "panose",
  title = "PANOSE is filled in and valid",
  rationale = [[Windows' font mapper and some PDF viewers choose substitutes by PANOSE; all
zeros ('any') gives them nothing, and an unknown family kind (above 5) is invalid.]],
  severity = "warn",
  applies = function(face) return util.os2(face) ~= nil end,
  check = function(face, report)
    local os2 = face["OS/2"]
    local fields = {"bFamilyType", "bSerifStyle", "bWeight", "bProportion", "bContrast", "bStrokeVariation",
                    "bArmStyle", "bLetterForm", "bMidline", "bXHeight"}
    local zero = true
    for _, f in ipairs(fields) do if os2[f] ~= 0 then zero = false end end
    if zero then report.warn("every PANOSE digit is 0 (any)") end
    if os2.bFamilyType > 5 then report.fail("PANOSE bFamilyType " .. os2.bFamilyType .. " is not a defined kind (0–5)") end
  end,
}
