-- S13/S14: pcall and xpcall cannot swallow the budget.
-- expect: instructions deadline
while true do
  pcall(function() while true do end end)
  xpcall(function() while true do end end, function(m) return m end)
end
