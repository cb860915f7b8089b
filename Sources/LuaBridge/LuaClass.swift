import CLua
import LuaShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A userdata class: the userdata holds one retained reference to a Swift object and an integer
/// payload (a glyph is a face plus a glyph id, with no Swift object of its own). The reference is
/// released by `__gc` or `__close` (whichever comes first; the slot is then nil and further use
/// raises "attempt to use a closed <Name>").
public struct LuaClass: Sendable {
    /// A small positive integer unique among the classes of a state: how objects find their
    /// metatable without string lookups.
    public let id: Int32
    public let name: String
    /// Methods by name (called as `obj:method(...)`; self is argument 1).
    public var methods: [String: LuaFunction] = [:]
    /// Field names, for dispatch ids (1-based, in this order), help and completion.
    public var fields: [String] = []
    /// `(self, key, fieldId)` → value. fieldId is 0 when `key` is not in `fields`.
    public var get: LuaFunction
    /// `(self, key, value, fieldId)`; nil makes every field read-only.
    public var set: LuaFunction?
    public var tostring: LuaFunction?
    public var len: LuaFunction?
    public var pairs: LuaFunction?
    public var call: LuaFunction?
    /// One line shown by help().
    public var summary: String

    public init(id: Int32, name: String, summary: String, get: LuaFunction) {
        self.id = id
        self.name = name
        self.summary = summary
        self.get = get
    }

    /// Reads the object out of userdata at `index`, whose metatable the caller has checked. The
    /// bridge's invariant makes the cast unnecessary: a class's userdata only ever holds the Swift
    /// type its functions read (the one `push(object:className:)` was given for that class).
    @inlinable
    static func unwrap<T: AnyObject>(_ L: OpaquePointer, _ index: Int32, _ className: String) throws -> T {
        guard let slot = lua_touserdata(L, index)?.assumingMemoryBound(to: Slot.self),
            let pointer = slot.pointee.object
        else {
            throw LuaBridgeError("attempt to use a closed \(className)")
        }
        return Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// __gc and __close: release the Swift object once and null the slot.
    static let release: LuaFunction = { state in
        guard let L = state, lua_type(L, 1) == LUA_TUSERDATA,
            let slot = lua_touserdata(L, 1)?.assumingMemoryBound(to: Slot.self)
        else { return 0 }
        if let pointer = slot.pointee.object {
            slot.pointee.object = nil
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        return 0
    }

    /// __eq: the same payload and the same Swift object (or objects that say they are equal).
    static let equal: LuaFunction = { state in
        guard let L = state else { return 0 }
        var same = false
        if lua_type(L, 1) == LUA_TUSERDATA, lua_type(L, 2) == LUA_TUSERDATA,
            let ua = lua_touserdata(L, 1)?.assumingMemoryBound(to: Slot.self),
            let ub = lua_touserdata(L, 2)?.assumingMemoryBound(to: Slot.self),
            ua.pointee.payload == ub.pointee.payload, let a = ua.pointee.object, let b = ub.pointee.object
        {
            let x = Unmanaged<AnyObject>.fromOpaque(a).takeUnretainedValue()
            let y = Unmanaged<AnyObject>.fromOpaque(b).takeUnretainedValue()
            if let e = x as? LuaEquatable { same = e.isSame(as: y) } else { same = x === y }
        }
        lua_pushboolean(L, same ? 1 : 0)
        return 1
    }

    /// The userdata's memory: the retained object and the payload.
    @usableFromInline
    struct Slot {
        @usableFromInline var object: UnsafeMutableRawPointer?
        @usableFromInline var payload: Int
    }
}

/// Objects that wrap another (a Glyph is a face and an id) can say when two wrappers are the same.
public protocol LuaEquatable: AnyObject {
    func isSame(as other: AnyObject) -> Bool
}

/// Errors of the bridge itself, with their message for Lua.
public struct LuaBridgeError: Error, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
}

/// The classes declared in this process, by id: a state makes a class's metatable when it
/// pushes the first object of that class (a batch run makes a state per font, and most use a
/// few of the classes). Ids are small (a class's place in its list), so an array holds them:
/// a dictionary keyed by Int32 would cost every process start a scan of the runtime's
/// conformance records for Int32: Hashable (docs/performance.md, "Start-up").
final class DeclaredClasses: @unchecked Sendable {
    static let shared = DeclaredClasses()
    /// A class as declared, with its members sorted for the C lookups (`fs_members`). A class
    /// declared again gets new members; the old ones stay allocated, since states made before
    /// may still point at them (classes are declared once per process, tests aside).
    struct Declared {
        let cls: LuaClass
        let members: UnsafePointer<fs_members>
    }
    private var classes: [Declared?] = []
    private var lock = pthread_mutex_t()
    init() { pthread_mutex_init(&lock, nil) }

