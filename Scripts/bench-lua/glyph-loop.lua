-- Reads advance and name of every glyph of face 1 (0-based) and times one property read.
-- Usage: fontshell run glyph-loop.lua FONT
local font = fontshell.open(arg[1])
local face = font:face(1)
local glyphs = face.glyphs
local n = #glyphs
local t0 = os.clock()
local total, names = 0, 0
for id = 0, n - 1 do
  local g = glyphs[id]
  total = total + g.advance
  names = names + #g.name
end
local t1 = os.clock()
-- binding overhead: one property read (g.id) versus the same loop without it
local g = glyphs[100]
local N = 2000000
local a = os.clock(); local s = 0
for i = 1, N do s = s + i end
local b = os.clock()
for i = 1, N do s = s + g.id end
local c = os.clock()
print(("glyphs %d: advance+name of every glyph %.1f ms; property read %.0f ns"):format(n, (t1 - t0) * 1000, ((c - b) - (b - a)) / N * 1e9))
