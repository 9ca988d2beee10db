-- table.unpack with a huge range.
-- expect: runtime
return table.unpack(setmetatable({}, { __len = function() return 1e9 end }))
