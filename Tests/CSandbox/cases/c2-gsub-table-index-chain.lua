-- gsub with a replacement table whose __index is a 1900-deep chain of
-- tables: each match walks the chain in C.
-- expect: instructions deadline memory runtime finished
local t = {}
for i = 1, 1900 do t = setmetatable({}, { __index = t }) end
local s = ("a"):rep(1 << 16)
for i = 1, 10 do s:gsub(".", t) end
