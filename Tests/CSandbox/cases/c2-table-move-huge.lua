-- Class 2: table.move over a huge range of nils.
-- expect: runtime memory instructions deadline
return table.move({}, 1, 1e12, 2)
