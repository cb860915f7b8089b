import CLua
import LuaShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Lua-callable function written in Swift. Declare each as a `static let` (never an inline
/// closure argument) and run its body through `LuaCall.run`, which turns Swift errors into a
/// status the C trampoline raises once the Swift frame has returned.
public typealias LuaFunction = @convention(c) (OpaquePointer?) -> Int32

/// An error raised by Lua code, with the traceback Lua's message handler added.
public struct LuaError: Error, CustomStringConvertible, Sendable {
    /// The error message, e.g. "script.lua:12: attempt to index a nil value".
    public let message: String
    /// "stack traceback:\n..." when one was taken.
    public let traceback: String

    public init(message: String, traceback: String = "") {
        self.message = message
        self.traceback = traceback
    }

    init(raw: String) {
        if let range = raw.firstRange(of: "\nstack traceback:") {
            message = String(raw[..<range.lowerBound])
            traceback = String(raw[raw.index(after: range.lowerBound)...])
        } else {
            message = raw
            traceback = ""
        }
    }

    public var description: String { traceback.isEmpty ? message : message + "\n" + traceback }
}

/// One Lua 5.4 state with the standard libraries. Swift calls Lua only through protected calls.
public final class LuaState {
    public let L: OpaquePointer
    /// Value helpers over this state's stack.
    public var stack: LuaStack { LuaStack(L) }

    public init() {
        // nil would mean Lua could not start at all (no memory for the state itself).
        guard let state = fs_newstate() else {
            print("fontshell: cannot create a Lua state")
            exit(70)
        }
        L = state
    }

    deinit { fs_closestate(L) }

    /// The heap limit in bytes (FONTSHELL_LUA_MEMORY, default 1 GiB): past it allocations fail
    /// with Lua's "not enough memory" error, which scripts can catch with pcall.
    public var memoryLimit: Int {
        get { fs_memory_limit(L) }
        set { fs_set_memory_limit(L, max(newValue, 1 << 20)) }
    }
    public var memoryUsed: Int { fs_memory_used(L) }

    /// Installs the process's Ctrl-C handler: code running through `callInterruptible` (in any
    /// coroutine) then stops with "interrupted!"; otherwise the signal is only noted.
    public static func installInterruptHandler() { fs_install_interrupt_handler() }
    /// Whether Ctrl-C arrived since the last call (clears it).
    public static func takeInterrupt() -> Bool { fs_take_interrupt() != 0 }

    /// `call`, with Ctrl-C interrupting the code it runs.
    public func callInterruptible(arguments nargs: Int32 = 0, results nresults: Int32 = LUA_MULTRET) throws {
        fs_set_running(1)
        defer { fs_set_running(0) }
        try call(arguments: nargs, results: nresults)
    }

    public var top: Int32 { lua_gettop(L) }

    /// Compiles `code` and pushes the chunk; throws the syntax error without raising.
    public func load(_ code: String, name: String) throws {
        let status = code.withCString { fs_loadbuffer(L, $0, strlen($0), name) }
        guard status == LUA_OK else { throw LuaError(raw: stack.popString()) }
    }

    /// Compiles bytes (which may contain zeros) and pushes the chunk.
    public func load(bytes: [UInt8], name: String) throws {
        let status = bytes.withUnsafeBytes { b in
            name.withCString { fs_loadbuffer(L, b.baseAddress?.assumingMemoryBound(to: CChar.self), b.count, $0) }
        }
        guard status == LUA_OK else { throw LuaError(raw: stack.popString()) }
    }

    /// Calls the function below `nargs` arguments, protected, with a traceback on error.
    public func call(arguments nargs: Int32 = 0, results nresults: Int32 = LUA_MULTRET) throws {
        let status = fs_pcall(L, nargs, nresults)
        guard status == LUA_OK else { throw LuaError(raw: stack.popString()) }
    }

    /// Runs a chunk and returns how many values it left on the stack.
    @discardableResult
    public func run(_ code: String, name: String = "=(fontshell)") throws -> Int32 {
        let base = top
        try load(code, name: name)
        try call()
        return top - base
    }

    /// Registers a Swift function as `_G[name]`.
    public func register(_ name: String, _ function: LuaFunction) {
        fs_pushfunction(L, function, 0)
        stack.setGlobal(name)
    }

    /// Registers a module: `_G[name]` = a table of Swift functions (plus string fields).
    public func registerModule(_ name: String, functions: [(String, LuaFunction)], strings: [(String, String)] = []) {
        let s = stack
        s.pushTable(fieldCount: Int32(functions.count + strings.count))
        for (key, fn) in functions {
            fs_pushfunction(L, fn, 0)
            s.setField(key, in: -2)
        }
        for (key, value) in strings { s.push(value); s.setField(key, in: -2) }
        s.setGlobal(name)
    }
}

/// Non-owning helpers over a state's stack: reading and pushing values without raising.
public struct LuaStack {
    public let L: OpaquePointer
    public init(_ L: OpaquePointer) { self.L = L }

    public var top: Int32 { lua_gettop(L) }
    public func pop(_ n: Int32 = 1) { fs_pop(L, n) }
    public func type(at index: Int32) -> Int32 { lua_type(L, index) }
    public func typeName(at index: Int32) -> String { String(cString: fs_typename(L, index)) }

    /// Pops the value on top as a string (error objects that are not strings are described).
    public func popString() -> String {
        defer { fs_pop(L, 1) }
        if lua_type(L, -1) == LUA_TSTRING { return string(at: -1) ?? "" }
        return "(error object is a \(typeName(at: -1)) value)"
    }

    public func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let p = lua_tolstring(L, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
    }

    public func bytes(at index: Int32) -> [UInt8]? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let p = lua_tolstring(L, index, &length) else { return nil }
        return Array(UnsafeRawBufferPointer(start: p, count: length))
    }

    /// `tostring(value)` as Lua prints it, computed protected (a __tostring may fail).
    public func describe(at index: Int32) -> String {
        if fs_tostring(L, index) == LUA_OK {
            defer { fs_pop(L, 1) }
            return string(at: -1) ?? "?"
        }
        return "<error in __tostring: \(popString())>"
    }

    /// Pushes the whole string: Lua strings hold NUL bytes, so the length is passed (a C-string
    /// push would cut "a\0b" to "a").
    public func push(_ s: String) {
        var s = s
        s.withUTF8 { _ = lua_pushlstring(L, UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count) }
    }
    public func push(bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = lua_pushlstring(L, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) }
    }
    public func push(_ i: Int) { lua_pushinteger(L, lua_Integer(i)) }
    public func push(_ d: Double) { lua_pushnumber(L, d) }
    public func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
    public func pushNil() { lua_pushnil(L) }
    public func pushValue(at index: Int32) { lua_pushvalue(L, index) }

    /// Pushes a new table filled by `body` (which pushes values with `set`).
    public func pushTable(arrayCount: Int32 = 0, fieldCount: Int32 = 0) { lua_createtable(L, arrayCount, fieldCount) }

    /// t[key] = value for the table at `table`, value on top (popped); no metamethods.
    public func setField(_ key: String, in table: Int32) {
        let t = lua_absindex(L, table)
        push(key)
        fs_insert(L, -2)
        lua_rawset(L, t)
    }

    /// t[i] = value for the table at `table`, value on top (popped); no metamethods.
    public func setIndex(_ i: Int, in table: Int32) {
        lua_rawseti(L, lua_absindex(L, table), lua_Integer(i))
    }

    /// Pushes t[key] of the table at `table`, without metamethods; returns its type.
    @discardableResult
    public func getField(_ key: String, in table: Int32) -> Int32 {
        let t = lua_absindex(L, table)
        push(key)
        return lua_rawget(L, t)
    }

    /// The keys of the table at `table` (raw traversal), as strings; a key that is not a string
    /// is returned as its type name in angle brackets ("<number>"), for the caller to refuse.
    public func keys(ofTableAt table: Int32) -> [String] {
        let t = lua_absindex(L, table)
        var keys: [String] = []
        pushNil()
        while lua_next(L, t) != 0 {
            pop()
            keys.append(type(at: -1) == LUA_TSTRING ? (string(at: -1) ?? "") : "<\(typeName(at: -1))>")
        }
        return keys
    }

    /// Sets `_G[name]` to the value on top (popped), without metamethods.
    public func setGlobal(_ name: String) {
        fs_pushglobaltable(L)
        fs_insert(L, -2)
        setField(name, in: -2)
        fs_pop(L, 1)
    }

    /// Pushes `_G[name]` without metamethods.
    public func getGlobal(_ name: String) {
        fs_pushglobaltable(L)
        getField(name, in: -1)
        fs_remove(L, -2)
    }
}
