-- Class 1, another shape: string keys, weak keys and values, memory filled
-- first (big blocks, quickly) so that a rehash of the __newindex table
-- needs the emergency GC.
-- expect: memory runtime instructions deadline
local hog = {}
pcall(function() while true do hog[#hog + 1] = ("y"):rep(1 << 20) .. #hog end end)
hog[#hog] = nil
pcall(function() while true do hog[#hog + 1] = ("y"):rep(1 << 12) .. #hog end end)
for k = 1, 8 do hog[#hog] = nil end
local mt = setmetatable({}, { __mode = "kv" })
mt.__newindex = setmetatable({}, { __mode = "v" })
local t = setmetatable({}, mt)
for i = 1, 1e7 do t["key" .. i] = {} end
