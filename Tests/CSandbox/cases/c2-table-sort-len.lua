-- Class 2: table.sort with a huge __len and numbers from an __index table.
-- expect: runtime memory instructions deadline
local src = setmetatable({}, { __index = function(_, i) return -i end })
local t = setmetatable({}, { __len = function() return 2^31 - 2 end, __index = src })
table.sort(t)
