-- Class 7: a raw coroutine.yield from a step (no prompt) after a failed ask.
-- expect: runtime steps finished
return flow { id = "x", version = 1, run = function(s)
  print(pcall(s.ask, s, { id = 1 }))
  coroutine.yield("raw")
end }
