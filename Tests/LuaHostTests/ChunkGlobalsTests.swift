import Testing
@testable import LuaHost

/// What a chunk sees in its environment: every name, its type, every
/// library's functions, and the base functions working. The state's own
/// globals (where Lua's base library is opened to be copied from) are not
/// part of it: emptying them after set-up changes nothing here.
@Suite("What a chunk sees", .hangGuard)
struct ChunkGlobalsTests {
    /// `name type` for every global, and `lib.name type` for every library
    /// entry, sorted: what a flow could enumerate.
    static let listing = """
        local out = {}
        for k, v in pairs(_ENV) do
          out[#out + 1] = k .. ' ' .. type(v)
          if type(v) == 'table' then
            for k2, v2 in pairs(v) do out[#out + 1] = k .. '.' .. tostring(k2) .. ' ' .. type(v2) end
          end
        end
        table.sort(out)
        return table.concat(out, '\\n')
        """

    static let expected = """
        _VERSION string
        assert function
        collectgarbage function
        coroutine table
        coroutine.close function
        coroutine.create function
        coroutine.isyieldable function
        coroutine.resume function
        coroutine.running function
        coroutine.status function
        coroutine.wrap function
        coroutine.yield function
        error function
        getmetatable function
        ipairs function
        load function
        math table
        math.abs function
        math.acos function
        math.asin function
        math.atan function
        math.atan2 function
        math.ceil function
        math.cos function
        math.cosh function
        math.deg function
        math.exp function
        math.floor function
        math.fmod function
        math.frexp function
        math.huge number
        math.ldexp function
        math.log function
        math.log10 function
        math.max function
        math.maxinteger number
        math.min function
        math.mininteger number
        math.modf function
        math.pi number
        math.pow function
        math.rad function
        math.random function
        math.sin function
        math.sinh function
        math.sqrt function
        math.tan function
        math.tanh function
        math.tointeger function
        math.type function
        math.ult function
        next function
        pairs function
        pcall function
        print function
        rawequal function
        rawget function
        rawlen function
        rawset function
        require function
        select function
        setmetatable function
        string table
        string.byte function
        string.char function
        string.find function
        string.format function
        string.gmatch function
        string.gsub function
        string.len function
        string.lower function
        string.match function
        string.pack function
        string.packsize function
        string.rep function
        string.reverse function
        string.sub function
        string.unpack function
        string.upper function
        table table
        table.concat function
        table.insert function
        table.move function
        table.pack function
        table.remove function
        table.sort function
        table.unpack function
        tonumber function
        tostring function
        type function
        utf8 table
        utf8.char function
        utf8.charpattern string
        utf8.codepoint function
        utf8.codes function
        utf8.len function
        utf8.offset function
        xpcall function
        """

    @Test("a chunk, and text it loads, see exactly the allow-listed names, and nothing else")
    func names() throws {
        let lua = try LuaState()
        let seen = try lua.call(lua.load(Self.listing, as: "flows/names.lua")).first?.stringValue
        #expect(seen == Self.expected)
        let loaded = try lua.call(lua.load("return load(...)()", as: "flows/outer.lua"), [.string(Self.listing)]).first?.stringValue
        #expect(loaded == Self.expected)
    }

    @Test("the base functions a chunk sees work as Lua's own")
    func baseFunctionsWork() throws {
        let lua = try LuaState()
        let chunk = try lua.load("""
            local t = setmetatable({}, { __index = function() return 7 end })
            local ok, err = pcall(error, 'boom', 0)
            local xok, xerr = xpcall(function() error('x', 0) end, function(m) return 'handled ' .. m end)
            local n = 0
            for _, v in ipairs({ 10, 20, 30 }) do n = n + v end
            return _VERSION, select('#', 1, nil, 3), type(print), tonumber('0x10'), tonumber('12', 3),
              ok, err, xok, xerr, n, rawequal(t, t), rawlen({ 1, 2 }), rawget(t, 'k'), t.k,
              getmetatable(''), assert(42, 'never'), tostring(nil), next({}),
              select(2, pcall(assert, false, 'asserted'))
            """, as: "flows/base.lua")
        let got = try lua.call(chunk)
        let want: [LuaValue] = [
            "Lua 5.4", 3, "function", 16, 5, false, "boom", false, "handled x", 60, true, 2, .nil, 7,
            false, 42, "nil", .nil, "asserted",
        ]
        #expect(got == want)
    }
}
