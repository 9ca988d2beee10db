-- Class 2: a character set with many ranges, tested at every position.
-- expect: runtime memory instructions deadline finished
local set = "[" .. ("%d%s%pA-Z"):rep(20000) .. "b]"
local hay = ("a"):rep(60000)
return hay:find(set:rep(3))
