-- Class 5: the table from s:now() iterates the same way on every replay.
-- expect: finished
-- deterministic
return flow { id = "x", version = 1, run = function(s)
  local keys = {}
  for k in pairs(s:now()) do keys[#keys + 1] = k end
  print(table.concat(keys, ","))
end }
