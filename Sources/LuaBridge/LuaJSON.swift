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
    /// The tables being written, outermost first (at most 64: a list is cheaper than a set).
    private var open: [UnsafeRawPointer] = []
    static let maximumDepth = 64

    public static func encode(_ stack: LuaStack, at index: Int32) throws -> [UInt8] {
        let L = stack.L
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

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
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
        if lua_isinteger(L, i) != 0, isInteger != 0 { integer(n); return }
        let v = fs_tonumber(L, i, nil)
        guard v.isFinite else { append("null"); return }
        var buffer = [CChar](repeating: 0, count: 40)
        let count = withVaList([v]) { vsnprintf(&buffer, buffer.count, "%.14g", $0) }
        out += buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }
    }

    /// Decimal digits, written in place (no String in between).
    private mutating func integer(_ n: lua_Integer) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    private mutating func string(_ i: Int32) {
        var length = 0
        guard let p = lua_tolstring(L, i, &length) else { return }
        string(UnsafeRawBufferPointer(start: p, count: length))
    }

    private mutating func string(_ bytes: UnsafeRawBufferPointer) {
        out.append(UInt8(ascii: "\""))
        // Most strings (names, keys) are printable ASCII with nothing to escape: copied whole.
        if !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        let isUTF8 = Self.isUTF8(bytes)
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
            lua_settop(L, -3)                               // the copy and its string
        }
        keys.sort { a, b in
            let common = min(a.name.count, b.name.count)
            let order = common == 0 ? 0 : a.name.withUnsafeBytes { x in b.name.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, common) } }
            return order != 0 ? order < 0 : a.name.count < b.name.count
        }
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
