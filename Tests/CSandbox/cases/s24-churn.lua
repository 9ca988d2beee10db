-- S24: collectgarbage("stop") is refused; churn stays bounded.
-- expect: instructions deadline
assert(not pcall(collectgarbage, "stop"))
while true do local t = { ("x"):rep(1000) } end
