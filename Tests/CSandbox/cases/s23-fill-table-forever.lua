-- S23: filling a table forever.
-- expect: memory instructions deadline
-- (allocation is charged to the budget: under the sanitizers or a loaded
-- machine the budget may trip before the memory cap)
local t = {}
local i = 0
while true do i = i + 1 t[i] = { i } end
