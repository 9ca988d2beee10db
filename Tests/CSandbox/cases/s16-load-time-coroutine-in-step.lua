-- S16/S17: a coroutine created at load time, resumed forever in a step.
-- expect: instructions deadline
local co = coroutine.wrap(function() while true do coroutine.yield() end end)
return flow { id = "x", version = 1, run = function(s) while true do co() end end }
