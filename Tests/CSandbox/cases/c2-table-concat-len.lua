-- Class 2: table.concat over a huge __len.
-- expect: runtime memory instructions deadline
local t = setmetatable({}, { __len = function() return 1e12 end, __index = function() return "" end })
return table.concat(t)
