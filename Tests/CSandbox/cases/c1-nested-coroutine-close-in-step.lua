-- Class 1: nested coroutine.close from a flow step, closing through pcall.
-- expect: runtime memory instructions deadline finished
return flow { id = "x", version = 1, run = function(s)
  local coro = false
  for i = 1, 20000 do
    local previous = coro
    coro = coroutine.wrap(function()
      local cc <close> = setmetatable({}, { __close = function()
        if previous then pcall(coroutine.close, previous) end
      end })
      coroutine.yield()
    end)
    coro()
    coro = coroutine.running() and coro
  end
end }
