import CLua
import LuaShim
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import LuaBridge

/// Counts live instances, to prove userdata release their Swift objects.
final class Counted {
    static let live = Atomic<Int>(0)
    let value: Int
    init(_ value: Int) { self.value = value; Counted.live.add(1, ordering: .relaxed) }
    deinit { Counted.live.subtract(1, ordering: .relaxed) }
}

/// A tiny class and functions exercising every path of the bridge.
enum Fixture {
    static let get: LuaFunction = { L in
        LuaCall.run(L, "__index") { call in
            let object = try call.trustedSelf("Counted", as: Counted.self)
            switch try call.integer(3) {
            case 1: call.stack.push(object.value); return 1
            default: throw LuaBridgeError("Counted has no field '\(call.stack.describe(at: 2))'")
            }
        }
    }
    static let add: LuaFunction = { L in
        LuaCall.run(L, "add") { call in
            let object = try call.methodSelf("Counted", as: Counted.self)
            let other = try call.object(2, countedID, "Counted", as: Counted.self)
            call.stack.push(object.value + other.value)
            return 1
        }
    }
    /// Class ids are process-wide, and FontScript's classes (1 up) are declared in this process
    /// too: the test class takes an id of its own.
    static let countedID: Int32 = 100
    static let make: LuaFunction = { L in
        LuaCall.run(L, "make") { call in
            call.stack.push(object: Counted(try call.integer(1)), classID: countedID)
            return 1
        }
    }
    /// The Many class: the getter returns the field id it was given; the setter raises naming it.
    static let fieldID: LuaFunction = { L in
        LuaCall.run(L, "__index") { call in
            call.stack.push(try call.integer(3))
            return 1
        }
    }
    static let setFieldID: LuaFunction = { L in
        LuaCall.run(L, "__newindex") { call in
            throw LuaBridgeError("set \(call.stack.describe(at: 2)): field \(try call.integer(4))")
        }
    }
    static let makeMany: LuaFunction = { L in
        LuaCall.run(L, "makeMany") { call in
            call.stack.push(object: Counted(0), classID: 101)
            return 1
        }
    }
    static let fail: LuaFunction = { L in
        LuaCall.run(L, "fail") { _ in throw LuaBridgeError("swift says no") }
    }
    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            call.stack.push("<Counted \(try call.methodSelf("Counted", as: Counted.self).value)>")
            return 1
        }
    }

    /// Pushes a string of n bytes from Swift: an allocation inside a Swift frame.
    static let big: LuaFunction = { L in
        LuaCall.run(L, "big") { call in
            call.stack.push(bytes: [UInt8](repeating: 0x78, count: try call.integer(1)))
            return 1
        }
    }

    static func state() -> LuaState {
        let lua = LuaState()
        var cls = LuaClass(id: countedID, name: "Counted", summary: "a counted test object", get: get)
        cls.fields = ["value"]
        cls.methods = ["add": add]
        cls.tostring = tostring
        lua.register(cls)
        lua.register("make", make)
        lua.register("fail", fail)
        lua.register("big", big)
        return lua
    }
}

