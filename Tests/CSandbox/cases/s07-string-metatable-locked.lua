-- S07/S08/S09: the string metatable is locked; library copies are per chunk;
-- setmetatable/rawset on _ENV are blocked.
-- expect: finished
assert(getmetatable("") == false)
string.format = function() return "evil" end
assert(("%d"):format(1) == "1")
assert(not pcall(setmetatable, _ENV, {}))
assert(not pcall(rawset, _ENV, "x", 1))
assert(not pcall(function() return undeclared_global end))
