-- Class 1: a stack overflow inside an error handler with memory almost
-- exhausted, so that even the "error in error handling" text cannot be made.
-- expect: runtime memory instructions deadline finished
return flow { id = "x", version = 1, run = function(s)
  local hog = {}
  pcall(function() while true do hog[#hog + 1] = ("y"):rep(4096) .. #hog end end)
  hog[#hog] = nil
  local function rec() return xpcall(rec, rec) end
  rec()
  local function f() return 1 + f() end
  f()
end }
