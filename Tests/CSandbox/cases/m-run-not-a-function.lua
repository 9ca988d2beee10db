-- A flow declaration whose run is a table with __call.
-- expect: finished
return flow { id = "x", version = 1, run = setmetatable({}, { __call = function() end }) }
