-- S27/S28: __gc finalizers are rejected.
-- expect: runtime
setmetatable({}, { __gc = function() while true do end end })
