-- Class 3: the same, as a prompt's arguments (the engine reads them in Swift).
-- expect: value runtime memory finished steps
local s = ("x"):rep(1 << 20)
local opts = {}
for i = 1, 200 do opts[i] = { id = "o" .. i, text = s } end
return flow { id = "x", version = 1, run = function(s2)
  s2:choose { id = "c", text = s, options = opts }
end }
