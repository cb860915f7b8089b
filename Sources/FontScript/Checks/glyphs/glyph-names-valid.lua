return {
  id = "glyph-names-valid",
  title = "Glyph names follow the naming rules",
  rationale = [[Glyph names from post format 2 or CFF are read by PDF text extraction, font
editors and fontTools: 1–63 characters from A–Z a–z 0–9 . _ (and - for compatibility), not
starting with a digit or period (except .notdef and .null).]],
  severity = "fail",
  fontbakery = "valid_glyphnames",
  applies = function(face) return face.post.version == 2 or util.has(face, "CFF ") end,
  check = function(face, report)
    local bad = {}
    for i, n in ipairs(face.glyphs:names()) do
      local ok = #n >= 1 and #n <= 63 and not n:find("[^%w%._%-]") and not n:match("^[%d%.]")
      if not ok and n ~= ".notdef" and n ~= ".null" then bad[#bad + 1] = string.format("%d %q", i - 1, n) end
    end
    if #bad > 0 then report.fail("invalid names: " .. util.list(bad)) end
  end,
}
