-- A dead coroutine and a released handle stay typed errors (host side).
-- expect: runtime
return flow { id = "x", version = 1, run = function(s) s:ask { id = "a", text = "t" } error("after one step") end }
