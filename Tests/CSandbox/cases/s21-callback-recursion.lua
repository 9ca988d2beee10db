-- Host calls nested through Lua: bounded by the C stack limit, an error.
-- expect: runtime memory instructions deadline
local function f(n) return host.call(f, n + 1) end
return f(1)
