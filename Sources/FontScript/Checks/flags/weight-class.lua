local byName = {{"extralight", 200}, {"ultralight", 200}, {"semibold", 600}, {"demibold", 600},
  {"extrabold", 800}, {"ultrabold", 800}, {"thin", 100}, {"light", 300}, {"medium", 500},
  {"black", 900}, {"heavy", 900}, {"bold", 700}}
return {
  id = "weight-class",
  title = "usWeightClass is a CSS weight that matches the style name",
  rationale = [[Browsers and font menus order and match weights by usWeightClass (100–900);
a value off the grid or far from the name ('Bold' at 400) makes CSS pick the wrong face.]],
  severity = "warn",
  applies = function(face) return util.os2(face) ~= nil end,
  check = function(face, report)
    local w = face["OS/2"].usWeightClass
    if w < 1 or w > 1000 then return report.fail("usWeightClass " .. w .. " is outside 1–1000") end
    if w % 50 ~= 0 then report.warn("usWeightClass " .. w .. " is not a multiple of 50") end
    local style = util.style(face):lower():gsub("[%s%-]", "")
    local expected = 400
    for _, pair in ipairs(byName) do
      if style:find(pair[1], 1, true) then expected = pair[2]; break end
    end
    if math.abs(w - expected) > 100 then
      report.warn(string.format("usWeightClass is %d; the style %q suggests %d", w, util.style(face), expected))
    end
  end,
}
