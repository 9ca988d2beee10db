-- Class 1: nested coroutine.close (unbounded C recursion in 5.4.4).
-- expect: runtime memory instructions deadline finished
local coro = false
for i = 1, 20000 do
  local previous = coro
  coro = coroutine.create(function()
    local cc <close> = setmetatable({}, { __close = function()
      if previous then assert(coroutine.close(previous)) end
    end })
    coroutine.yield()
  end)
  assert(coroutine.resume(coro))
end
print(coroutine.close(coro))
