-- S29: a <close> variable whose __close loops forever: __close is refused
-- at setmetatable (docs/sandbox.md, class 1).
-- expect: runtime
do
  local x <close> = setmetatable({}, { __close = function() while true do end end })
end