    func declare(_ cls: LuaClass) {
        precondition(cls.id >= 0 && cls.id < 4096, "a Lua class id is its small place in a list")
        let members = Self.sortedMembers(cls)
        pthread_mutex_lock(&lock)
        let index = Int(cls.id)
        if classes.count <= index { classes += Array(repeating: nil, count: index + 1 - classes.count) }
        classes[index] = Declared(cls: cls, members: members)
        pthread_mutex_unlock(&lock)
    }

    /// Every class declared so far, by id.
    var all: [Declared] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return classes.compactMap { $0 }
    }

    subscript(id: Int32) -> Declared? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return id >= 0 && Int(id) < classes.count ? classes[Int(id)] : nil
    }

    /// Methods, then the fields whose names are not methods' (a method wins, as it always did),
    /// sorted by their UTF-8 bytes as `fs_find_member` compares them.
    private static func sortedMembers(_ cls: LuaClass) -> UnsafePointer<fs_members> {
        var entries: [(name: String, method: LuaFunction?, field: Int)] = cls.methods.map { ($0.key, $0.value, 0) }
        for (i, name) in cls.fields.enumerated() where cls.methods[name] == nil { entries.append((name, nil, i + 1)) }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let sorted = UnsafeMutablePointer<fs_member>.allocate(capacity: max(entries.count, 1))
        for (k, e) in entries.enumerated() {
            sorted[k] = fs_member(name: strdup(e.name), length: e.name.utf8.count, method: e.method, field: lua_Integer(e.field))
        }
        let members = UnsafeMutablePointer<fs_members>.allocate(capacity: 1)
        members.initialize(to: fs_members(sorted: sorted, count: Int32(entries.count)))
        return UnsafePointer(members)
    }
}

extension LuaState {
    /// Declares a class; its metatable is made in this state when its first object is pushed.
    public func register(_ cls: LuaClass) {
        Self.declare(cls)
    }

    /// Declares a class for every state of the process.
    public static func declare(_ cls: LuaClass) {
        DeclaredClasses.shared.declare(cls)
    }
}

extension LuaStack {
    /// Creates the metatable of a class and keeps it in the registry. Its methods and field ids
    /// are made the first time a script uses them (`fs_pushindexer`): a batch run makes a state
    /// per font, and a script uses a few of a class's hundred members.
    func makeMetatable(_ declared: DeclaredClasses.Declared) {
        let s = self, cls = declared.cls
        lua_createtable(L, 0, 16)
        let meta = lua_gettop(L)
        s.push(cls.name); s.setField("__name", in: meta)
        s.push(false); s.setField("__metatable", in: meta)
        s.push(cls.summary); s.setField("__summary", in: meta)
        s.push(Int(cls.id)); s.setField("__classid", in: meta)

        // The member cache: methods (each with the metatable as upvalue 1 for a cheap self check)
        // and field ids, as they are first used. Kept in the registry too, so help() can name a
        // method given as a value (face.setKerning), which was cached when it was read.
        lua_createtable(L, 0, 0)
        let cache = lua_gettop(L)
        s.pushValue(at: cache); s.setRegistryField("fontshell.methods." + cls.name)
        let members = UnsafeMutableRawPointer(mutating: declared.members)

        s.pushValue(at: cache); lua_pushlightuserdata(L, members); s.pushValue(at: meta)
        fs_pushindexer(L, cls.get)
        s.setField("__index", in: meta)
        s.pushValue(at: cache); lua_pushlightuserdata(L, members); s.pushValue(at: meta)
        fs_pushnewindexer(L, cls.set ?? LuaClass.readOnly)
        s.setField("__newindex", in: meta)
        fs_pop(L, 1)   // the cache
        for (key, fn) in [("__tostring", cls.tostring), ("__len", cls.len), ("__pairs", cls.pairs), ("__call", cls.call)] {
            guard let fn else { continue }
            s.pushValue(at: meta)
            fs_pushfunction(L, fn, 1)
            s.setField(key, in: meta)
        }
        fs_pushfunction(L, LuaClass.release, 0); s.setField("__gc", in: meta)
        fs_pushfunction(L, LuaClass.release, 0); s.setField("__close", in: meta)
        fs_pushfunction(L, LuaClass.equal, 0); s.setField("__eq", in: meta)
        fs_store_class_metatable(L, cls.id)
    }
}

