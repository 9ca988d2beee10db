-- Every metamethod at once, on values crossing to the host.
-- expect: runtime instructions deadline finished
local mt = {}
for _, e in ipairs { "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv", "__band", "__bor",
  "__bxor", "__shl", "__shr", "__bnot", "__concat", "__len", "__eq", "__lt", "__le", "__index", "__newindex",
  "__call", "__close", "__tostring", "__name", "__pairs" } do
  mt[e] = function(a, b) return a end
end
local v = setmetatable({}, mt)
local r = { v + 1, v .. "x", #v, v < v, v(1), tostring(v), -v, ~v, v // 2 }
host.echo(v, r)
print(v, r[6])