@Suite(.serialized) struct LuaBridgeTests {
    func expectError(
        _ lua: LuaState, _ code: String, _ expected: String, traceback: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = lua.top
        do {
            try lua.run(code, name: "=test")
            Issue.record("no error for \(code)", sourceLocation: sourceLocation)
        } catch let e as LuaError {
            #expect(e.message.contains(expected), "\(e.message)", sourceLocation: sourceLocation)
            #expect(e.traceback.hasPrefix("stack traceback:") == traceback, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
        #expect(lua.top == before, "stack not balanced", sourceLocation: sourceLocation)
    }

    /// Counts calls of `noteFinalized` (the template test's finalizers).
    static let finalized = Atomic<Int>(0)
    static let noteFinalized: LuaFunction = { L in
        LuaCall.run(L, "noteFinalized") { _ in
            finalized.add(1, ordering: .relaxed)
            return 0
        }
    }

    /// A template's state is put back byte for byte after each use: what a use set, grew or
    /// broke is gone, its finalizers ran, and the heap is the size it was frozen at. (Under
    /// AddressSanitizer there are no templates: every block is malloc's.)
    @Test func aTemplateStateIsPutBackAfterEachUse() throws {
        let template = LuaTemplate { lua in
            lua.register("noteFinalized", Self.noteFinalized)
            try lua.run("x = 1; t = {n = 0}")
        }
        #expect((template == nil) == (getenv("ASAN_OPTIONS") != nil))
        guard let template else { return }
        var frozenUsed = 0
        for round in 0..<3 {
            let lua = template.state()
            if round == 0 { frozenUsed = lua.memoryUsed }
            #expect(lua.memoryUsed == frozenUsed)
            #expect(Self.finalized.load(ordering: .relaxed) == round)
            #expect(try lua.run("return x, t.n, y, getmetatable('').__index == string, type(string.upper)") == 5)
            #expect((1...5).map { lua.stack.describe(at: Int32(-6 + $0)) } == ["1", "0", "nil", "true", "function"])
            lua.stack.truncate(to: 0)
            try lua.run(
                """
                x = x + 1; t.n = t.n + 1; y = 'left'
                big = {} for i = 1, 10000 do big[i] = ('z'):rep(i % 300) end
                setmetatable({}, {__gc = noteFinalized})
                string.upper = nil; getmetatable('').__index = {}
                """)
            #expect(lua.memoryUsed > frozenUsed + 100_000)
        }
        #expect(Self.finalized.load(ordering: .relaxed) == 3)
    }

    @Test func aFailedAllocationIsAnOrdinaryErrorNotAnAbort() throws {
        let lua = Fixture.state()
        lua.memoryLimit = 64 << 20
        // In Lua's own frames: string.rep fails and pcall catches it (before: abort()).
        try lua.run("ok, e = pcall(string.rep, 'x', 2^30)")
        #expect(try lua.run("return ok, e") == 2)
        #expect(lua.stack.describe(at: -2) == "false")
        #expect(lua.stack.describe(at: -1).contains("not enough memory"))
        lua.stack.pop(2)
        // Inside a Swift function the allocation goes through, and the error is raised once it returns.
        try lua.run("ok, e = pcall(big, 80 * 2^20)")
        #expect(try lua.run("return ok, e") == 2)
        #expect(lua.stack.describe(at: -2) == "false")
        #expect(lua.stack.describe(at: -1).contains("not enough memory"))
        lua.stack.pop(2)
        // Unprotected, the error reaches Swift as a LuaError naming the limit; the state is still usable.
        expectError(
            lua, "local t = {} for i = 1, 1e9 do t[i] = ('y'):rep(1000) .. i end",
            "not enough memory (the Lua heap limit is 67108864 bytes; FONTSHELL_LUA_MEMORY sets it)", traceback: false)
        try lua.run("t = nil; collectgarbage()")
        #expect(try lua.run("return #big(1000)") == 1)
        #expect(lua.stack.describe(at: -1) == "1000")
        lua.stack.pop()
        #expect(lua.memoryUsed < 8 << 20)
    }

    /// The state's own small-block heap: blocks of every size class and across the 256-byte
    /// boundary (strings, tables growing and shrinking, closures) keep their contents, freed
    /// blocks are reused, and the accounting returns to where it started once they are garbage.
    @Test func smallBlocksKeepTheirContentsAndAreReused() throws {
        let lua = Fixture.state()
        try lua.run("collectgarbage(); collectgarbage()")
        let before = lua.memoryUsed
        try lua.run(
            """
            for round = 1, 3 do
              local keep = {}
              for n = 1, 600 do
                local t = {}
                for i = 1, n % 40 do t[i] = string.rep(string.char(65 + i % 26), n % 300) end
                for i = n % 40, 1, -1 do t[i] = nil end   -- shrink again
                t.s = string.rep("z", n) .. n
                t.f = function() return n end
                keep[n] = t
              end
              for n = 1, 600 do
                local t = keep[n]
                assert(t.s == string.rep("z", n) .. n and t.f() == n, "block " .. n .. " changed")
              end
              keep = nil
              collectgarbage(); collectgarbage()
            end
            """)
        let after = lua.memoryUsed
        #expect(after < before + 64 << 10, "\(before) → \(after)")
        // Reused rather than grown: another round does not raise the high-water mark much.
        try lua.run("local t = {} for i = 1, 20000 do t[i] = {i} end t = nil collectgarbage()")
        #expect(lua.memoryUsed < before + 64 << 10)
    }

    /// The bound for untrusted chunks: a loop that swallows errors with pcall, or hides in a
    /// coroutine, still stops; the state is usable again once the limit is lifted.
    @Test func anInstructionLimitStopsLoopsThatPcallCannotSwallow() throws {
        let lua = Fixture.state()
        lua.limitInstructions(to: 200_000)
        expectError(lua, "while true do pcall(function() end) end", "instruction limit reached")
        lua.limitInstructions(to: 200_000)
        expectError(lua, "coroutine.wrap(function() while true do pcall(error, 'x') end end)()", "instruction limit reached")
        lua.limitInstructions(to: 200_000)
        try lua.run("for i = 1, 1000 do end")   // well within the limit
        lua.limitInstructions(to: nil)
        #expect(try lua.run("local n = 0; for i = 1, 1e6 do n = n + 1 end; return n") == 1)
        #expect(lua.stack.integer(at: -1) == 1_000_000)
        lua.stack.pop()
    }

    @Test func valuesMethodsAndFields() throws {
        let lua = Fixture.state()
        let n = try lua.run("local a, b = make(2), make(40); return a:add(b), a.value, tostring(b), a == a, a == b")
        #expect(n == 5)
        #expect(lua.stack.describe(at: -5) == "42")
        #expect(lua.stack.describe(at: -4) == "2")
        #expect(lua.stack.string(at: -3) == "<Counted 40>")
        #expect(lua.stack.describe(at: -2) == "true" && lua.stack.describe(at: -1) == "false")
        lua.stack.pop(5)
        #expect(lua.top == 0)
    }

    @Test func everyErrorPathRaisesInLuaWithPositionAndKeepsTheStack() {
        let lua = Fixture.state()
        expectError(lua, "fail()", "test:1: swift says no")   // Swift throw
        expectError(lua, "make('x')", "bad argument #1 to 'make' (number expected, got string)")
        expectError(lua, "make(1.5)", "bad argument #1 to 'make' (number has no integer representation)")
        expectError(lua, "make(1):add(3)", "bad argument #1 to 'add' (Counted expected, got number)")
        expectError(lua, "local m = make(1); m.add(4, 5)", "bad argument #1 to 'add' (Counted expected, got number)")
        expectError(lua, "local t = {add = make(1).add}; t:add(make(2))", "calling 'add' on bad self (Counted expected, got table)")
        expectError(lua, "local m = make(1); return m.nope", "Counted has no field 'nope'")
        expectError(lua, "local m = make(1); m.value = 3", "fields are read-only")
        expectError(lua, "error({})", "(error object is a table value)")   // error({})
        expectError(
            lua, "local m <close> = make(1); local x = m; do local y <close> = x end; return x.value", "attempt to use a closed Counted")
        expectError(lua, "return (", "unexpected symbol", traceback: false)   // syntax error
        expectError(lua, "local t = setmetatable({}, {__index = function() fail() end}); return t.x", "swift says no")
    }

    @Test func userdataReleaseTheirSwiftObjects() throws {
        let before = Counted.live.load(ordering: .relaxed)
        do {
            let lua = Fixture.state()
            try lua.run("keep = make(1); for i = 1, 1000 do local c = make(i) end; collectgarbage(); collectgarbage()")
            #expect(Counted.live.load(ordering: .relaxed) - before == 1)   // only `keep` is alive
            try lua.run("for i = 1, 100 do local ok = pcall(make, 'bad') end; collectgarbage()")
            #expect(Counted.live.load(ordering: .relaxed) - before == 1)
        }
        // lua_close runs every __gc.
        #expect(Counted.live.load(ordering: .relaxed) == before)
    }

    @Test func membersAndClassInfoForHelpAndCompletion() throws {
        let lua = Fixture.state()
        try lua.run("return make(1)")
        #expect(lua.stack.members(at: -1) == ["value", "add()"])
        #expect(lua.stack.classInfo(at: -1)?.name == "Counted")
        lua.stack.pop()
    }

    /// A class's members are found by name in its sorted list and learned by the state as they are
    /// used: names sharing prefixes, a name that is both a method and a field (the method wins, as
    /// it always did), keys that are neither (the getter gets 0), non-string keys, assignments.
    @Test func membersAreFoundByNameAndLearnedOnFirstUse() throws {
        let lua = LuaState()
        var cls = LuaClass(id: 101, name: "Many", summary: "a class of many members", get: Fixture.fieldID)
        let fieldNames = ["a", "ab", "abc", "b", "both", "z"] + (0..<40).map { "f\($0)" }
        cls.fields = fieldNames
        cls.methods = Dictionary(uniqueKeysWithValues: (["aa", "abcd", "both", "y"] + (0..<40).map { "m\($0)" }).map { ($0, Fixture.add) })
        cls.set = Fixture.setFieldID
        lua.register(cls)
        lua.register("makeMany", Fixture.makeMany)
        // Each field reaches the getter with its own 1-based id, twice (the second time cached).
        for (i, name) in fieldNames.enumerated() where name != "both" {
            #expect(try lua.run("local m = makeMany(); return m['\(name)'], m['\(name)']") == 2)
            #expect(lua.stack.integer(at: -2) == i + 1 && lua.stack.integer(at: -1) == i + 1, "\(name)")
            lua.stack.pop(2)
        }
        let n = try lua.run(
            """
            local m = makeMany()
            return type(m.both), rawequal(m.m7, m.m7), m.m7 ~= m.m8, type(m.abcd), type(m.aa), m[3], m.abcde, m.f, m['']
            """)
        #expect(n == 9)
        #expect(
            (1...9).map { lua.stack.describe(at: Int32($0 - 10)) } == [
                "function", "true", "true", "function", "function", "0", "0", "0", "0",
            ])
        lua.stack.pop(9)
        expectError(lua, "makeMany().f3 = 1", "set f3: field 10")
        expectError(lua, "makeMany().m3 = 1", "set m3: field 0")
        expectError(lua, "makeMany().nope = 1", "set nope: field 0")
        // A fresh state learns only what its script used: two methods and three fields here.
        let fresh = LuaState()
        fresh.register("makeMany", Fixture.makeMany)
        let count = try fresh.run(
            """
            local m = makeMany(); local _ = m.m1, m.m2, m.f1, m.f2, m.a, m.nothing
            local n = 0; for _ in pairs(debug.getregistry()['fontshell.methods.Many']) do n = n + 1 end; return n
            """)
        #expect(count == 1 && fresh.stack.integer(at: -1) == 5)
    }

