-- S31: a huge error message is truncated.
-- expect: runtime
error(("x"):rep(1e6))
