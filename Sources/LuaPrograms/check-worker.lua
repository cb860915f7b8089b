local path, dirs, profile, only, fix, inPlace = ...
local record = {path = path}
local ok, font = pcall(fontshell.open, path)
if not ok then
  record.ok, record.error = false, tostring(font)
  return record, true
end
record.faces = #font
local report = check.run(font, {checks = dirs, profile = profile, only = only, fix = fix})
record.results = report.results
local failed = false
for _, r in ipairs(report.results) do
  local final = r.after or r.status
  if final == "fail" or final == "error" then failed = true end
end
if fix then
  if report.fixFailed then
    record.fixError = report.fixFailed .. "; nothing was written"
    failed = true
  elseif report.fixed > 0 then
    local target = inPlace and path or path:gsub("(%.[^./]+)$", ".fixed%1")
    if target == path and not inPlace then target = path .. ".fixed" end
    -- A derived name is never written through a link planted there (it could point anywhere).
    local saved, err = pcall(font.save, font, target, {overwrite = inPlace, followSymlinks = inPlace})
    if saved then record.saved = target
    else record.fixError = "the fixed font could not be saved: " .. tostring(err); failed = true end
  end
end
record.ok = not failed
return record, failed
