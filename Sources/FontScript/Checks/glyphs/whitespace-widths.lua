return {
  id = "whitespace-widths",
  title = "No-break space is as wide as space",
  rationale = [[Text swaps space and no-break space freely (editors, HTML &nbsp;, justification);
different widths make words shift when one becomes the other.]],
  severity = "fail",
  fontbakery = "whitespace_widths",
  applies = function(face) return face.cmap and face.cmap[0x20] and face.cmap[0xA0] end,
  check = function(face, report)
    local space, nbsp = face:glyphFor(0x20), face:glyphFor(0xA0)
    if space.advance <= 0 then report.fail("space has advance " .. space.advance) end
    if space.advance ~= nbsp.advance then
      report.fail(string.format("space is %d units wide, no-break space %d", space.advance, nbsp.advance))
    end
  end,
  fix = function(face)
    local space, nbsp = face:glyphFor(0x20), face:glyphFor(0xA0)
    nbsp.advance = space.advance
    return "no-break space advance " .. space.advance
  end,
}
