-- %b() at every position of a long subject of open parentheses.
-- expect: instructions deadline memory runtime finished
local s = ("("):rep(4 << 20)
return s:find("%b()")
