-- utf8 and byte functions over long strings.
-- expect: runtime memory instructions deadline finished
local s = utf8.char(0x10FFFF):rep(1 << 18)
for i = 1, 50 do local n = utf8.len(s) local c = #s:byte(1, 100) local o = utf8.offset(s, -1) end
return pcall(string.byte, s, 1, -1)
