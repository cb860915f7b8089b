return {
  id = "unique-glyph-names",
  title = "Glyph names are unique",
  rationale = [[Tools address glyphs by name (feature files, TTX, PDF); two glyphs with the
same name make one of them unreachable and round trips lossy.]],
  severity = "fail",
  fontbakery = "unique_glyphnames",
  applies = function(face) return face.post.version == 2 or util.has(face, "CFF ") end,
  check = function(face, report)
    local rawPost = face:rawTable("post")
    local seen, dup = {}, {}
    -- Names as stored (the API makes duplicates unique, as fontTools does, with #1 suffixes).
    if face.post.version == 2 and rawPost then
      local n = string.unpack(">I2", rawPost, 33)
      local indices, pos = {}, 35
      for i = 1, n do indices[i], pos = string.unpack(">I2", rawPost, pos) end
      local names = {}
      while pos <= #rawPost do
        local len = rawPost:byte(pos)
        names[#names + 1] = rawPost:sub(pos + 1, pos + len)
        pos = pos + 1 + len
      end
      for i, index in ipairs(indices) do
        if index >= 258 then
          local name = names[index - 258 + 1]
          if name then
            if seen[name] then dup[#dup + 1] = string.format("%q (glyphs %d and %d)", name, seen[name], i - 1)
            else seen[name] = i - 1 end
          end
        end
      end
    else
      for _, n in ipairs(face.glyphs:names()) do
        if n:find("#%d+$") then dup[#dup + 1] = n end
      end
    end
    if #dup > 0 then report.fail("duplicate names: " .. util.list(dup)) end
  end,
}
