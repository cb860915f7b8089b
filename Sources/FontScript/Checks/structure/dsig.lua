return {
  id = "dsig",
  title = "No DSIG table",
  rationale = [[Digital signatures are no longer checked by any system; since Windows 10 and
Office stopped needing a dummy DSIG, it only adds bytes and is invalidated by every edit.]],
  severity = "warn",
  fontbakery = "opentype/dsig",
  check = function(face, report)
    if util.has(face, "DSIG") then report.warn("the font has a DSIG table") end
  end,
  fix = function(face)
    face:removeTable("DSIG")
    return "DSIG removed"
  end,
}
