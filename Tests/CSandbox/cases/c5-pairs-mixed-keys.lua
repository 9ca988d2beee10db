-- Class 5: next() order of a table with mixed keys, rebuilt in a step.
-- expect: finished
-- deterministic
return flow { id = "x", version = 1, run = function(s)
  local t = { 1, 2, 3, alpha = 1, beta = 2, [3.5] = "f", [true] = "b" }
  for i = 1, 50 do t["k" .. (i * 37 % 101)] = i end
  local out = {}
  for k, v in next, t do out[#out + 1] = tostring(k) end
  print(table.concat(out, " "))
end }
