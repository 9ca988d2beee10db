-- S25: a million coroutines or closures.
-- expect: memory
local t = {}
for i = 1, 1e6 do t[i] = coroutine.create(function() end) end
