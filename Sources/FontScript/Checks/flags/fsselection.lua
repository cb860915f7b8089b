return {
  id = "fsselection",
  title = "fsSelection agrees with the style name",
  rationale = [[Windows links Regular, Italic, Bold and Bold Italic through fsSelection bits 0
(italic), 5 (bold) and 6 (regular); bits that contradict the style name break style linking
(Ctrl+B picks a synthetic bold, or the wrong face).]],
  severity = "fail",
  fontbakery = "opentype/fsselection",
  applies = function(face) return util.os2(face) ~= nil end,
  check = function(face, report)
    local fs = face["OS/2"].fsSelection
    local italic, bold, regular = (fs & 1) ~= 0, (fs & 32) ~= 0, (fs & 64) ~= 0
    local wantBold, wantItalic = util.isBoldName(face), util.isItalicName(face) ~= nil
    local style = util.style(face)
    if bold ~= wantBold then report.fail(string.format("bold bit 5 is %s; the style is %q", bold and "set" or "clear", style)) end
    if italic ~= wantItalic then report.fail(string.format("italic bit 0 is %s; the style is %q", italic and "set" or "clear", style)) end
    if regular and (bold or italic) then report.fail("the regular bit 6 is set together with bold or italic") end
    if not regular and not bold and not italic then report.warn("none of regular, bold or italic is set") end
  end,
  fix = function(face)
    local os2 = face["OS/2"]
    local fs = os2.fsSelection & ~(1 | 32 | 64)
    local bold, italic = util.isBoldName(face), util.isItalicName(face) ~= nil
    if bold then fs = fs | 32 end
    if italic then fs = fs | 1 end
    if not bold and not italic then fs = fs | 64 end
    os2.fsSelection = fs
    return string.format("fsSelection 0x%04X", fs)
  end,
}
