return {
  id = "max-advance-width",
  title = "hhea.advanceWidthMax is the widest advance",
  rationale = [[Layout engines size buffers and monospace detection from advanceWidthMax; a
wrong value misplaces text or makes a font look fixed-pitch.]],
  severity = "fail",
  fontbakery = "opentype/maxadvancewidth",
  check = function(face, report)
    local widest = 0
    for _, a in ipairs(util.advances(face)) do if a > widest then widest = a end end
    if face.hhea.advanceWidthMax ~= widest then
      report.fail(string.format("hhea.advanceWidthMax is %d; the widest advance is %d", face.hhea.advanceWidthMax, widest))
    end
  end,
  fix = function(face)
    local widest = 0
    for _, a in ipairs(util.advances(face)) do if a > widest then widest = a end end
    face.hhea.advanceWidthMax = widest
    return "advanceWidthMax " .. widest
  end,
}
