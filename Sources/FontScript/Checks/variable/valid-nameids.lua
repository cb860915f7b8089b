return {
  id = "valid-nameids",
  title = "fvar's axis and instance name ids are in the ranges the spec allows",
  rationale = [[fvar's axis names and instance subfamily names must use name IDs 256–32767
(instances may also use 2 or 17), PostScript names 256–32767 or 6; apps that list axes and
instances read the names from there, and IDs below 256 clash with the standard names.]],
  severity = "fail",
  fontbakery = "opentype/varfont/valid_nameids",
  applies = function(face) return face.isVariable end,
  check = function(face, report)
    local function custom(id) return id > 255 and id < 32768 end
    for _, a in ipairs(face.axes) do
      if not custom(a.nameID) then report.fail(string.format("axis '%s' uses name ID %d; 256–32767 expected", a.tag, a.nameID)) end
    end
    for i, inst in ipairs(face.instances) do
      local label = inst.name or ("instance " .. i)
      local s = inst.subfamilyNameID
      if not custom(s) and s ~= 2 and s ~= 17 then
        report.fail(string.format("%s uses subfamily name ID %d; 2, 17 or 256–32767 expected", label, s))
      end
      local p = inst.postscriptNameID
      if p and p ~= 6 and not custom(p) then
        report.fail(string.format("%s uses PostScript name ID %d; 6 or 256–32767 expected", label, p))
      end
    end
  end,
}