    /// The readers modules use instead of the raw C API: lists, records, pairs, copies; all raw,
    /// so a table whose metamethods raise cannot unwind through the reading Swift frame.
    @Test func listAndRecordReadersAreRawAndKeepTheStack() throws {
        let lua = Fixture.state()
        let s = lua.stack
        let base = s.top
        try lua.run(
            """
            local trap = {__index = function() error("metamethod ran") end,
                          __newindex = function() error("metamethod ran") end}
            return setmetatable({10, 20.5, "x", n = 3, [true] = 1}, trap), setmetatable({}, trap)
            """)
        #expect(s.top == base + 2)
        let t = s.absolute(-2)
        #expect(s.type(at: t) == .table)
        #expect(s.items(ofListAt: t) { _ in s.number(at: -1) } == [10, 20.5, nil])
        #expect(s.items(ofListAt: t) { k in k } == [1, 2, 3])
        #expect(s.withField("n", in: t) { type in type == .number ? s.integer(at: -1) : nil } == 3)
        #expect(s.withField("missing", in: t) { $0 } == .nil)   // __index not called
        #expect(Set(s.keys(ofTableAt: t)) == ["<number>", "n", "<boolean>"])
        var pairs = 0
        s.forEachPair(inTableAt: t) { pairs += 1 }
        #expect(pairs == 5)
        s.copyFields(from: t, to: -1)   // __newindex not called
        #expect(s.length(at: -1) == 3)
        #expect(s.withField("n", in: -1) { _ in s.integer(at: -1) } == 3)
        #expect(s.integer(at: t) == nil && s.string(at: t) == nil)
        s.push(2.0); #expect(s.integer(at: -1) == 2 && !s.isInteger(at: -1)); s.pop()
        s.push(2.5); #expect(s.integer(at: -1) == nil); s.pop()
        struct Stop: Error {}
        #expect(throws: Stop.self) { try s.items(ofListAt: t) { k in if k == 2 { throw Stop() } } }
        #expect(throws: Stop.self) { try s.forEachPair(inTableAt: t) { throw Stop() } }
        #expect(s.top == base + 2)   // readers that threw popped what they pushed
        s.truncate(to: base)
    }
}
