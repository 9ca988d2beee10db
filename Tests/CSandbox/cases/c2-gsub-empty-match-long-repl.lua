-- gsub with an empty pattern (a match at every position, no quantifier, so no
-- subject limit) and a 2 MiB replacement of "%0": each match parses the whole
-- replacement and appends nothing.
-- expect: instructions deadline memory runtime
local s = ("a"):rep(1 << 16)
local r = ("%0"):rep(1 << 20)
return s:gsub("", r)
