import CLua
import JSONText
import LuaShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JSON text of a Lua value, on one line: tables whose keys are exactly 1..n become arrays,
/// other tables objects with their keys as strings (tostring), sorted bytewise; integers stay
/// integers, other numbers are written with 14 significant digits, NaN and infinities become
/// null; strings that are not UTF-8 are read as Latin-1; anything else (functions, objects,
/// tables with a metatable) becomes the string of its tostring. A table inside itself and
/// nesting past 64 levels are errors. Reads tables raw (no metamethods run but __tostring).
public struct LuaJSON {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    let L: OpaquePointer
    private var out = JSONWriter()
    /// The tables being written, outermost first (at most 64: a list is cheaper than a set).
    private var open: [UnsafeRawPointer] = []
    static let maximumDepth = 64

    public static func encode(_ stack: LuaStack, at index: Int32) throws -> [UInt8] {
        let L = stack.L
        var encoder = LuaJSON(L: L)
        try encoder.value(lua_absindex(L, index), depth: 0)
        return encoder.out.bytes
    }

    private init(L: OpaquePointer) { self.L = L }

    private mutating func value(_ i: Int32, depth: Int) throws {
        switch lua_type(L, i) {
        case LUA_TSTRING: string(i)
        case LUA_TNUMBER: number(i)
        case LUA_TBOOLEAN: append(lua_toboolean(L, i) != 0 ? "true" : "false")
        case LUA_TNIL, LUA_TNONE: append("null")
        case LUA_TTABLE where lua_getmetatable(L, i) == 0: try table(i, depth: depth)
        default:
            if lua_type(L, i) == LUA_TTABLE { lua_settop(L, -2) }   // the metatable just pushed
            try tostring(i)
            string(-1)
            lua_settop(L, -2)
        }
    }

    private mutating func append(_ text: StaticString) { out.append(text) }

    /// Pushes tostring(value at i), running __tostring protected.
    private func tostring(_ i: Int32) throws {
        guard fs_tostring(L, i) == LUA_OK else {
            let message = LuaStack(L).popString()
            throw Failure(description: message)
        }
    }

    private mutating func number(_ i: Int32) {
        var isInteger: Int32 = 0
        let n = fs_tointeger(L, i, &isInteger)
        if lua_isinteger(L, i) != 0, isInteger != 0 { out.integer(n); return }
        let v = fs_tonumber(L, i, nil)
        out.number(v)
    }

    private mutating func string(_ i: Int32) {
        var length = 0
        guard let p = lua_tolstring(L, i, &length) else { return }
        out.string(UnsafeRawBufferPointer(start: p, count: length))
    }

    private mutating func table(_ t: Int32, depth: Int) throws {
        guard depth <= Self.maximumDepth else { throw Failure(description: "nested deeper than 64 levels") }
        let identity = lua_topointer(L, t)!
        guard !open.contains(identity) else { throw Failure(description: "a table contains itself") }
        guard lua_checkstack(L, 8) != 0 else { throw Failure(description: "out of stack space") }
        open.append(identity)
        defer { open.removeLast() }
        let n = Int(lua_rawlen(L, t))
        var count = 0
        lua_pushnil(L)
        while lua_next(L, t) != 0 { count += 1; lua_settop(L, -2) }
        if count == n {
            out.append("[")
            for k in 0..<n {
                if k > 0 { out.append(",") }
                lua_rawgeti(L, t, lua_Integer(k + 1))
                try value(lua_gettop(L), depth: depth + 1)
                lua_settop(L, -2)
            }
            out.append("]")
            return
        }
        // Keys as strings, sorted; the keys themselves kept in a scratch table (the stack stays
        // small however many there are) to fetch each value in order.
        lua_createtable(L, Int32(min(count, 1 << 20)), 0)
        let scratch = lua_gettop(L)
        var keys: [(name: [UInt8], slot: lua_Integer)] = []
        keys.reserveCapacity(count)
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            lua_settop(L, -2)   // the value; the key stays for lua_next
            lua_pushvalue(L, -1)
            lua_rawseti(L, scratch, lua_Integer(keys.count + 1))
            var length = 0
            if lua_type(L, -1) == LUA_TSTRING {
                // A string key is its own text: read in place (no conversion, so lua_next is safe).
                let p = lua_tolstring(L, -1, &length)!
                keys.append((Array(UnsafeRawBufferPointer(start: p, count: length)), lua_Integer(keys.count + 1)))
                continue
            }
            lua_pushvalue(L, -1)
            try tostring(lua_gettop(L))
            let p = lua_tolstring(L, -1, &length)!
            keys.append((Array(UnsafeRawBufferPointer(start: p, count: length)), lua_Integer(keys.count + 1)))
            lua_settop(L, -3)   // the copy and its string
        }
        keys.sort { a, b in
            let common = min(a.name.count, b.name.count)
            let order =
                common == 0
                ? 0 : a.name.withUnsafeBytes { x in b.name.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, common) } }
            return order != 0 ? order < 0 : a.name.count < b.name.count
        }
        out.append("{")
        for (k, key) in keys.enumerated() {
            if k > 0 { out.append(",") }
            key.name.withUnsafeBytes { out.string($0) }
            out.append(":")
            lua_rawgeti(L, scratch, key.slot)
            lua_rawget(L, t)
            try value(lua_gettop(L), depth: depth + 1)
            lua_settop(L, -2)
        }
        lua_settop(L, scratch - 1)
        out.append("}")
    }
}
