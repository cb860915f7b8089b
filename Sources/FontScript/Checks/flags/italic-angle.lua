return {
  id = "italic-angle",
  title = "post.italicAngle is plausible and agrees with the style",
  rationale = [[The italic angle is negative for text leaning right (clockwise from vertical).
Renderers use it for synthetic obliques, carets and optical alignment; a positive or huge angle,
or an italic named face at 0°, looks wrong everywhere it is used.]],
  severity = "fail",
  fontbakery = "opentype/italic_angle",
  check = function(face, report)
    local a = face.post.italicAngle
    if a > 0 then report.fail(string.format("italicAngle is %.2f; right-leaning text has a negative angle", a)) end
    if a < -30 then report.warn(string.format("italicAngle %.2f is steeper than -30°", a)) end
    local italicName = util.isItalicName(face) ~= nil
    if italicName and a == 0 then report.warn("the style is italic but italicAngle is 0") end
    if not italicName and a ~= 0 then report.warn(string.format("an upright style with italicAngle %.2f", a)) end
  end,
}
