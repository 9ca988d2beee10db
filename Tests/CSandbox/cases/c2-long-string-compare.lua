-- < and == on two 4 MiB strings that differ in the last byte.
-- expect: instructions deadline memory runtime
local a = ("a"):rep(4 << 20)
local b = ("a"):rep((4 << 20) - 1) .. "b"
while true do local x = a < b local y = a == b end
