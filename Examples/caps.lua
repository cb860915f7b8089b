#!/usr/bin/env -S fontshell run
-- All caps: in every face, a–z draw the outline of A–Z with its advance and side bearing and
-- take its layout (ligatures, kerning, marks: lowercase text shapes exactly as uppercase), and
-- the family gets a suffix so the copy can be installed next to the original.
-- Usage: fontshell run Examples/caps.lua IN OUT [SUFFIX]     (SUFFIX defaults to " Caps")
local input, output, suffix = arg[1], arg[2], arg[3] or " Caps"
if not input or not output then
  io.stderr:write("usage: fontshell run caps.lua IN OUT [SUFFIX]\n")
  os.exit(2)
end
local font = fontshell.open(input)
for _, face in ipairs(font.faces) do
  local copied = 0
  for code = string.byte("a"), string.byte("z") do
    local lower, upper = face:glyphFor(string.char(code)), face:glyphFor(string.char(code - 32))
    if lower and upper then
      lower:copyFrom(upper, { metrics = true, layout = true })
      copied = copied + 1
    end
  end
  local old = face.familyName
  face:rename{ family = old .. suffix }
  print(("face %d: %d letters, %q → %q (%s)"):format(face.index, copied, old, face.familyName, face.postscriptName))
end
local report = font:save(output)
print(("saved %s: %d bytes, re-encoded %s"):format(report.path, report.bytesWritten, table.concat(report.reencoded, ", ")))
