-- Class 5: collectgarbage("count") must not differ between states: it is
-- refused, the same way in every state.
-- expect: runtime
-- deterministic
local t = {}
for i = 1, 1000 do t["s" .. i] = { i } end
print(collectgarbage("count"))
