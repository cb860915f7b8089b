return {
  id = "fstype",
  title = "fsType permits installing and embedding",
  rationale = [[fsType restricts embedding: 'restricted license' (bit 1) forbids embedding in
documents and PDF, and bits 8–9 forbid subsetting or allow bitmaps only. Fonts meant for
distribution and the web are usually installable (0).]],
  severity = "warn",
  applies = function(face) return util.os2(face) ~= nil end,
  check = function(face, report)
    local t = face["OS/2"].fsType
    if t & 2 ~= 0 then report.warn("fsType has 'restricted license embedding' (bit 1): PDF and document embedding is forbidden")
    elseif t ~= 0 then report.warn(string.format("fsType is 0x%04X, not 0 (installable)", t)) end
  end,
}
