-- Class 2: big C work per instruction between hook checks.
-- expect: runtime memory instructions deadline
local s = ("x"):rep(4 << 20)
while true do local a = s:upper() local b = s:reverse() local c = s:lower() end
