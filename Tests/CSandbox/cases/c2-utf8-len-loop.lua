-- utf8.len / utf8.offset over 4 MiB.
-- expect: instructions deadline memory runtime
local s = ("é"):rep(2 << 20)
while true do utf8.len(s) utf8.offset(s, -1) end
