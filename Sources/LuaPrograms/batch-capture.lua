local printed = {}
print = function(...)
  local n, parts = select("#", ...), {}
  for i = 1, n do parts[i] = tostring((select(i, ...))) end
  if #printed < 10000 then printed[#printed + 1] = table.concat(parts, "\t") end
end
return printed
