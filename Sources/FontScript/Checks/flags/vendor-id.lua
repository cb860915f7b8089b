return {
  id = "vendor-id",
  title = "OS/2.achVendID names a vendor",
  rationale = [[The vendor ID links a font to its foundry in font managers and support
requests; blanks, 'NONE' and editor defaults ('PfEd', 'UKWN') say nothing.]],
  severity = "warn",
  fontbakery = "opentype/vendor_id",
  applies = function(face) return util.os2(face) ~= nil end,
  check = function(face, report)
    local v = face["OS/2"].achVendID
    local placeholders = {["    "] = true, ["NONE"] = true, ["none"] = true, ["PfEd"] = true, ["UKWN"] = true, ["\0\0\0\0"] = true}
    if placeholders[v] then report.warn(string.format("achVendID is %q, a placeholder", v)) end
  end,
}
