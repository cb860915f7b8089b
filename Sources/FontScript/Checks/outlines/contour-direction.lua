return {
  id = "contour-direction",
  title = "Outer contours run the way the outline format expects",
  rationale = [[TrueType outer contours run clockwise and CFF ones counter-clockwise. Reversed
contours still fill with the non-zero rule, but rasterizers' dropout control and stem
detection, overlap removal and outline conversions assume the right direction.]],
  severity = "warn",
  outlines = true,
  check = function(face, report)
    local cubic = face.format == "OpenType CFF"
    local glyphs, skipped = util.mappedGlyphs(face)
    local reversed = {}
    for _, g in ipairs(glyphs) do
      if g and not g.isComposite then
        local biggest, sign = 0, 0
        for _, a in ipairs(g:contourAreas()) do
          if math.abs(a) > biggest then biggest, sign = math.abs(a), a end
        end
        if biggest > 0 and ((cubic and sign < 0) or (not cubic and sign > 0)) then reversed[#reversed + 1] = g.name end
      end
    end
    if #reversed > 0 then
      report.warn("outer contour " .. (cubic and "clockwise (CFF wants counter-clockwise)" or "counter-clockwise (TrueType wants clockwise)") .. ": " .. util.list(reversed))
    end
    if skipped > 0 then report.info(skipped .. " mapped glyphs past the first 5000 were not checked") end
  end,
}
