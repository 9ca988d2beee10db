-- Class 2: string.find plain with a long needle (O(n*m) memcmp).
-- expect: runtime memory instructions deadline finished
local hay = ("a"):rep(1 << 21)
local needle = ("a"):rep(1 << 20) .. "b"
return hay:find(needle, 1, true)
