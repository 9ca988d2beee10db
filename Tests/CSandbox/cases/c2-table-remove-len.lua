-- Class 2: table.remove shifting by a __len from the flow.
-- expect: runtime memory instructions deadline
local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end })
table.remove(t, 1)
