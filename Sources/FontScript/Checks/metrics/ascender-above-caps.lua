return {
  id = "ascender-above-caps",
  title = "The hhea ascender reaches the cap height",
  rationale = [[Apps that size a text box from the ascender (UIKit, AppKit, CSS line boxes with
tight leading) clip or crowd capitals that rise above it.]],
  severity = "fail",
  check = function(face, report)
    local H = face:glyphFor("H")
    if not H or not H.bounds then return report.skip("no H to measure the cap height") end
    local cap = H.bounds.yMax
    if face.hhea.ascender < cap then
      report.fail(string.format("hhea.ascender %d is below the cap height %d (H)", face.hhea.ascender, cap))
    end
  end,
}
