#!/usr/bin/env -S fontshell run
-- Fix text that sits too high or too low in a fixed-height label: try hhea ascender values,
-- draw a label for each on one sheet (guides on; each caption shows the value and how far the
-- capitals' centre sits from the box centre), print the best value and save a copy of the font
-- with it beside the sheet.
-- Usage: fontshell run Examples/ascender-sweep.lua FONT SHEET.png [FACE] [VALUE ...]
--        default values: eight, from the current ascender -300 to +400 in steps of 100
local input, sheetPath, faceIndex = arg[1], arg[2], tonumber(arg[3] or "0")
if not (input and sheetPath) then
  io.stderr:write("usage: fontshell run ascender-sweep.lua FONT SHEET.png [FACE] [VALUE ...]\n")
  os.exit(2)
end
local font = fontshell.open(input)
local face = font:face(faceIndex)
local original = face.hhea.ascender
local values = {}
for i = 4, #arg do values[#values + 1] = math.tointeger(tonumber(arg[i])) or error("not an integer: " .. arg[i]) end
if #values == 0 then for delta = -300, 400, 100 do values[#values + 1] = original + delta end end

-- A 44 pt button label at @2x, laid out as UIKit does (hhea metrics, line box centred).
local sheet, results, best = face:sweep{
  field = "hhea.ascender", values = values, text = "Sign In Hamburg",
  label = { width = 200, height = 44, size = 17, scale = 2, platform = "apple", guides = true },
}
sheet:save(sheetPath)
for _, r in ipairs(results) do
  print(("ascender %5d (%+4d): capitals %+6.2f px from the centre%s"):format(
    r.value, r.value - original, r.capCenterOffset, r.value == best and "  ← best" or ""))
end
print(("best ascender: %d (was %d); sheet: %s"):format(best, original, sheetPath))

face.hhea.ascender = best
local base = input:match("([^/]+)%.%w+$") or "font"
local extension = input:match("%.(%w+)$") or "ttf"
local folder = sheetPath:match("^(.*)/[^/]*$") or "."
local out = ("%s/%s-ascender-%d.%s"):format(folder, base, best, extension)
font:save(out)
print("saved " .. out)
