-- S18: an infinite tail call.
-- expect: instructions deadline
local function f(n) return f(n + 1) end
return f(1)
