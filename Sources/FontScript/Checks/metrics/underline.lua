return {
  id = "underline",
  title = "The underline has a thickness and sits below the baseline",
  rationale = [[Browsers, word processors and PDF renderers draw underlines from
post.underlineThickness and underlinePosition; zero draws nothing, a position above the
baseline strikes through the letters.]],
  severity = "fail",
  fontbakery = "opentype/family/underline_thickness",
  check = function(face, report)
    local p = face.post
    if p.underlineThickness <= 0 then report.fail("post.underlineThickness is " .. p.underlineThickness) end
    if p.underlinePosition > 0 then report.warn("post.underlinePosition is " .. p.underlinePosition .. ", above the baseline") end
  end,
}
