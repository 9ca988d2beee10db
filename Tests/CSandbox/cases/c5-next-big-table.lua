-- next() orders the whole table on every call: a 300k-element table walked
-- with next, one key per call.
-- expect: instructions deadline memory runtime
local t = {}
for i = 1, 300000 do t[i] = i end
for k in next, t do end
