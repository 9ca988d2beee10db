-- A 2000-deep __index chain of tables, read in a loop (each read walks it in C).
-- expect: instructions deadline memory runtime
local t = {}
for i = 1, 2000 do t = setmetatable({}, { __index = t }) end
while true do local v = t.x end
