return {
  id = "stat-axis-for-each-axis",
  title = "STAT has a design axis record for every fvar axis",
  rationale = [[Apps build style names and family groupings from STAT (Windows' font menus,
CSS font matching in browsers); an fvar axis STAT does not describe has no name there.]],
  severity = "fail",
  fontbakery = "opentype/varfont/STAT_axis_record_for_each_axis",
  applies = function(face) return face.isVariable end,
  check = function(face, report)
    local stat = face.STAT
    if not stat then return report.skip("the font has no STAT table") end
    local described = {}
    for _, axis in ipairs(stat.DesignAxisRecord and stat.DesignAxisRecord.Axis or {}) do described[util.tag(axis.AxisTag)] = true end
    local missing = {}
    for _, a in ipairs(face.axes) do if not described[a.tag] then missing[#missing + 1] = a.tag end end
    if #missing > 0 then report.fail("STAT has no axis record for " .. table.concat(missing, ", ")) end
  end,
}
