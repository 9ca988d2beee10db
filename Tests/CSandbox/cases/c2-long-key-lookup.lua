-- String keys hashed and compared: long keys looked up in a loop.
-- expect: instructions deadline memory runtime
local k1 = ("k"):rep(4 << 20)
local k2 = ("k"):rep((4 << 20) - 1) .. "j"
local t = { [k1] = 1 }
while true do local v = t[k2] end
