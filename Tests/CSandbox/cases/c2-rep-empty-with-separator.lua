-- Class 2: empty string and empty separator, 2^53 times, via the method form.
-- expect: runtime memory instructions deadline finished
local s = ""
return s:rep(2^53, "")
