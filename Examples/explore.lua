#!/usr/bin/env -S fontshell run
-- A tour of a font: faces, names, vertical metrics, a few glyphs.
-- Usage: fontshell run Examples/explore.lua [FONT]
local path = arg[1] or "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
local font = fontshell.open(path)
print(font)
for i, face in ipairs(font.faces) do
  print(("face %d: %s (%s), %d glyphs, %d units per em"):format(
    face.index, face.postscriptName, face.familyName, face.glyphCount, face.unitsPerEm))
  local hhea, os2 = face.hhea, face["OS/2"]
  print(("  hhea ascender %d descender %d lineGap %d"):format(hhea.ascender, hhea.descender, hhea.lineGap))
  if os2 then
    print(("  OS/2 typo %d/%d/%d, win %d/%d"):format(os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap,
      os2.usWinAscent, os2.usWinDescent))
  end
  for _, char in ipairs({ "A", "a", "g" }) do
    local g = face:glyphFor(char)
    if g then
      local b = g.bounds
      print(("  %s → glyph %d %q advance %d bounds %s"):format(char, g.id, g.name, g.advance,
        b and ("%d,%d..%d,%d"):format(b.xMin, b.yMin, b.xMax, b.yMax) or "empty"))
    end
  end
  print("  tables: " .. table.concat(face.tags, " "))
end
