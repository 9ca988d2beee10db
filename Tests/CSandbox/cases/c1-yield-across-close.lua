-- Yielding from __close, and from a message handler, inside a step.
-- expect: runtime finished steps
return flow { id = "x", version = 1, run = function(s)
  do
    local a <close> = setmetatable({}, { __close = function() s:ask { id = "in-close", text = "t" } end })
  end
  print(xpcall(error, function(m) return s:ask { id = "in-handler", text = "t" } end, "x"))
end }
