-- pairs sorts the keys (determinism): 500 keys of 16 KiB sharing a 16 KiB
-- prefix make every comparison a long memcmp; pairs called in a loop.
-- expect: instructions deadline memory runtime
local prefix = ("p"):rep(16384)
local t = {}
for i = 1, 500 do t[prefix .. i] = i end
while true do for k in pairs(t) do break end end
