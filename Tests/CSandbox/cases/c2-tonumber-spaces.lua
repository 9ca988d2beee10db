-- tonumber over 4 MiB of spaces.
-- expect: instructions deadline memory runtime
local s = (" "):rep(4 << 20) .. "x"
while true do tonumber(s) end
