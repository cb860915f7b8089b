return {
  id = "italic-names",
  title = "Italic style names agree with the italic flags",
  rationale = [[Systems group styles by fsSelection and macStyle, menus show the names: an
italic whose name lacks 'Italic' (or an upright that has it) appears twice or not at all.]],
  severity = "fail",
  fontbakery = "name/italic_names",
  check = function(face, report)
    local os2 = util.os2(face)
    if not os2 then return report.skip("no OS/2 table") end
    local flagged = (os2.fsSelection & 1) ~= 0
    local named = util.isItalicName(face) ~= nil
    if flagged and not named then
      report.fail(string.format("fsSelection says italic, the style %q does not", util.style(face)))
    elseif named and not flagged then
      report.fail(string.format("the style %q says italic, fsSelection bit 0 is clear", util.style(face)))
    end
  end,
}
