-- Class 5: pairs over 100 string keys must see the same order in every state.
-- expect: finished
-- deterministic
local t = {}
for i = 1, 100 do t["key" .. i] = i end
local order = {}
for k in pairs(t) do order[#order + 1] = k end
print(table.concat(order, ","))
return flow { id = "x", version = 1, run = function(s)
  local again = {}
  for k in pairs(t) do again[#again + 1] = k end
  s:ask { id = "q", text = table.concat(again, ",") }
end }
