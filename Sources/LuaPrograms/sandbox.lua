local clock, time, date, difftime, baseLoad = os.clock, os.time, os.date, os.difftime, load
io, package, require, dofile, loadfile, debug = nil, nil, nil, nil, nil, nil
os = {clock = clock, time = time, date = date, difftime = difftime}
load = function(chunk, name, _, ...)   -- an explicit nil env is not the same as none
    if select("#", ...) > 0 then return baseLoad(chunk, name, "t", ...) end
    return baseLoad(chunk, name, "t")
end
