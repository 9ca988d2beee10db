-- S19 in a coroutine step, through pcall at every level.
-- expect: runtime memory instructions deadline finished
local function f(n) local ok, e = pcall(f, n + 1) return ok, e end
return flow { id = "x", version = 1, run = function(s) f(1) error("no error?") end }
