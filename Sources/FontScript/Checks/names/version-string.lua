return {
  id = "version-string",
  title = "The version string (ID 5) matches head.fontRevision",
  rationale = [[Installers and font managers compare versions from name ID 5 ('Version 2.037')
and from head.fontRevision; when they disagree, an update can be refused or a stale copy kept.]],
  severity = "warn",
  fontbakery = "opentype/font_version",
  check = function(face, report)
    local text = face.name[5]
    if not text then return report.skip("no name ID 5") end
    local version = text:match("^Version%s+(%d+%.%d+)")
    if not version then return report.warn(string.format("ID 5 %q does not start with 'Version X.YYY'", text)) end
    local revision = face.head.fontRevision
    if math.abs(tonumber(version) - revision) > 0.001 + 1e-9 then
      report.warn(string.format("ID 5 says %s, head.fontRevision is %.3f", version, revision))
    end
  end,
}
