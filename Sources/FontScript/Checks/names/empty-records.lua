return {
  id = "empty-records",
  title = "No name record is empty",
  rationale = [[An empty name record (or one of spaces only) is shown as a blank family or
style in font menus, and some validators reject the font.]],
  severity = "fail",
  fontbakery = "opentype/name/empty_records",
  check = function(face, report)
    for _, r in ipairs(face.name:records()) do
      if r.text and r.text:match("^%s*$") then
        report.fail(string.format("name ID %d (platform %d, encoding %d, language 0x%X) is empty",
          r.nameID, r.platformID, r.encodingID, r.languageID))
      end
    end
  end,
  fix = function(face)
    local removed = 0
    for _, r in ipairs(face.name:records()) do
      if r.text and r.text:match("^%s*$") then
        removed = removed + face.name:remove(r.nameID, {platform = r.platformID, encoding = r.encodingID, language = r.languageID})
      end
    end
    return "removed " .. removed .. " empty records"
  end,
}
