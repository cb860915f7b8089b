import CLua
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
    private var out: [UInt8] = []
    private var open: Set<UnsafeRawPointer> = []
    static let maximumDepth = 64

    public static func encode(_ L: OpaquePointer, at index: Int32) throws -> [UInt8] {
        var encoder = LuaJSON(L: L)
        encoder.out.reserveCapacity(256)
        try encoder.value(lua_absindex(L, index), depth: 0)
        return encoder.out
    }

    private init(L: OpaquePointer) { self.L = L }

    private mutating func value(_ i: Int32, depth: Int) throws {
        switch lua_type(L, i) {
        case LUA_TSTRING: string(i)
        case LUA_TNUMBER: number(i)
        case LUA_TBOOLEAN: out += lua_toboolean(L, i) != 0 ? Array("true".utf8) : Array("false".utf8)
        case LUA_TNIL, LUA_TNONE: out += Array("null".utf8)
        case LUA_TTABLE where lua_getmetatable(L, i) == 0: try table(i, depth: depth)
        default:
            if lua_type(L, i) == LUA_TTABLE { lua_settop(L, -2) }   // the metatable just pushed
            try tostring(i)
            string(-1)
            lua_settop(L, -2)
        }
    }

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
        if lua_isinteger(L, i) != 0, isInteger != 0 { out += Array(String(n).utf8); return }
        let v = fs_tonumber(L, i, nil)
        guard v.isFinite else { out += Array("null".utf8); return }
        var buffer = [CChar](repeating: 0, count: 40)
        let count = withVaList([v]) { vsnprintf(&buffer, buffer.count, "%.14g", $0) }
        out += buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }
    }

    private mutating func string(_ i: Int32) {
        var length = 0
        guard let p = lua_tolstring(L, i, &length) else { return }
        string(UnsafeRawBufferPointer(start: p, count: length))
    }

    private mutating func string(_ bytes: UnsafeRawBufferPointer) {
        let isUTF8 = Self.isUTF8(bytes)
        out.append(UInt8(ascii: "\""))
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 8: out += [92, UInt8(ascii: "b")]
            case 12: out += [92, UInt8(ascii: "f")]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            case 0..<32, 127:
                let hex = Array("0123456789abcdef".utf8)
                out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
            case 128...255 where !isUTF8:
                // Latin-1: the byte is the code point, written as two UTF-8 bytes.
                out += [0xC0 | b >> 6, 0x80 | b & 0x3F]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Lua's utf8.len test: well-formed, no surrogates, nothing past U+10FFFF.
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var k = 0
        while k < bytes.count {
            let b = bytes[k]
            if b < 0x80 { k += 1; continue }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
            guard length > 0, b < 0xF5, k + length <= bytes.count else { return false }
            var code = UInt32(b) & (0x7F >> UInt32(length))
            for j in 1..<length {
                let c = bytes[k + j]
                guard c & 0xC0 == 0x80 else { return false }
                code = code << 6 | UInt32(c & 0x3F)
            }
            let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard code >= smallest, code <= 0x10FFFF, !(0xD800...0xDFFF).contains(code) else { return false }
            k += length
        }
        return true
    }

    private mutating func table(_ t: Int32, depth: Int) throws {
        guard depth <= Self.maximumDepth else { throw Failure(description: "fontshell.json: nested deeper than 64 levels") }
        let identity = lua_topointer(L, t)!
        guard open.insert(identity).inserted else { throw Failure(description: "fontshell.json: a table contains itself") }
        guard lua_checkstack(L, 8) != 0 else { throw Failure(description: "fontshell.json: out of stack space") }
        defer { open.remove(identity) }
        let n = Int(lua_rawlen(L, t))
        var count = 0
        lua_pushnil(L)
        while lua_next(L, t) != 0 { count += 1; lua_settop(L, -2) }
        if count == n {
            out.append(UInt8(ascii: "["))
            for k in 0..<n {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                lua_rawgeti(L, t, lua_Integer(k + 1))
                try value(lua_gettop(L), depth: depth + 1)
                lua_settop(L, -2)
            }
            out.append(UInt8(ascii: "]"))
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
            lua_settop(L, -2)                               // the value; the key stays for lua_next
            lua_pushvalue(L, -1)
            lua_rawseti(L, scratch, lua_Integer(keys.count + 1))
            lua_pushvalue(L, -1)
            try tostring(lua_gettop(L))
            var length = 0
            let p = lua_tolstring(L, -1, &length)!
            keys.append((Array(UnsafeRawBufferPointer(start: p, count: length)), lua_Integer(keys.count + 1)))
            lua_settop(L, -3)                               // the copy and its string
        }
        keys.sort { $0.name.lexicographicallyPrecedes($1.name) }
        out.append(UInt8(ascii: "{"))
        for (k, key) in keys.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            key.name.withUnsafeBytes { string($0) }
            out.append(UInt8(ascii: ":"))
            lua_rawgeti(L, scratch, key.slot)
            lua_rawget(L, t)
            try value(lua_gettop(L), depth: depth + 1)
            lua_settop(L, -2)
        }
        lua_settop(L, scratch - 1)
        out.append(UInt8(ascii: "}"))
    }
}
