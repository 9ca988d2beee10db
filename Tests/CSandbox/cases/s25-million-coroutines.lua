-- S25: a million coroutines or closures.
-- expect: memory instructions deadline
-- (allocation is charged to the budget: under the sanitizers or a loaded
-- machine the budget may trip before the memory cap)
local t = {}
for i = 1, 1e6 do t[i] = coroutine.create(function() end) end
