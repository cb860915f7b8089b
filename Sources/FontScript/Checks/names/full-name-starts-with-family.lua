return {
  id = "full-name-starts-with-family",
  title = "The full name (ID 4) starts with the family name (ID 16 or 1)",
  rationale = [[Apps and systems show the full name in lists and match it against the family:
'Roboto Bold' belongs to 'Roboto'. A full name that does not begin with the family looks like
another family.]],
  severity = "fail",
  fontbakery = "opentype/name/match_familyname_fullfont",
  check = function(face, report)
    local full = face.name[4]
    local family16, family1 = face.name[16], face.name[1]
    if not full or not (family16 or family1) then return report.skip("no full or family name") end
    local function starts(f) return f and full:sub(1, #f) == f end
    if not (starts(family16) or starts(family1)) then
      report.fail(string.format("full name %q does not start with the family %q", full, family16 or family1))
    end
  end,
}
