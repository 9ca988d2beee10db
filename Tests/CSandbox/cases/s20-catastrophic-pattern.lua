-- S20: backtracking patterns over a long subject are refused or bounded.
-- expect: runtime instructions deadline
local s = ("a"):rep(200)
print(pcall(string.find, s, "a-a-a-a-b"))
print(pcall(string.gsub, s, "a-a-a-a-b", ""))
for _ in string.gmatch(s, "a-a-a-a-b") do end
return s:match(".-.-.-.-.-b")
