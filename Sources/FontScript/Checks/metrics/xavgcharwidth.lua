local function average(face)
  local sum, n = 0, 0
  for _, a in ipairs(util.advances(face)) do
    if a > 0 then sum, n = sum + a, n + 1 end
  end
  return n > 0 and math.floor(sum / n + 0.5) or 0
end
return {
  id = "xavgcharwidth",
  title = "OS/2.xAvgCharWidth is the average advance",
  rationale = [[Windows uses xAvgCharWidth to size text fields and dialogs; since OS/2 version 3
it is the average of every non-zero advance. A wrong value makes UI text too wide or cut.]],
  severity = "warn",
  fontbakery = "opentype/xavgcharwidth",
  applies = function(face) local os2 = util.os2(face); return os2 and os2.version >= 3 end,
  check = function(face, report)
    local expected, actual = average(face), face["OS/2"].xAvgCharWidth
    if math.abs(expected - actual) > 10 then
      report.warn(string.format("xAvgCharWidth is %d; the average advance is %d", actual, expected))
    end
  end,
  fix = function(face)
    face["OS/2"].xAvgCharWidth = average(face)
    return "xAvgCharWidth " .. face["OS/2"].xAvgCharWidth
  end,
}
