local loadRunner, sources = ...
local function fill(t)
  setmetatable(t, nil)
  loadRunner()(sources, t)
end
_G.check = setmetatable({}, {
  __index = function(t, k) fill(t); return t[k] end,
  __call = function(t, ...) fill(t); return t(...) end,
  __pairs = function(t) fill(t); return next, t, nil end,
})
