-- S19: deep recursion is an error, not a crash.
-- expect: runtime memory instructions deadline
local function f(n) return 1 + f(n + 1) end
return f(1)
