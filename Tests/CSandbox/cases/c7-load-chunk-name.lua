-- Class 7: load with a chunk name must not let a flow blame another file.
-- expect: runtime
-- not-message: flows/other.lua
local f = load("error('blame')", "=flows/other.lua")
f()
