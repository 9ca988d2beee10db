-- S23: filling a table forever.
-- expect: memory
local t = {}
local i = 0
while true do i = i + 1 t[i] = { i } end
