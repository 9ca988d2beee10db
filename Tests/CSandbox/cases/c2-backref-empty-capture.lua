-- Many back-references to an empty capture, at every position.
-- expect: instructions deadline memory runtime finished
local s = ("a"):rep(4 << 20)
return s:find("()" .. ("%1"):rep(100000) .. "b")
