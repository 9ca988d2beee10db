-- Class 1, in a coroutine (small stack at first) and with yields around it.
-- expect: finished runtime memory
local function grow(n) local a, b, c, d, e, f, g, h = 1, 2, 3, 4, 5, 6, 7, 8 if n > 0 then return grow(n - 1) + a end return 0 end
local x = setmetatable({}, { __concat = function(a, b) grow(400) return (type(a) == "table" and "T" or a) .. "+" end })
return flow { id = "x", version = 1, run = function(s)
  for i = 1, 30 do
    local r = x .. "a" .. x .. "b" .. x .. "c" .. x .. "d" .. x .. "e" .. x .. "f" .. x .. "g" .. x
    if i % 10 == 0 then s:ask { id = "q" .. i, text = r } end
  end
end }
