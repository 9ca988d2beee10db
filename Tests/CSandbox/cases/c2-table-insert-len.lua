-- Class 2: table.insert shifting by a __len from the flow.
-- expect: runtime memory instructions deadline
local t = setmetatable({}, { __len = function() return 1e12 end })
table.insert(t, 1, "x")
