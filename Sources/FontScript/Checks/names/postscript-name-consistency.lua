return {
  id = "postscript-name-consistency",
  title = "Every PostScript name record is the same",
  rationale = [[Mac and Windows records of name ID 6 are read by different systems; when they
differ, a document made on one system cannot find the font on the other.]],
  severity = "fail",
  fontbakery = "opentype/name/postscript_name_consistency",
  check = function(face, report)
    local seen = {}
    for _, r in ipairs(face.name:records()) do
      if r.nameID == 6 and r.text then seen[r.text] = true end
    end
    local names = {}
    for n in pairs(seen) do names[#names + 1] = string.format("%q", n) end
    table.sort(names)
    if #names > 1 then report.fail("ID 6 records differ: " .. table.concat(names, ", ")) end
  end,
}
