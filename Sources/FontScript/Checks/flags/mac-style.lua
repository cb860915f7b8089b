return {
  id = "mac-style",
  title = "head.macStyle agrees with the style name and fsSelection",
  rationale = [[macOS and older apps read bold and italic from head.macStyle bits 0 and 1;
Windows from fsSelection. Disagreement shows the face under a different style on each system.]],
  severity = "fail",
  fontbakery = "opentype/mac_style",
  check = function(face, report)
    local ms = face.head.macStyle
    local bold, italic = (ms & 1) ~= 0, (ms & 2) ~= 0
    local style = util.style(face)
    if bold ~= util.isBoldName(face) then report.fail(string.format("macStyle bold bit is %s; the style is %q", bold and "set" or "clear", style)) end
    if italic ~= (util.isItalicName(face) ~= nil) then report.fail(string.format("macStyle italic bit is %s; the style is %q", italic and "set" or "clear", style)) end
    local os2 = util.os2(face)
    if os2 then
      local fs = os2.fsSelection
      if bold ~= ((fs & 32) ~= 0) or italic ~= ((fs & 1) ~= 0) then
        report.fail(string.format("macStyle (0x%X) and fsSelection (0x%X) disagree on bold or italic", ms, fs))
      end
    end
  end,
  fix = function(face)
    local ms = face.head.macStyle & ~3
    if util.isBoldName(face) then ms = ms | 1 end
    if util.isItalicName(face) then ms = ms | 2 end
    face.head.macStyle = ms
    return string.format("macStyle 0x%X", ms)
  end,
}
