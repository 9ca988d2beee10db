-- Class 5: tostring and %p must not show heap addresses.
-- expect: finished
-- deterministic
print(tostring({}), tostring(print), tostring(coroutine.create(print)))
print(string.format("%p %p", {}, "x"))
