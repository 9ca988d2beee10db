-- S21: a host function that calls back into Lua does not reset the budget.
-- expect: instructions deadline
while true do host.call(function(i) return i end, 1) end
