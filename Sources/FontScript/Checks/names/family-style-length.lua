return {
  id = "family-style-length",
  title = "Family and style names fit the limits of font menus",
  rationale = [[Windows builds menu entries from name IDs 1 and 2 and cuts them past 31
characters; full names (ID 4) past 63 characters are cut in many apps; PostScript names of
a style-linked family should stay within 29 characters for older printers.]],
  severity = "warn",
  fontbakery = "name/family_and_style_max_length",
  check = function(face, report)
    local family, style, full = face.name[1] or "", face.name[2] or "", face.name[4] or ""
    if utf8.len(family .. " " .. style) and utf8.len(family .. " " .. style) > 32 then
      report.warn(string.format("IDs 1 + 2 %q are %d characters; Windows shows 31", family .. " " .. style, utf8.len(family .. " " .. style)))
    end
    if utf8.len(full) and utf8.len(full) > 63 then report.warn(string.format("full name %q is over 63 characters", full)) end
  end,
}
