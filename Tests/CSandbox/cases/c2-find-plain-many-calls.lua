-- Class 2: many plain finds per hook interval.
-- expect: runtime memory instructions deadline
local hay = ("a"):rep(1 << 20)
local needle = ("a"):rep(1 << 12) .. "b"
while true do hay:find(needle, 1, true) end
