-- luaL_Buffer growth near the cap in string functions.
-- expect: memory runtime instructions deadline
-- (allocation is charged to the budget: under the sanitizers the budget may
-- trip before the memory cap)
local s = ("ab"):rep(1 << 20)
local t = {}
while true do t[#t + 1] = s:gsub("a", "%0%0") end
