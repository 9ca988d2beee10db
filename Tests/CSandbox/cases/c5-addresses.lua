-- Class 5: tostring must not show heap addresses (the same ids in every
-- state), and %p is refused, the same way in every state.
-- expect: runtime
-- deterministic
print(tostring({}), tostring(print), tostring(coroutine.create(print)))
print(string.format("%p %p", {}, "x"))
