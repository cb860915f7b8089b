return {
  id = "trailing-spaces",
  title = "Name records have no leading or trailing spaces",
  rationale = [[Spaces around a name are invisible in a menu but make two names that look
equal compare different (family grouping, PostScript lookups, CSS font-family).]],
  severity = "fail",
  fontbakery = "name/trailing_spaces",
  check = function(face, report)
    for _, r in ipairs(face.name:records()) do
      if r.text and not r.text:match("^%s*$") and (r.text:match("^%s") or r.text:match("%s$")) then
        local shown = r.text:gsub("\n", "\\n"):gsub("\r", "\\r")
        if #shown > 70 then shown = "…" .. shown:sub(-50) end
        report.fail(string.format("name ID %d (platform %d): \"%s\"", r.nameID, r.platformID, shown))
      end
    end
  end,
  fix = function(face)
    local n = 0
    for _, r in ipairs(face.name:records()) do
      if r.text and (r.text:match("^%s") or r.text:match("%s$")) then
        local trimmed = r.text:match("^%s*(.-)%s*$")
        if trimmed ~= "" then
          face.name:set(r.nameID, trimmed, {platform = r.platformID, encoding = r.encodingID, language = r.languageID})
          n = n + 1
        end
      end
    end
    return "trimmed " .. n .. " records"
  end,
}
