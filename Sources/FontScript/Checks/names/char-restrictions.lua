return {
  id = "char-restrictions",
  title = "Family, style, unique, full and PostScript names are printable ASCII",
  rationale = [[Name IDs 1–4, 6, 16 and 17 end up in menus, file names and PostScript
streams of programs that mishandle anything but printable ASCII; localized names belong in
records of their own language.]],
  severity = "fail",
  fontbakery = "name/char_restrictions",
  check = function(face, report)
    local ids = {[1] = true, [2] = true, [3] = true, [4] = true, [6] = true, [16] = true, [17] = true}
    for _, r in ipairs(face.name:records()) do
      local english = (r.platformID == 3 and r.languageID == 0x409) or (r.platformID == 1 and r.languageID == 0)
      if ids[r.nameID] and english and r.text and r.text:find("[^\32-\126]") then
        report.fail(string.format("name ID %d (platform %d): %q has characters outside printable ASCII", r.nameID, r.platformID, r.text))
      end
    end
  end,
}
