import CLua
import LuaShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The type of a value on the stack (Lua's LUA_T* constants).
public enum LuaType: Int32, Sendable {
    case none = -1, `nil` = 0, boolean, lightUserdata, number, string, table, function, userdata, thread
}

/// Non-owning helpers over a state's stack: reading and pushing values without raising. Every
/// table access here is raw (no metamethods), so no Lua error can unwind through Swift frames.
public struct LuaStack {
    @usableFromInline let L: OpaquePointer
    public init(_ L: OpaquePointer) { self.L = L }

    public var top: Int32 { lua_gettop(L) }
    public func pop(_ n: Int32 = 1) { fs_pop(L, n) }
    /// Drops everything above `index` (as lua_settop).
    public func truncate(to index: Int32) { lua_settop(L, index) }
    /// The index as seen from the bottom, so it stays valid while values are pushed.
    public func absolute(_ index: Int32) -> Int32 { lua_absindex(L, index) }
    public func type(at index: Int32) -> LuaType { LuaType(rawValue: lua_type(L, index)) ?? .none }
    public func typeName(at index: Int32) -> String { String(cString: fs_typename(L, index)) }

    /// The type for an error's "got …", where a number that is not finite is named ("NaN",
    /// "infinity"): "must be a number, got number" helps nobody.
    public func describedType(at index: Int32) -> String {
        guard lua_type(L, index) == LUA_TNUMBER, lua_isinteger(L, index) == 0 else { return typeName(at: index) }
        let v = lua_tonumberx(L, index, nil)
        return v.isNaN ? "NaN" : v.isInfinite ? (v > 0 ? "infinity" : "-infinity") : typeName(at: index)
    }
    public func isNoneOrNil(at index: Int32) -> Bool { fs_isnoneornil(L, index) != 0 }

    // MARK: reading values

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

    /// The number at `index`, or nil when it is not a number (strings are not converted).
    public func number(at index: Int32) -> Double? {
        lua_type(L, index) == LUA_TNUMBER ? fs_tonumber(L, index, nil) : nil
    }

    /// The integer at `index`: an integer, or a float with an exact integer value; nil otherwise.
    public func integer(at index: Int32) -> Int? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        var ok: Int32 = 0
        let v = fs_tointeger(L, index, &ok)
        return ok != 0 ? Int(v) : nil
    }

    /// Whether the value is a number of Lua's integer subtype (3, not 3.0).
    public func isInteger(at index: Int32) -> Bool { lua_isinteger(L, index) != 0 }

    /// Lua truthiness: false only for nil and false.
    public func truthy(at index: Int32) -> Bool { lua_toboolean(L, index) != 0 }

    /// The raw length (#t without __len) of a table or string.
    public func length(at index: Int32) -> Int { Int(lua_rawlen(L, index)) }

    /// Whether the values at `a` and `b` are the same value (no metamethods).
    public func rawEqual(_ a: Int32, _ b: Int32) -> Bool { lua_rawequal(L, a, b) != 0 }

    /// `tostring(value)` as Lua prints it, computed protected (a __tostring may fail).
    public func describe(at index: Int32) -> String {
        if fs_tostring(L, index) == LUA_OK {
            defer { fs_pop(L, 1) }
            return string(at: -1) ?? "?"
        }
        return "<error in __tostring: \(popString())>"
    }

    // MARK: reading tables

    /// Pushes t[key] of the table at `table`, without metamethods; returns its type.
    @discardableResult
    public func getField(_ key: String, in table: Int32) -> LuaType {
        let t = lua_absindex(L, table)
        push(key)
        return LuaType(rawValue: lua_rawget(L, t)) ?? .none
    }

    /// Pushes t[i] of the table at `table`, without metamethods; returns its type.
    @discardableResult
    public func getIndex(_ i: Int, in table: Int32) -> LuaType {
        LuaType(rawValue: lua_rawgeti(L, table, lua_Integer(i))) ?? .none
    }

    /// Runs `body` with t[key] on top of the stack (popped afterwards), given its type.
    public func withField<T>(_ key: String, in table: Int32, _ body: (LuaType) throws -> T) rethrows -> T {
        let type = getField(key, in: table)
        defer { pop() }
        return try body(type)
    }

    /// The items t[1]…t[#t] of the list at `table`, each read by `body` (given its 1-based
    /// position) while it is on top of the stack.
    public func items<T>(ofListAt table: Int32, _ body: (Int) throws -> T) rethrows -> [T] {
        let t = absolute(table)
        let count = length(at: t)
        var out: [T] = []
        out.reserveCapacity(count)
        for k in stride(from: 1, through: count, by: 1) {
            getIndex(k, in: t)
            defer { pop() }
            out.append(try body(k))
        }
        return out
    }

    /// Calls `body` for each pair of the table at `table` (raw traversal, in Lua's order), with
    /// the key at -2 and the value at -1. The body must leave the stack as it found it.
    public func forEachPair(inTableAt table: Int32, _ body: () throws -> Void) rethrows {
        let t = absolute(table)
        pushNil()
        while lua_next(L, t) != 0 {
            do { try body() } catch { pop(2); throw error }   // the value and the key
            pop()
        }
    }

    /// The keys of the table at `table` (raw traversal), as strings; a key that is not a string
    /// is returned as its type name in angle brackets ("<number>"), for the caller to refuse.
    public func keys(ofTableAt table: Int32) -> [String] {
        var keys: [String] = []
        forEachPair(inTableAt: table) {
            keys.append(type(at: -2) == .string ? (string(at: -2) ?? "") : "<\(typeName(at: -2))>")
        }
        return keys
    }

    /// Copies every field of the table at `source` into the table at `target` (raw, shallow).
    public func copyFields(from source: Int32, to target: Int32) {
        let target = absolute(target)
        forEachPair(inTableAt: source) {
            pushValue(at: -2)
            pushValue(at: -2)
            lua_rawset(L, target)
        }
    }

    /// Calls the function below `nargs` arguments, protected, with a traceback on error
    /// (`LuaState.call`; also from inside a Swift function Lua called).
    public func call(arguments nargs: Int32 = 0, results nresults: Int32 = LUA_MULTRET) throws {
        let status = fs_pcall(L, nargs, nresults)
        guard status == LUA_OK else {
            let raw = popString()
            // Lua's own message says neither which limit nor how to raise it.
            if status == LUA_ERRMEM && raw == "not enough memory" {
                throw LuaError(
                    message: "not enough memory (the Lua heap limit is \(fs_memory_limit(L)) bytes; FONTSHELL_LUA_MEMORY sets it)")
            }
            throw LuaError(raw: raw)
        }
    }

    /// Compiles `code` and pushes the chunk, or throws the syntax error (`LuaState.load`).
    /// `cached`: compiled once per process, later loads read the bytecode.
    public func load(_ code: String, name: String, cached: Bool = false) throws {
        var code = code
        try code.withUTF8 { try load(UnsafeRawBufferPointer($0), name: name, mode: nil, cached: cached) }
    }

    /// Compiles Lua text held outside Swift's strings (a program embedded at build time) and
    /// pushes the chunk; `cached` as for `load(_:name:cached:)`.
    public func load(text: UnsafeRawBufferPointer, name: String, cached: Bool = false) throws {
        try load(text, name: name, mode: "t", cached: cached)
    }

    /// Compiles `source` (text, or also bytecode unless `mode` is "t") and pushes the chunk.
    /// `cached`: the chunk is compiled once per process and later loads read its bytecode,
    /// looked up by name and source length (hashing the source would cost as much as
    /// compiling it), so each cached chunk needs a name of its own.
    func load(_ source: UnsafeRawBufferPointer, name: String, mode: String?, cached: Bool) throws {
        if cached, let bytecode = CompiledChunks.shared.bytecode(length: source.count, name: name) {
            let status = bytecode.withUnsafeBytes { b in
                fs_loadbuffer(L, b.baseAddress?.assumingMemoryBound(to: CChar.self), b.count, name, "b")
            }
            if status == LUA_OK { return }
            pop()   // not expected (same Lua, same process): compile it as text instead
        }
        let status = fs_loadbuffer(L, source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count, name, mode)
        guard status == LUA_OK else { throw LuaError(raw: popString()) }
        if cached {
            var size = 0
            if let dumped = fs_dump(L, &size) {
                CompiledChunks.shared.store(Array(UnsafeBufferPointer(start: dumped, count: size)), length: source.count, name: name)
                free(dumped)
            }
        }
    }

    // MARK: pushing values

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

    /// Makes room for `n` more values on the stack (a C function may only count on 20): call it
    /// before pushing values nested deeper than that. False when Lua cannot grow the stack.
    @discardableResult
    public func reserve(_ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }

    /// Pushes a new empty table, with room for the given numbers of items and fields.
    public func pushTable(arrayCount: Int32 = 0, fieldCount: Int32 = 0) { lua_createtable(L, arrayCount, fieldCount) }

    /// Pushes a Swift function as a Lua closure over the `upvalues` values on top (popped),
    /// which the function reads at `LuaStack.upvalue(1…)`.
    public func push(function: LuaFunction, upvalues: Int32 = 0) { fs_pushfunction(L, function, upvalues) }

    /// The pseudo-index of a running Swift closure's upvalue n (1-based).
    public static func upvalue(_ n: Int32) -> Int32 { fs_upvalueindex(n) }

    // MARK: writing tables

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

    /// t[k] = v for the table at `table`, with k below v on top (both popped); no metamethods.
    public func setPair(in table: Int32) { lua_rawset(L, table) }
    /// Pops a table (or nil) and makes it the metatable of the value at `index`.
    public func setMetatable(of index: Int32) { lua_setmetatable(L, index) }

    /// Pushes t[k] for the table at `table`, with k on top (replaced); no metamethods.
    @discardableResult
    public func getPair(in table: Int32) -> LuaType { LuaType(rawValue: lua_rawget(L, table)) ?? .none }

    /// Moves the value on top to `index`, shifting the ones above it up.
    public func insert(at index: Int32) { fs_insert(L, index) }

    // MARK: globals and the registry

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

    /// Pushes registry[key] (state kept by Swift modules, out of scripts' reach).
    @discardableResult
    public func getRegistryField(_ key: String) -> LuaType { getField(key, in: fs_registryindex()) }

    /// registry[key] = the value on top (popped).
    public func setRegistryField(_ key: String) { setField(key, in: fs_registryindex()) }

    /// Whether the value at `index` is userdata of the class registered as `classID`.
    public func isObject(at index: Int32, classID: Int32) -> Bool { fs_is_class(L, index, classID) != 0 }

    /// Marks the table at `index` as a kind of result (a shared metatable naming it), so a
    /// function given it later can tell it from a table the user wrote: `show` skips the
    /// information table a preview returns beside its Image.
    public func mark(tableAt index: Int32, as kind: String) {
        let table = absolute(index)
        let key = "fontshell.kind." + kind
        if getRegistryField(key) != .table {
            pop()
            pushTable(fieldCount: 1)
            push(kind); setField("__name", in: -2)
            pushValue(at: -1); setRegistryField(key)
        }
        lua_setmetatable(L, table)
    }

    /// Whether the value at `index` is a table `mark(tableAt:as:)` marked as `kind`.
    public func isMarked(tableAt index: Int32, as kind: String) -> Bool {
        let index = absolute(index)
        guard type(at: index) == .table, lua_getmetatable(L, index) != 0 else { return false }
        _ = getRegistryField("fontshell.kind." + kind)
        defer { pop(2) }
        return rawEqual(-1, -2)
    }
}
