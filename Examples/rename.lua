#!/usr/bin/env -S fontshell run
-- Give a font (every face) a new family name so the edited copy can live beside the original.
-- Usage: fontshell run Examples/rename.lua IN OUT "New Family"
local input, output, family = arg[1], arg[2], arg[3]
if not (input and output and family) then
  io.stderr:write('usage: fontshell run rename.lua IN OUT "New Family"\n')
  os.exit(2)
end
local font = fontshell.open(input)
for _, face in ipairs(font.faces) do
  local before = face.postscriptName
  face:rename{ family = family }
  print(("face %d: %s → %s (full name %q)"):format(face.index, before, face.postscriptName, face.fullName))
end
font:save(output)
print("saved " .. output)
