return {
  id = "distinct-instances",
  title = "Named instances are distinct",
  rationale = [[Two instance records with the same coordinates and names are one instance
listed twice: apps show a duplicate entry, and the spec says all but the first may be ignored.]],
  severity = "warn",
  fontbakery = "opentype/varfont/distinct_instance_records",
  applies = function(face) return face.isVariable end,
  check = function(face, report)
    local seen = {}
    for i, inst in ipairs(face.instances) do
      local parts = {}
      for _, a in ipairs(face.axes) do parts[#parts + 1] = string.format("%s=%.5f", a.tag, inst.coordinates[a.tag]) end
      local key = table.concat(parts, " ") .. "|" .. inst.subfamilyNameID .. "|" .. tostring(inst.postscriptNameID)
      if seen[key] then
        report.warn(string.format("%s repeats instance %d", inst.name or ("instance " .. i), seen[key]))
      else
        seen[key] = i
      end
    end
  end,
}
