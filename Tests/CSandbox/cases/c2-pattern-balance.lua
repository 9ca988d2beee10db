-- Class 2: %b over a long unbalanced subject at every position.
-- expect: runtime memory instructions deadline finished
local hay = ("("):rep(60000)
return hay:find("%b()"), hay:gsub("%b()", "")
