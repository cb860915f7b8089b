return {
  id = "validate",
  title = "The font passes FontShell's validator",
  rationale = [[The validator (fontshell validate) checks structure the other checks build on:
checksums, table alignment, glyph counts, loca, glyph data and composite loops, bounding boxes,
cmap order, name encodings, PostScript name rules, and that layout tables decode.]],
  severity = "fail",
  check = function(face, report)
    for _, f in ipairs(face:validate()) do
      local text = f.check .. ": " .. f.message
      if f.severity == "error" then report.fail(text) else report.warn(text) end
    end
  end,
}
