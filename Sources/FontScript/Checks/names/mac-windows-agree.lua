return {
  id = "mac-windows-agree",
  title = "Mac and Windows English records of a name say the same",
  rationale = [[Where a font keeps both Mac Roman and Windows records, macOS reads one and
Windows the other: a rename applied to one platform only gives the font two identities.]],
  severity = "warn",
  check = function(face, report)
    local mac, win = {}, {}
    for _, r in ipairs(face.name:records()) do
      if r.platformID == 1 and r.languageID == 0 and r.text then mac[r.nameID] = r.text end
      if r.platformID == 3 and r.languageID == 0x409 and r.text then win[r.nameID] = r.text end
    end
    for id, text in pairs(mac) do
      if win[id] and win[id] ~= text and id ~= 0 and id ~= 13 then
        report.warn(string.format("name ID %d: Mac %q, Windows %q", id, text, win[id]))
      end
    end
  end,
}
