local registered = {}
for tag in ([[aalt abvf abvm abvs afrc akhn apkn blwf blwm blws calt case ccmp cfar chws cjct
clig cpct cpsp cswh curs c2pc c2sc dist dlig dnom dtls expt falt fin2 fin3 fina flac frac fwid
half haln halt hist hkna hlig hngl hojo hwid init isol ital jalt jp78 jp83 jp90 jp04 kern lfbd
liga ljmo lnum locl ltra ltrm mark med2 medi mgrk mkmk mset nalt nlck nukt numr onum opbd ordn
ornm palt pcap pkna pnum pref pres pstf psts pwid qwid rand rclt rkrf rlig rphf rtbd rtla rtlm
ruby rvrn salt sinf size smcp smpl ssty stch subs sups swsh titl tjmo tnam tnum trad twid unic
valt vapk vatu vchw vert vhal vjmo vkna vkrn vpal vrt2 vrtr zero]]):gmatch("%S+") do registered[tag] = true end
return {
  id = "feature-tags",
  title = "Layout feature tags are registered",
  rationale = [[Applications turn features on by their registered tags; a misspelt or private
tag ('Liga', 'kern ') is never applied by any shaper unless asked for by name.]],
  severity = "warn",
  fontbakery = "opentype/layout_valid_feature_tags",
  check = function(face, report)
    local bad, seen = {}, {}
    for _, f in ipairs(face:features()) do
      local tag = f.feature
      local ok = registered[tag] or tag:match("^ss%d%d$") or tag:match("^cv%d%d$") or tag == " RQD"
      if not ok and not seen[tag] then seen[tag] = true; bad[#bad + 1] = string.format("%q", tag) end
    end
    if #bad > 0 then report.warn("unregistered feature tags: " .. util.list(bad)) end
  end,
}
