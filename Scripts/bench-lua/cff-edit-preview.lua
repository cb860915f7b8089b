-- Previews right after a glyph edit of a large CFF collection (noto-cjk): the edit, the first
-- label after it (the edited face is laid out in place), a second label, a 4-value sweep.
-- Usage: fontshell run cff-edit-preview.lua NotoSansCJK-Regular.ttc
local face = fontshell.open(arg[1]):face(0)
local function timed(body) local start = os.clock(); body(); return (os.clock() - start) * 1000 end
local edit = timed(function() face:glyphFor("a"):copyFrom(face:glyphFor("A")) end)
local first = timed(function() preview.label(face, "Sign In", {width = 200, height = 44}) end)
local second = timed(function() preview.label(face, "Sign In", {width = 200, height = 44}) end)
local sweep = timed(function()
  face:sweep{field = "hhea.ascender", values = {800, 900, 1000, 1100}, text = "Sign In", label = {width = 200, height = 44}}
end)
print(string.format("edit %.1f ms, first label after it %.1f ms, second %.1f ms, 4-value sweep %.1f ms", edit, first, second, sweep))
