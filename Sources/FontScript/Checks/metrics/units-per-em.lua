return {
  id = "units-per-em",
  title = "unitsPerEm is valid and usual",
  rationale = [[The spec allows 16 to 16384 units per em. TrueType rasterizers work best with
powers of two, and most tools expect 1000 or 2048; unusual values make metrics round
differently from one app to another.]],
  severity = "fail",
  fontbakery = "opentype/unitsperem",
  check = function(face, report)
    local upm = face.head.unitsPerEm
    if upm < 16 or upm > 16384 then
      report.fail("unitsPerEm is " .. upm .. "; the spec allows 16 to 16384")
    else
      local usual = {[1000] = true, [2000] = true}
      for e = 4, 14 do usual[1 << e] = true end
      if not usual[upm] then report.warn("unitsPerEm is " .. upm .. "; 1000, 2000 or a power of two are usual") end
    end
  end,
}
