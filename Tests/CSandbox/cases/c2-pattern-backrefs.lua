-- Class 2: back-references repeated against a long capture.
-- expect: runtime memory instructions deadline finished
local hay = ("a"):rep(60000)
local pat = "(" .. ("a"):rep(20000) .. ")" .. ("%1"):rep(200) .. "b"
return hay:find(pat)
