-- What `fontshell run names-and-metrics.lua --each 'fonts/**/*.{ttf,otf,ttc}'` reports per font:
-- the returned table becomes the font's JSON line (with path, faces (the face count) and
-- seconds, which the line has of its own).
local styles = {}
for _, f in ipairs(font.faces) do
  styles[#styles + 1] = {
    postscriptName = f.postscriptName,
    family = f.familyName,
    style = f.name[17] or f.name[2],
    unitsPerEm = f.unitsPerEm,
    ascender = f.hhea.ascender,
    descender = f.hhea.descender,
    lineGap = f.hhea.lineGap,
    glyphs = f.glyphCount,
  }
end
return {format = font.format, styles = styles}
