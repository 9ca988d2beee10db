-- Found by fuzz-flow (mutated from c2-cheap-c-calls): 1 MiB string functions,
-- three per loop: about 1 GB of C work between two hook checks.
-- limits: memory=8388608 instructions=1000000 seconds=0.2
-- expect: instructions deadline memory
local s = ("x"):rep(1 << 20)
while true do local a = s:upper() local b = s:reverse() local c = s:lower() end
