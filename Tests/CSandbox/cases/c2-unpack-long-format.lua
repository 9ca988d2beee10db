-- string.unpack / packsize with a 4 MiB format of padding.
-- expect: instructions deadline memory runtime
local f = ("x"):rep(4 << 20)
local s = ("\0"):rep(4 << 20)
while true do string.unpack(f, s) string.packsize(f) end
