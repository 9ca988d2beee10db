-- Class 1: luaV_finishset use-after-free: a __newindex table held only by a
-- weak-valued metatable is collected by the emergency GC that the memory
-- cap triggers while the assignment grows it (integer keys: array part).
-- expect: memory runtime instructions deadline
local hog = {}
pcall(function() while true do hog[#hog + 1] = ("x"):rep(1 << 20) .. #hog end end)
hog[#hog] = nil
pcall(function() while true do hog[#hog + 1] = ("x"):rep(1 << 12) .. #hog end end)
for k = 1, 8 do hog[#hog] = nil end
local mt = setmetatable({}, { __mode = "v" })
mt.__newindex = {}
local t = setmetatable({}, mt)
for i = 1, 1e7 do t[i] = {} end
