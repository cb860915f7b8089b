return {
  id = "postscript-name",
  title = "The PostScript name is valid",
  rationale = [[The PostScript name (ID 6) identifies the font in PDF, PostScript and CoreText:
at most 63 printable ASCII characters without spaces or any of [](){}<>/%. Adobe recommends
only letters, digits and one hyphen between family and style.]],
  severity = "fail",
  fontbakery = "opentype/postscript_name",
  check = function(face, report)
    local ps = face.name[6]
    if not ps then return report.fail("no PostScript name (ID 6)") end
    if #ps > 63 then report.fail(string.format("%q is %d characters long; at most 63", ps, #ps)) end
    if ps:find("[^\33-\126]") or ps:find("[%[%](){}<>/%%]") then
      report.fail(string.format("%q has characters PostScript names may not contain", ps))
    elseif ps:find("[^%w%-]") then
      report.warn(string.format("%q has characters beyond A–Z, a–z, 0–9 and '-'", ps))
    end
  end,
}
