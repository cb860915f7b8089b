import CLua
import LuaShim

/// A bad argument: becomes lua.c's "bad argument #n to 'name' (message)".
public struct LuaArgumentError: Error {
    public let index: Int32
    public let message: String
    public init(_ index: Int32, _ message: String) { self.index = index; self.message = message }
}

/// Thrown by a Swift body after it pushed an error value to raise as it is (error objects
/// passing through, e.g. from a Lua callback).
public struct LuaRaiseValue: Error { public init() {} }

/// Any error whose message should reach Lua as it is (the description is used).
public protocol LuaMessageError: Error, CustomStringConvertible {}

/// What a Swift function sees of its call: its arguments, read strictly, and a way to push results.
public struct LuaCall {
    @usableFromInline let L: OpaquePointer
    public let name: String
    public var stack: LuaStack { LuaStack(L) }

    @inlinable
    init(L: OpaquePointer, name: String) {
        self.L = L
        self.name = name
    }

    /// Runs the body of a Lua-callable Swift function. The body returns its number of results;
    /// any error it throws becomes a status the C trampoline raises after this frame returns.
    public static func run(_ state: OpaquePointer?, _ name: String, _ body: (LuaCall) throws -> Int32) -> Int32 {
        guard let L = state else { return 0 }
        let call = LuaCall(L: L, name: name)
        do {
            return try body(call)
        } catch let e as LuaArgumentError {
            e.message.withCString { m in name.withCString { fs_push_argerror(L, e.index, m, $0) } }
            return FS_RAISE_MESSAGE
        } catch is LuaRaiseValue {
            return FS_RAISE_VALUE
        } catch {
            call.stack.push(String(describing: error))
            return FS_RAISE_MESSAGE
        }
    }

    public var count: Int32 { lua_gettop(L) }

    /// "X expected, got Y" for argument i.
    public func expected(_ i: Int32, _ what: String) -> LuaArgumentError {
        var got = lua_type(L, i) == LUA_TNONE ? "no value" : stack.describedType(at: i)
        // As luaL_typeerror: a userdata with a class name is called by it ("Face expected, got Font").
        if lua_type(L, i) == LUA_TUSERDATA, lua_getmetatable(L, i) != 0 {
            if lua_getfield(L, -1, "__name") == LUA_TSTRING, let name = stack.string(at: -1) { got = name }
            stack.pop(2)
        }
        return LuaArgumentError(i, "\(what) expected, got \(got)")
    }

    public func isNoneOrNil(_ i: Int32) -> Bool { fs_isnoneornil(L, i) != 0 }

    @inlinable
    public func integer(_ i: Int32) throws -> Int {
        guard lua_type(L, i) == LUA_TNUMBER else { throw expected(i, "number") }
        var ok: Int32 = 0
        let v = fs_tointeger(L, i, &ok)
        guard ok != 0 else { throw LuaArgumentError(i, "number has no integer representation") }
        return Int(v)
    }

    public func number(_ i: Int32) throws -> Double {
        guard lua_type(L, i) == LUA_TNUMBER else { throw expected(i, "number") }
        return fs_tonumber(L, i, nil)
    }

    public func string(_ i: Int32) throws -> String {
        guard let s = stack.string(at: i) else { throw expected(i, "string") }
        return s
    }

    public func bytes(_ i: Int32) throws -> [UInt8] {
        guard let b = stack.bytes(at: i) else { throw expected(i, "string") }
        return b
    }

    public func boolean(_ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }

    /// Checks that argument `i` is a table (or absent, when `optional`).
    public func table(_ i: Int32, optional: Bool = false) throws -> Bool {
        if optional && isNoneOrNil(i) { return false }
        guard lua_type(L, i) == LUA_TTABLE else { throw expected(i, "table") }
        return true
    }

    /// Reads field `key` of the table argument `i` (raw), passing its stack index to `body`.
    public func field<T>(_ i: Int32, _ key: String, _ body: (Int32) throws -> T) rethrows -> T {
        stack.getField(key, in: i)
        defer { stack.pop() }
        return try body(-1)
    }

    /// The object in argument `i`, which must be userdata of class `cls` (holding a T).
    @inlinable
    public func object<T: AnyObject>(_ i: Int32, _ classID: Int32, _ className: String, as type: T.Type = T.self) throws -> T {
        guard fs_is_class(L, i, classID) != 0 else { throw expected(i, className) }
        return try LuaClass.unwrap(L, i, className)
    }

    /// `self` of a method (or __tostring, __len, __pairs, __call): checked by comparing its
    /// metatable with the one the method holds as upvalue 1 (no string lookups).
    @inlinable
    public func methodSelf<T: AnyObject>(_ className: String, as type: T.Type = T.self) throws -> T {
        guard lua_type(L, 1) == LUA_TUSERDATA, lua_getmetatable(L, 1) != 0 else { throw expected(1, className) }
        let same = lua_rawequal(L, -1, fs_upvalueindex(1)) != 0
        stack.pop()
        guard same else { throw expected(1, className) }
        return try LuaClass.unwrap(L, 1, className)
    }

    /// The integer payload of the userdata at `i` (whose class the caller has checked).
    @inlinable
    public func payload(_ i: Int32) -> Int {
        lua_touserdata(L, i)?.assumingMemoryBound(to: LuaClass.Slot.self).pointee.payload ?? 0
    }

    /// `self` in a __index/__newindex getter or setter, whose class the C dispatcher already checked.
    @inlinable
    public func trustedSelf<T: AnyObject>(_ className: String, as type: T.Type = T.self) throws -> T {
        try LuaClass.unwrap(L, 1, className)
    }
}
