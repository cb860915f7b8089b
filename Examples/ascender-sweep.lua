#!/usr/bin/env -S fontshell run
-- Fix text that sits too high or too low in a fixed-height label: try hhea ascender values,
-- draw a label for each on one sheet (guides on; each caption shows the value and where the
-- capitals sit against the box centre, the best cell framed), print the best value, and with
-- --save save a copy of the font with it beside the sheet.
-- Usage: fontshell run Examples/ascender-sweep.lua FONT SHEET.png [FACE] [VALUE ...] [--save]
--        default values: eight, from the current ascender -300 to +400 in steps of 100
local save = false
local rest = {}
for i = 1, #arg do
  if arg[i] == "--save" then save = true else rest[#rest + 1] = arg[i] end
end
local input, sheetPath, faceIndex = rest[1], rest[2], tonumber(rest[3] or "0")
if not (input and sheetPath) then
  io.stderr:write("usage: fontshell run ascender-sweep.lua FONT SHEET.png [FACE] [VALUE ...] [--save]\n")
  os.exit(2)
end
local font = fontshell.open(input)
local face = font:face(faceIndex)
local original = face.hhea.ascender
local values = {}
for i = 4, #rest do values[#values + 1] = math.tointeger(tonumber(rest[i])) or error("not an integer: " .. rest[i]) end
if #values == 0 then for delta = -300, 400, 100 do values[#values + 1] = original + delta end end

-- A 44 pt button label at @2x, laid out as UIKit does (hhea metrics, line box centred).
local sheet, results, best, warning = face:sweep{
  field = "hhea.ascender", values = values, text = "Sign In Hamburg",
  label = { width = 200, height = 44, size = 17, scale = 2, platform = "apple", guides = true },
}
sheet:save(sheetPath)
for _, r in ipairs(results) do
  local where = math.abs(r.capCenterOffset) < 0.05 and "centred"
    or ("%.1f px %s"):format(math.abs(r.capCenterOffset), r.capCenterOffset > 0 and "low" or "high")
  print(("ascender %5d (%+4d): capitals %s%s"):format(r.value, r.value - original, where, r.value == best and "  ← best" or ""))
end
print(("best ascender: %d (was %d); sheet: %s"):format(best, original, sheetPath))
if warning then print("note: " .. warning) end
if not save then
  print("(run with --save to write a copy of the font with this ascender)")
  return
end

face.hhea.ascender = best
local base = input:match("([^/]+)%.%w+$") or "font"
local extension = input:match("%.(%w+)$") or "ttf"
local folder = sheetPath:match("^(.*)/[^/]*$") or "."
local out = ("%s/%s-ascender-%d.%s"):format(folder, base, best, extension)
font:save(out)
print("saved " .. out)
