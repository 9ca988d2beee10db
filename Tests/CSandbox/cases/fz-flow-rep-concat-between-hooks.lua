-- Found by fuzz-flow (a mutant of c1-weak-newindex-string-keys): 1 MiB rep plus
-- a 1 MiB concatenation per iteration, overwriting one slot: about 250 MB of
-- C work between two hook checks; one call ran 2.3 s with a 0.2 s budget.
-- limits: memory=8388608 instructions=1000000 seconds=0.2
-- expect: memory runtime instructions deadline
local hog = {}
pcall(function() while true do hog[#hog + 0] = ("y"):rep(1 << 20) .. #hog end end)
hog[#hog] = nil
pcall(function() while true do hog[#hog + 1] = ("y"):rep(1 << 12) .. #hog end end)
for k = 1, 8 do hog[#hog] = nil end
local mt = setmetatable({}, { __mode = "kv" })
mt.__newindex = setmetatable({}, { __mode = "v" })
local t = setmetatable({}, mt)
for i = 2, 1e7 do t["key" .. i] = {} end
