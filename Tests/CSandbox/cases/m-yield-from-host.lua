-- host.yield from the top level (not yieldable) and from a step.
-- expect: runtime finished steps
print(pcall(host.yield, 1))
return flow { id = "x", version = 1, run = function(s)
  host.yield({ 1, 2, { 3 } }, "x")
  host.call(function() host.yield(1) end)
end }
