-- Class 2: a pattern without specials is searched like a plain find.
-- expect: runtime memory instructions deadline finished
local hay = ("ab"):rep(1 << 20)
local needle = ("ab"):rep(1 << 19) .. "c"
return string.find(hay, needle), string.match(hay, needle), hay:gsub(needle, "")
