-- S01/S02: load of a binary chunk (ESC first) is refused; string.dump is gone.
-- expect: runtime
local ok = pcall(function() return string.dump(print) end)
assert(not ok, "string.dump must be gone")
local f, err = load("\27Lua\x54\x00garbage")
assert(f == nil and err, "a binary chunk must not load")
error("refused: " .. err)
