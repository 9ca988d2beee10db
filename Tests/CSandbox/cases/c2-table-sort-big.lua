-- Class 2: sorting a large real table (C comparisons only).
-- expect: runtime memory instructions deadline finished
local t = {}
for i = 1, 300000 do t[i] = (i * 7919) % 300007 end
for k = 1, 100 do table.sort(t) table.sort(t, nil) end
