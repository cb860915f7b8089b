#!/usr/bin/env -S fontshell run
-- Try hhea ascender values for a face: writes one font per value (named by the value) so each
-- can be installed and tried in the app whose label shows text too high or too low.
-- Previews of each value come with the preview module (issue 6).
-- Usage: fontshell run Examples/ascender-sweep.lua FONT OUTDIR [FACE] [VALUE ...]
--        default values: the current ascender -200 .. +150 in steps of 50
local input, outdir, faceIndex = arg[1], arg[2], tonumber(arg[3] or "0")
if not (input and outdir) then
  io.stderr:write("usage: fontshell run ascender-sweep.lua FONT OUTDIR [FACE] [VALUE ...]\n")
  os.exit(2)
end
local font = fontshell.open(input)
local face = font:face(faceIndex)
local original = face.hhea.ascender
local values = {}
for i = 4, #arg do values[#values + 1] = math.tointeger(tonumber(arg[i])) or error("not an integer: " .. arg[i]) end
if #values == 0 then for delta = -200, 150, 50 do values[#values + 1] = original + delta end end

local base = input:match("([^/]+)%.%w+$") or "font"
local extension = input:match("%.(%w+)$") or "ttf"
for _, value in ipairs(values) do
  face.hhea.ascender = value
  local path = ("%s/%s-ascender-%d.%s"):format(outdir, base, value, extension)
  font:save(path)
  print(("ascender %5d (%+d) → %s"):format(value, value - original, path))
end
face.hhea.ascender = original
