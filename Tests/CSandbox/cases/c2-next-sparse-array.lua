-- next() on a table whose array part is 500k nils: each call scans it.
-- expect: instructions deadline memory runtime
local t = {}
for i = 1, 500000 do t[i] = i end
for i = 1, 499999 do t[i] = nil end
while true do next(t) end
