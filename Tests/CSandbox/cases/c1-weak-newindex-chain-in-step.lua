-- Class 1, in a step: a chain of __newindex tables, each held only by a
-- weak-valued metatable, assigned to once memory is nearly full.
-- expect: memory runtime instructions deadline
return flow { id = "x", version = 1, run = function(s)
  local t = {}
  local cur = t
  for d = 1, 4 do
    local mt = setmetatable({}, { __mode = "k" .. "v" })
    mt.__newindex = {}
    setmetatable(cur, mt)
    cur = mt.__newindex
  end
  local hog = {}
  pcall(function() while true do hog[#hog + 1] = ("z"):rep(1 << 20) .. #hog end end)
  hog[#hog] = nil
  pcall(function() while true do hog[#hog + 1] = ("z"):rep(1 << 12) .. #hog end end)
  for k = 1, 8 do hog[#hog] = nil end
  for i = 1, 1e7 do t[i * 3] = {} end
end }
