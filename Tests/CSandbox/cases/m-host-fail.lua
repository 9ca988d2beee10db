-- Errors raised by the trampoline, caught and not caught.
-- expect: runtime
print(pcall(host.fail, "x"))
print(pcall(host.call, 42))
host.call(host.fail)
