-- gsub whose replacement doubles the text each round.
-- expect: memory runtime instructions deadline
local s = "x"
for i = 1, 64 do s = s:gsub(".", "%0%0") end
