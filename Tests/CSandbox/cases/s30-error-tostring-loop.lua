-- S30: an error object with a looping __tostring.
-- expect: runtime
-- message: <error: table>
error(setmetatable({}, { __tostring = function() while true do end end }))
