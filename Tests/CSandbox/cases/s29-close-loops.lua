-- S29: a <close> variable whose __close loops forever.
-- expect: instructions deadline
do
  local x <close> = setmetatable({}, { __close = function() while true do end end })
end
