-- Class 1: "error in error handling" in a step, outside any pcall in the
-- coroutine: a message handler that fails again and again.
-- expect: runtime memory instructions deadline finished
return flow { id = "x", version = 1, run = function(s)
  local function h(m) error(m) end
  print(xpcall(error, h, "x"))
  local function rec() return xpcall(rec, h) end
  print(rec())
  error(setmetatable({}, { __index = function() error("again") end }))
end }
