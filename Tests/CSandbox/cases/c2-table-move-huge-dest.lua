-- Class 2: table.move into another table far away, negative start.
-- expect: runtime memory instructions deadline
local t = {}
table.move({}, -1e12, 0, 1, t)
return t
