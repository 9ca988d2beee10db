-- print of several values past the buffer's first 1 KB: the separator was
-- added with the next value on the stack, and the buffer took that value
-- for its box (use after free; garbage in the printed line).
-- expect: finished
print(("x"):rep(2000), "y", ("z"):rep(3000), 5)
print(("a"):rep(1020), "b", setmetatable({}, { __tostring = function() return ("t"):rep(1500) end }), "end")
return flow { id = "x", version = 1, run = function(s)
  print(("a"):rep(1500), "b", 1, 2, 3)
end }
