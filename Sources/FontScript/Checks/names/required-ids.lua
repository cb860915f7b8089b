return {
  id = "required-ids",
  title = "The name table has family, subfamily, unique, full, version and PostScript names",
  rationale = [[Name IDs 1, 2, 3, 4, 5 and 6 are what operating systems, font menus and
PDF embedding read; a font without them is listed under a wrong or empty name.]],
  severity = "fail",
  check = function(face, report)
    for _, id in ipairs{1, 2, 3, 4, 5, 6} do
      if not face.name[id] then report.fail("name ID " .. id .. " is missing") end
    end
  end,
}
