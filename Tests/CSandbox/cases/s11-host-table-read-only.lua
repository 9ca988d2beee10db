-- S11: the host API table is read-only, also through rawset and setmetatable.
-- expect: finished
assert(not pcall(function() host.echo = print end))
assert(not pcall(rawset, host, "echo", print))
assert(not pcall(setmetatable, host, {}))
assert(getmetatable(host) == false)
return flow { id = "x", version = 1, run = function(s)
  assert(not pcall(function() s.ask = print end))
  assert(not pcall(rawset, s, "ask", print))
end }
