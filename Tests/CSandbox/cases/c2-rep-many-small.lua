-- Class 2: many maximal reps between two hook checks.
-- expect: runtime memory instructions deadline
local n = 1 << 22
while true do local a = ("x"):rep(n) local b = ("y"):rep(n) end
