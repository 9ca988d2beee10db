-- Class 3: a crossing at the node limit.
-- expect: value runtime finished
local t = {}
for i = 1, 200000 do t[i] = i end
host.echo(t)
