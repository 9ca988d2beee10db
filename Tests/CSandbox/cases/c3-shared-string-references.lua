-- Class 3: one 4 MB string referenced many times in a value crossing to the host.
-- expect: value runtime memory finished
local s = ("x"):rep(4 << 20)
local t = {}
for i = 1, 60 do t[i] = s end
host.echo(t)
