import LuaShim

/// A Lua state built once and put back exactly as it was built before each use: a batch worker
/// runs a script over thousands of fonts, each in a state of its own, and opening Lua's
/// libraries and installing FontShell's modules was a third of each font's job. The state's
/// memory until it is frozen lies in one region; when a use ends, the state is closed (its
/// finalizers run and everything the use allocated is freed) and the region is copied back, so
/// the next use finds the same bytes a fresh state built the same way would have: nothing one
/// font's script did is seen by the next.
///
/// One use at a time (`state()` refuses a second while the first is alive); not for sharing
/// between threads.
public final class LuaTemplate {
    private let L: OpaquePointer
    private var inUse = false

    /// Builds a template with `build`, which runs on the new state with the collector stopped.
    /// nil where templates are not used (AddressSanitizer builds: every block is malloc's
    /// there, for it to watch), when the state outgrew its region or when `build` failed: make
    /// fresh states instead.
    public init?(build: (LuaState) throws -> Void) {
        guard let state = fs_template_newstate() else { return nil }
        let lua = LuaState(state: state, ending: .keep)
        do {
            fs_gc_stop(state)
            try build(lua)
            lua.stack.truncate(to: 0)
            // Frozen with the collector stopped: each use restarts it after its own setup.
            guard fs_template_freeze(state) != 0 else { throw LuaBridgeError("the template outgrew its region") }
        } catch {
            fs_closestate(state)
            return nil
        }
        L = state
    }

    deinit { fs_closestate(L) }

    /// The state as frozen, its collector stopped (`LuaState.withCollectorStopped` around the
    /// use's own setup restarts it). Put back when the returned object goes.
    public func state() -> LuaState {
        precondition(!inUse, "a template's state is already in use")
        inUse = true
        return LuaState(state: L, ending: .reset(self))
    }

    func reset() {
        fs_template_reset(L)
        inUse = false
    }
}
