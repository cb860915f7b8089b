return {
  id = "ligature-carets",
  title = "Ligatures have caret positions",
  rationale = [[Without GDEF ligature carets, a text cursor cannot stop inside 'ffi' or 'fl':
selecting or deleting one letter of a ligature takes the whole ligature.]],
  severity = "warn",
  fontbakery = "ligature_carets",
  applies = function(face) return #face:features("liga") > 0 end,
  check = function(face, report)
    local ligatures = {}
    for _, s in ipairs(face:substitutions("liga")) do
      if #s["in"] > 1 and #s.out == 1 then ligatures[s.out[1]] = true end
    end
    local carets = {}
    local ok, gdef = pcall(function() return face.GDEF end)
    if ok and gdef and gdef.LigCaretList then
      for _, name in ipairs(gdef.LigCaretList.Coverage or {}) do carets[name] = true end
    end
    local missing = {}
    for name in pairs(ligatures) do if not carets[name] then missing[#missing + 1] = name end end
    table.sort(missing)
    if #missing > 0 then report.warn("ligatures without carets: " .. util.list(missing)) end
  end,
}
