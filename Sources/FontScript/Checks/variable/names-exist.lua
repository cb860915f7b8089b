return {
  id = "names-exist",
  title = "Every name fvar and STAT refer to is in the name table",
  rationale = [[Axis pickers, style menus and the instances apps create show the names fvar
and STAT point to; an id with no name record shows up as a blank or a number.]],
  severity = "fail",
  applies = function(face) return face.isVariable end,
  check = function(face, report)
    local have = {}
    for _, r in ipairs(face.name:records()) do have[r.nameID] = true end
    for _, a in ipairs(face.axes) do
      if not have[a.nameID] then report.fail(string.format("axis '%s': name ID %d has no record", a.tag, a.nameID)) end
    end
    for i, inst in ipairs(face.instances) do
      if not have[inst.subfamilyNameID] then report.fail(string.format("instance %d: subfamily name ID %d has no record", i, inst.subfamilyNameID)) end
      if inst.postscriptNameID and not have[inst.postscriptNameID] then
        report.fail(string.format("instance %d: PostScript name ID %d has no record", i, inst.postscriptNameID))
      end
    end
    local stat = face.STAT
    if stat then
      for _, axis in ipairs(stat.DesignAxisRecord and stat.DesignAxisRecord.Axis or {}) do
        if not have[axis.AxisNameID] then report.fail(string.format("STAT axis %s: name ID %d has no record", util.tag(axis.AxisTag), axis.AxisNameID)) end
      end
      for _, value in ipairs(stat.AxisValueArray and stat.AxisValueArray.AxisValue or {}) do
        if not have[value.ValueNameID] then report.fail(string.format("STAT axis value: name ID %d has no record", value.ValueNameID)) end
      end
    end
  end,
}
