local path, faces, seconds, result, printed, err, traceback, reservedFields = ...
local reserved = {}
for _, k in ipairs(reservedFields) do reserved[k] = true end
local record, moved = {}, nil
if type(result) == "table" and not getmetatable(result) then
  for k, v in pairs(result) do
    if reserved[k] then moved = moved or {}; moved[k] = v else record[k] = v end
  end
elseif result ~= nil then
  record.result = result
end
record.script = moved
if moved then
  local names = {}
  for k in pairs(moved) do names[#names + 1] = tostring(k) end
  table.sort(names)
  record.warning = "the script returned " .. table.concat(names, ", ") .. ", which the line uses itself; kept under 'script' (rename them)"
end
record.path, record.faces, record.seconds = path, faces, seconds
record.ok = err == nil
record.error, record.traceback = err, traceback
if printed and #printed > 0 then record.printed = printed end
local ok, text = pcall(fontshell.json, record)
if ok then return text, not record.ok end
return fontshell.json{path = path, faces = faces, seconds = seconds, ok = false,
                      error = "the script's result cannot be written as JSON: " .. tostring(text)}, true
