import LuaBridge

/// `__pairs` for objects whose keys have an order (table fields in binary order): returns an
/// iterator over a successor table (key → next key, `true` → first key) and a values table.
enum OrderedPairs {
    static func push(_ call: LuaCall, names: [String], value: (String) throws -> Void) rethrows -> Int32 {
        let s = call.stack
        s.pushTable(fieldCount: Int32(names.count))
        for name in names { try value(name); s.setField(name, in: -2) }
        s.push(function: next, upvalues: 1)   // the values table becomes upvalue 1
        s.pushTable(fieldCount: Int32(names.count + 1))
        var previous: String?
        for name in names {
            if let p = previous {
                s.push(name); s.setField(p, in: -2)
            } else {
                s.push(true); s.push(name); s.setPair(in: -3)
            }
            previous = name
        }
        s.pushNil()
        return 3
    }

    static let next: LuaFunction = { L in
        LuaCall.run(L, "next") { call in
            let s = call.stack
            guard s.type(at: 1) == .table else { throw LuaArgumentError(1, "table expected") }
            if s.type(at: 2) == .nil { s.push(true) } else { s.pushValue(at: 2) }
            guard s.getPair(in: 1) != .nil else { return 1 }
            s.pushValue(at: -1)
            s.getPair(in: LuaStack.upvalue(1))
            return 2
        }
    }
}
