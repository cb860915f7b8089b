-- In-process preview costs: a 48 px label of 12 characters rendered and PNG-encoded, and an
-- 8-cell ascender sweep sheet (rendered and encoded). Usage: fontshell run preview.lua FONT OUTDIR
local face = fontshell.open(arg[1]):face(0)
local out = arg[2]
local function perCall(n, body)
  body()  -- warm up: page in the font, load FreeType's modules
  local start = os.clock()
  for _ = 1, n do body() end
  return (os.clock() - start) / n * 1000
end
local label = perCall(200, function()
  preview.label(face, "Hello World!", {width = 360, height = 80, size = 48}):save(out .. "/label.png")
end)
local original = face.hhea.ascender
local values = {}
for v = original - 300, original + 400, 100 do values[#values + 1] = v end
local sweep = perCall(20, function()
  face:sweep{field = "hhea.ascender", values = values, text = "Hello World!",
             label = {width = 360, height = 80, size = 48, guides = true}}:save(out .. "/sheet.png")
end)
local text = perCall(200, function() preview.text(face, "Hello World!", {size = 48}):save(out .. "/text.png") end)
print(("label %.2f ms, 8-cell sweep sheet %.1f ms, text %.2f ms"):format(label, sweep, text))
