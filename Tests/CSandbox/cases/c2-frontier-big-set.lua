-- A frontier %f[set] with a 30000-class set, tested at every position of a
-- 4 MiB subject where it never matches (no quantifier: no subject limit).
-- expect: instructions deadline memory runtime finished
local set = "%f[" .. ("%a"):rep(30000) .. "]"
local s = ("1"):rep(4 << 20)
return s:find(set)
