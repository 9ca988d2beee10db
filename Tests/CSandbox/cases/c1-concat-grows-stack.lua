-- Class 1: luaV_concat keeps a stale stack top when __concat grows the stack.
-- expect: finished runtime memory
local function deep(n) if n > 0 then return deep(n - 1) end return ("z"):rep(10) end
local mt = { __concat = function(a, b)
  local big = { table.unpack({}, 1, 5000) }
  deep(150)
  return "c"
end }
local x = setmetatable({}, mt)
for i = 1, 50 do
  local s = "a" .. "b" .. x .. "d" .. "e" .. x .. "f" .. 1 .. 2 .. x .. "g" .. "h" .. x
end
