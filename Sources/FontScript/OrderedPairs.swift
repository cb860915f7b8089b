import CLua
import LuaBridge
import LuaShim

/// `__pairs` for objects whose keys have an order (table fields in binary order): returns an
/// iterator over a successor table (key → next key, `true` → first key) and a values table.
enum OrderedPairs {
    static func push(_ call: LuaCall, names: [String], value: (String) throws -> Void) rethrows -> Int32 {
        let s = call.stack, L = call.L
        s.pushTable(fieldCount: Int32(names.count))
        for name in names { try value(name); s.setField(name, in: -2) }
        fs_pushfunction(L, next, 1) // the values table becomes upvalue 1
        s.pushTable(fieldCount: Int32(names.count + 1))
        var previous: String?
        for name in names {
            if let p = previous { s.push(name); s.setField(p, in: -2) } else {
                lua_pushboolean(L, 1); s.push(name); lua_rawset(L, -3)
            }
            previous = name
        }
        s.pushNil()
        return 3
    }

    static let next: LuaFunction = { L in
        LuaCall.run(L, "next") { call in
            let L = call.L
            guard lua_type(L, 1) == LUA_TTABLE else { throw LuaArgumentError(1, "table expected") }
            if lua_type(L, 2) == LUA_TNIL { lua_pushboolean(L, 1) } else { lua_pushvalue(L, 2) }
            guard lua_rawget(L, 1) != LUA_TNIL else { return 1 }
            lua_pushvalue(L, -1)
            lua_rawget(L, fs_upvalueindex(1))
            return 2
        }
    }
}