extension LuaClass {
    static let readOnly: LuaFunction = { state in
        LuaCall.run(state, "__newindex") { call in
            let key = call.stack.describe(at: 2)
            throw LuaBridgeError("cannot set '\(key)': \(call.stack.typeName(at: 1)) fields are read-only")
        }
    }
}

extension LuaStack {
    /// Makes the metatable of every declared class that has none yet in this state (otherwise
    /// made when its first object is pushed): for a template, whose uses then find them made.
    public func makeClassMetatables() {
        for declared in DeclaredClasses.shared.all {
            pushClassMetatable(declared.cls.id)
            pop()
        }
    }

    /// Pushes the metatable of class `classID`, made in this state first if it has none yet
    /// (nil for an undeclared class).
    private func pushClassMetatable(_ classID: Int32) {
        fs_push_class_metatable(L, classID)
        if lua_type(L, -1) == LUA_TNIL, let declared = DeclaredClasses.shared[classID] {
            pop()
            makeMetatable(declared)
            fs_push_class_metatable(L, classID)
        }
    }

    /// Pushes a new userdata of class `classID` holding one retained reference to `object` and
    /// an integer `payload` (read back with `LuaCall.payload`).
    public func push(object: AnyObject, classID: Int32, payload: Int = 0) {
        // Each use of a template closes the state, and the close releases what its objects hold:
        // an object frozen into the template would be released again after every font.
        precondition(fs_template_building(L) == 0, "a Lua template cannot hold a Swift object")
        guard let raw = fs_newuserdata(L, MemoryLayout<LuaClass.Slot>.size) else { return }
        raw.assumingMemoryBound(to: LuaClass.Slot.self)
            .initialize(to: LuaClass.Slot(object: Unmanaged.passRetained(object).toOpaque(), payload: payload))
        pushClassMetatable(classID)
        lua_setmetatable(L, -2)
    }

    /// Member names (fields, then "method()") of the userdata at `index`, if it is one of ours.
    public func members(at index: Int32) -> [String] {
        guard lua_type(L, index) == LUA_TUSERDATA, lua_getmetatable(L, index) != 0 else { return [] }
        defer { pop() }
        getField("__classid", in: -1)
        defer { pop() }
        var isInteger: Int32 = 0
        let id = lua_tointegerx(L, -1, &isInteger)
        guard isInteger != 0, let cls = DeclaredClasses.shared[Int32(truncatingIfNeeded: id)]?.cls else { return [] }
        return cls.fields.sorted() + cls.methods.keys.sorted().map { $0 + "()" }
    }

    /// The class summary and name of the userdata at `index`, if it is one of ours.
    public func classInfo(at index: Int32) -> (name: String, summary: String)? {
        guard lua_type(L, index) == LUA_TUSERDATA, lua_getmetatable(L, index) != 0 else { return nil }
        defer { pop() }
        getField("__name", in: -1); let name = string(at: -1); pop()
        getField("__summary", in: -1); let summary = string(at: -1); pop()
        guard let name, let summary else { return nil }
        return (name, summary)
    }
}
