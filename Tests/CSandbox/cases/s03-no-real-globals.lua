-- S03/S04/S05/S06: the real globals, os, io, debug, package are unreachable.
-- expect: finished
assert(load("return os") == nil or not pcall(load("return os")))
for _, name in ipairs { "os", "io", "debug", "package", "dofile", "loadfile", "_G", "warn" } do
  assert(not pcall(load("return " .. name)), name .. " must be unknown")
end
assert(not pcall(load, "return 1", "x", "bt"))
assert(not pcall(load, "return 1", "x", "t", {}))
assert(not pcall(require, "os"))
assert(not pcall(require, "../../etc/passwd"))
