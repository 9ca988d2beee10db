-- Class 2 in a step: __len through a proxy with __index / __newindex tables.
-- expect: runtime memory instructions deadline
local store = {}
local t = setmetatable({}, { __len = function() return 1e11 end, __index = store, __newindex = store })
return flow { id = "x", version = 1, run = function(s) table.insert(t, 2, 1) end }
