-- S33: _ENV, cycles, deep nesting and hostile metatables crossing to the host.
-- expect: finished
local cyc = {} cyc.self = cyc
local deep = {} for i = 1, 10000 do deep = { deep } end
local evil = setmetatable({}, { __index = function() error("x") end, __pairs = function() while true do end end, __len = function() while true do end end })
for _, v in ipairs { _ENV, cyc, deep, evil, string, coroutine.create(print) } do
  print(pcall(host.echo, v))
end
return flow { id = "x", version = 1, run = function(s)
  print(pcall(host.yield, cyc))
  print(pcall(s.ask, s, { id = "a", text = "t", evil = evil, cyc = cyc }))
end }
