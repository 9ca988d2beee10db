-- Class 1: a chain of coroutines, each closing the previous in its __close,
-- closed from the host's reset of a failed step.
-- expect: runtime memory instructions deadline
return flow { id = "x", version = 1, run = function(s)
  local prev
  for i = 1, 30000 do
    local p = prev
    local co = coroutine.create(function()
      local c <close> = setmetatable({}, { __close = function() if p then coroutine.close(p) end end })
      coroutine.yield()
    end)
    coroutine.resume(co)
    prev = co
  end
  local last <close> = setmetatable({}, { __close = function() coroutine.close(prev) end })
  error("reset me")
end }
