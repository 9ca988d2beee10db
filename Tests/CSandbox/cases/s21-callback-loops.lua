-- S21: a callback that loops forever is stopped.
-- expect: instructions deadline runtime
host.call(function() while true do end end)
