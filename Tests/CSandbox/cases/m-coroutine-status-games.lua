-- coroutine library corner cases inside a step.
-- expect: runtime finished steps
return flow { id = "x", version = 1, run = function(s)
  local me = coroutine.running()
  print(coroutine.resume(me))
  print(pcall(coroutine.close, me))
  local co = coroutine.create(function() coroutine.yield(coroutine.running()) end)
  local _, inner = coroutine.resume(co)
  print(coroutine.close(co), coroutine.status(inner))
  local w = coroutine.wrap(function() error({}) end)
  print(pcall(w))
  print(coroutine.isyieldable(), select("#", coroutine.running()))
  s:ask { id = "a", text = "t" }
  coroutine.wrap(function() s:ask { id = "b", text = "t" } end)()
end }
