-- string.format / string.pack with large widths and counts.
-- expect: runtime memory finished
print(pcall(string.pack, "i16", 1))
print(pcall(string.pack, "s1", ("x"):rep(300)))
print(pcall(string.rep, string.pack("j", 1), 1 << 20))
print(pcall(string.format, "%5000s", "x"))
print(pcall(string.format, ("%s"):rep(200), table.unpack({}, 1, 200)))
print(pcall(string.unpack, ("i8"):rep(1000), ""))
