-- Class 5: collectgarbage("count") must not differ between states.
-- expect: finished
-- deterministic
local t = {}
for i = 1, 1000 do t["s" .. i] = { i } end
print(collectgarbage("count"))
