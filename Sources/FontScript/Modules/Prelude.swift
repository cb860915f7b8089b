import LuaBridge

/// Parts of the `fontshell` module written in Lua (LuaPrograms/prelude.lua): the REPL's pretty-printer and completion,
/// loaded the first time either is asked for (a batch run makes a state per font and needs
/// neither; `fontshell.json` is Swift, LuaJSON).
enum Prelude {
    /// Gives the `fontshell` table (on top of the stack) a metatable whose __index loads the
    /// prelude when `pretty` or `complete` is first read.
    static func installOnFirstUse(_ s: LuaStack) {
        s.pushTable(fieldCount: 1)
        s.push(function: loadOnFirstUse)
        s.setField("__index", in: -2)
        s.setMetatable(of: -2)
    }

    static let loadOnFirstUse: LuaFunction = { L in
        LuaCall.run(L, "fontshell") { call in
            let s = call.stack
            guard let key = s.string(at: 2), key == "pretty" || key == "complete" else { s.pushNil(); return 1 }
            try load(intoTableAt: 1, s)
            _ = s.getField(key, in: 1)
            return 1
        }
    }

    /// Runs the prelude over the `fontshell` table at `index` (and drops the loading metatable).
    static func load(intoTableAt index: Int32, _ s: LuaStack) throws {
        let t = s.absolute(index)
        s.pushNil()
        s.setMetatable(of: t)
        try s.load(LuaProgram.prelude)
        s.pushValue(at: t)
        try s.call(arguments: 1, results: 0)
    }
}
