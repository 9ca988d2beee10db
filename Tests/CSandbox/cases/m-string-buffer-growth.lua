-- luaL_Buffer growth near the cap in string functions.
-- expect: memory runtime
local s = ("ab"):rep(1 << 20)
local t = {}
while true do t[#t + 1] = s:gsub("a", "%0%0") end
