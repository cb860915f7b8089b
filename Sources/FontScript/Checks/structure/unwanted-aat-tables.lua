local aat = {"EBSC", "Zaph", "acnt", "ankr", "bdat", "bhed", "bloc", "bmap", "bsln", "fdsc", "feat",
  "fond", "gcid", "just", "kerx", "lcar", "ltag", "mort", "morx", "opbd", "prop", "trak", "xref"}
return {
  id = "unwanted-aat-tables",
  title = "No Apple Advanced Typography tables in an OpenType font",
  rationale = [[CoreText prefers AAT tables (morx, kerx ...) to GSUB/GPOS when both are present:
a font with leftover AAT tables shapes differently on Apple platforms from everywhere else.]],
  severity = "warn",
  fontbakery = "opentype/unwanted_aat_tables",
  check = function(face, report)
    local found = {}
    for _, tag in ipairs(aat) do if util.has(face, tag) then found[#found + 1] = tag end end
    if #found > 0 and (util.has(face, "GSUB") or util.has(face, "GPOS")) then
      report.warn("AAT tables beside GSUB/GPOS: " .. table.concat(found, ", "))
    end
  end,
}
