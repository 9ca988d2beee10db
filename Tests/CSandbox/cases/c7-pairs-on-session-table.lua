-- Class 7: pairs on the read-only session table (and the host table) must
-- not hand out the writable table behind the proxy.
-- expect: finished
local function writable_through_pairs(t, key)
  local _, inner = pairs(t)
  if type(inner) ~= "table" or rawequal(inner, t) then return false end
  return pcall(function() inner[key] = "forged" end) and rawget(inner, key) == "forged"
end
assert(not writable_through_pairs(host, "echo"), "host table writable through pairs")
return flow { id = "x", version = 1, run = function(s)
  assert(not writable_through_pairs(s, "ask"), "session table writable through pairs")
end }
