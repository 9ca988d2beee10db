-- S26: table.unpack({}, 1, 1e8), select(1e8, ...), string.format('%99999999d', 1).
-- expect: finished
assert(not pcall(table.unpack, {}, 1, 1e8))
assert(not pcall(table.unpack, {}, math.mininteger, math.maxinteger))
assert(pcall(select, 1e8, 1) )
assert(not pcall(string.format, "%99999999d", 1))
assert(not pcall(string.format, "%.99999f", 1))
return flow { id = "x", version = 1, run = function(s) end }
