-- The all-caps edit without layout: each of a–z takes its capital's outline and metrics
-- (Glyph:copyFrom with layout = false), then the font is saved. Scripts/bench compares it with
-- `fontshell edit --caps`, which also copies layout.
-- Usage: fontshell run Scripts/bench-lua/caps_outlines.lua IN OUT
local font = fontshell.open(arg[1])
for _, face in ipairs(font.faces) do
  for code = string.byte("a"), string.byte("z") do
    local lower, upper = face:glyphFor(string.char(code)), face:glyphFor(string.char(code - 32))
    if lower and upper then lower:copyFrom(upper, { metrics = true, layout = false }) end
  end
end
font:save(arg[2], { overwrite = true })
