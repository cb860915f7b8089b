return {
  id = "soft-hyphen",
  title = "Soft hyphen is left to the text engine",
  rationale = [[U+00AD is an invisible hyphenation hint: layout engines draw a hyphen only at a
line break, using the hyphen glyph. A font mapping it to a visible glyph shows hyphens in the
middle of words in engines that trust the font.]],
  severity = "warn",
  fontbakery = "soft_hyphen",
  check = function(face, report)
    if face.cmap and face.cmap[0xAD] then
      local g = face:glyphFor(0xAD)
      if util.hasInk(g) then report.warn("U+00AD SOFT HYPHEN maps to a drawn glyph ('" .. g.name .. "')") end
    end
  end,
}
