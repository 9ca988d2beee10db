-- S12: while true do end stops with a budget error.
-- expect: instructions deadline
while true do end
