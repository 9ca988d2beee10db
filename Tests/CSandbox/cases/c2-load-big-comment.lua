-- load() of a 4 MiB comment, many per hook interval (the lexer runs in C).
-- expect: instructions deadline memory runtime
local src = "--[[" .. ("x"):rep(4 << 20) .. "]]"
while true do load(src) end
