return {
  id = "caret-slope",
  title = "The caret slope matches the italic angle",
  rationale = [[Text editors draw the cursor with hhea.caretSlopeRise/Run; in an italic it
should lean with the letters (post.italicAngle), upright otherwise. With the rise at
unitsPerEm the run can match the angle within 0.1°, the tolerance used here.]],
  severity = "warn",
  fontbakery = "opentype/caret_slope",
  check = function(face, report)
    local h, angle = face.hhea, face.post.italicAngle
    if h.caretSlopeRise == 0 then return report.warn("caretSlopeRise is 0: the caret would lie flat") end
    local caret = -math.deg(math.atan(h.caretSlopeRun, h.caretSlopeRise))
    if math.abs(caret - angle) > 0.1 then
      report.warn(string.format("the caret leans %.1f°, post.italicAngle is %.1f°", caret, angle))
    end
  end,
  fix = function(face)
    local angle = face.post.italicAngle
    local rise = face.head.unitsPerEm
    face.hhea.caretSlopeRise = rise
    face.hhea.caretSlopeRun = math.floor(-rise * math.tan(math.rad(angle)) + 0.5)
    return string.format("caretSlopeRise %d, caretSlopeRun %d", face.hhea.caretSlopeRise, face.hhea.caretSlopeRun)
  end,
}
