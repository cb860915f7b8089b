return {
  id = "extreme-kerns",
  title = "No kerning value is larger than half an em",
  rationale = [[Kerning adjusts spacing by a fraction of an em; a value over half an em is almost
always a typo (a sign or digit slip in a kerning editor) and makes the pair collide or gape.]],
  severity = "warn",
  check = function(face, report)
    local limit = face.unitsPerEm / 2
    local bad = {}
    for _, p in ipairs(face:kerningPairs():beyond(limit)) do bad[#bad + 1] = string.format("%s %s %d", p[1], p[2], p[3]) end
    if #bad > 0 then report.warn("kerning beyond ±" .. limit .. " units: " .. util.list(bad)) end
  end,
}
