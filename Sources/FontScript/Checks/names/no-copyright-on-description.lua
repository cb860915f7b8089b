return {
  id = "no-copyright-on-description",
  title = "The description (ID 10) is not the copyright notice",
  rationale = [[Font managers show ID 10 as what the font is for; a copyright notice there
hides the description and duplicates ID 0.]],
  severity = "warn",
  fontbakery = "name/no_copyright_on_description",
  check = function(face, report)
    local d = face.name[10]
    if d and d:lower():find("copyright") then report.warn(string.format("ID 10 reads %q", d:sub(1, 80))) end
  end,
}
