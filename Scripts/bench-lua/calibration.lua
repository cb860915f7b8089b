-- How fast plain Lua and C calls are on this machine, to read the other figures against
-- (LUA-BRIDGE.md measured a Lua call at ~12 ns and a C call at ~11 ns on its machine).
local N = 5000000
local function time(label, f)
  local t = os.clock(); f(); local dt = os.clock() - t
  print(("%-34s %5.1f ns/op"):format(label, dt / N * 1e9))
end
local function id(x) return x end
local abs = math.abs
local t = setmetatable({}, {__index = function(_, k) return 1 end})
local ud = io.stdout
time("empty loop", function() local s = 0 for i = 1, N do s = s + i end end)
time("Lua function call", function() local s = 0 for i = 1, N do s = s + id(i) end end)
time("C function call (math.abs)", function() local s = 0 for i = 1, N do s = s + abs(i) end end)
time("__index Lua function", function() local s = 0 for i = 1, N do s = s + t.x end end)
time("C method on userdata (io.stdout:seek)", function() for i = 1, N do local x = ud.seek end end)
