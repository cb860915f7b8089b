return {
  id = "cap-x-height",
  title = "OS/2 sCapHeight and sxHeight match the H and x glyphs",
  rationale = [[Text layout (CSS cap and ex units, font-size-adjust, baseline alignment of mixed
fonts) reads sCapHeight and sxHeight; when they are zero or differ from the drawn letters, text
in this font is sized and aligned wrongly next to others.]],
  severity = "warn",
  applies = function(face) local os2 = util.os2(face); return os2 and os2.version >= 2 end,
  check = function(face, report)
    local os2 = face["OS/2"]
    local H, x = face:glyphFor("H"), face:glyphFor("x")
    local tolerance = face.unitsPerEm / 100
    if H and H.bounds and math.abs(os2.sCapHeight - H.bounds.yMax) > tolerance then
      report.warn(string.format("sCapHeight is %d; H is %d tall", os2.sCapHeight, H.bounds.yMax))
    end
    if x and x.bounds and math.abs(os2.sxHeight - x.bounds.yMax) > tolerance then
      report.warn(string.format("sxHeight is %d; x is %d tall", os2.sxHeight, x.bounds.yMax))
    end
  end,
  fix = function(face)
    local os2 = face["OS/2"]
    local H, x = face:glyphFor("H"), face:glyphFor("x")
    if H and H.bounds then os2.sCapHeight = H.bounds.yMax end
    if x and x.bounds then os2.sxHeight = x.bounds.yMax end
    return string.format("sCapHeight %d, sxHeight %d", os2.sCapHeight, os2.sxHeight)
  end,
}
