-- S15: a loop inside coroutine.wrap.
-- expect: instructions deadline
coroutine.wrap(function() while true do end end)()
