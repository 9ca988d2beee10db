-- S22: string.rep('x', 2^31) and table.concat of a huge table.
-- expect: memory instructions deadline
print(pcall(string.rep, "x", 2^31))
local t = {}
for i = 1, 1e6 do t[i] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" .. i end
return table.concat(t)
