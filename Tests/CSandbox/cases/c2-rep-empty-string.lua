-- Class 2: string.rep of an empty string with a huge count.
-- expect: runtime memory instructions deadline finished
return ("").rep("", math.maxinteger)
