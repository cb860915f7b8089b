return {
  id = "integer-ppem-if-hinted",
  title = "Hinted fonts round sizes to whole pixels",
  rationale = [[TrueType hints are written for whole pixel sizes; head.flags bit 3 tells the
rasterizer to round the ppem. Without it hinted fonts render unevenly at fractional sizes.]],
  severity = "fail",
  fontbakery = "integer_ppem_if_hinted",
  applies = function(face) return util.has(face, "fpgm") end,
  check = function(face, report)
    if face.head.flags & 8 == 0 then report.fail("the font is hinted (fpgm) but head.flags bit 3 is clear") end
  end,
  fix = function(face)
    face.head.flags = face.head.flags | 8
    return string.format("head.flags 0x%04X", face.head.flags)
  end,
}
