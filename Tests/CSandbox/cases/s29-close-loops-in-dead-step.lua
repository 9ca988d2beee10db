-- S29 in a step that errors: the pending __close runs when the coroutine is reset.
-- expect: runtime instructions deadline
return flow { id = "x", version = 1, run = function(s)
  local x <close> = setmetatable({}, { __close = function() while true do end end })
  error("boom")
end }
