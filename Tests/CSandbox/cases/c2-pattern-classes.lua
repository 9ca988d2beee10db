-- Class 2: a long pattern of character classes, no quantifier.
-- expect: runtime memory instructions deadline finished
local hay = ("a"):rep(60000)
local pat = ("%a"):rep(30000) .. "%d"
return hay:find(pat)
