-- Class 1: errors raised by __close handlers while a step is being unwound.
-- expect: runtime instructions deadline memory
return flow { id = "x", version = 1, run = function(s)
  local a <close> = setmetatable({}, { __close = function() error("close a") end })
  local b <close> = setmetatable({}, { __close = function() local function f() return 1 + f() end f() end })
  local c <close> = setmetatable({}, { __close = function(_, e) error(e) end })
  error("first")
end }
