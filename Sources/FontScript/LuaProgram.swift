import LuaBridge
import LuaPrograms

/// The program's own Lua chunks: the .lua files of Sources/LuaPrograms, embedded at build time.
/// Each is compiled once per process and loaded from its bytecode in every later state.
enum LuaProgram {
    case prelude, checkRunner, checkStub, checkWorker, batchCapture, batchFinish, sandbox

    private var embedded: fs_lua_program {
        switch self {
        case .prelude: fs_lua_prelude
        case .checkRunner: fs_lua_check_runner
        case .checkStub: fs_lua_check_stub
        case .checkWorker: fs_lua_check_worker
        case .batchCapture: fs_lua_batch_capture
        case .batchFinish: fs_lua_batch_finish
        case .sandbox: fs_lua_sandbox
        }
    }

    /// The chunk's name in Lua's messages and tracebacks.
    var chunkName: String {
        switch self {
        case .prelude: "=fontshell prelude"
        case .checkRunner: "=check runner"
        case .checkStub: "=check stub"
        case .checkWorker: "=(check worker)"
        case .batchCapture: "=(batch)"
        case .batchFinish: "=(batch record)"
        case .sandbox: "=(sandbox)"
        }
    }

    var text: UnsafeRawBufferPointer {
        let e = embedded
        return UnsafeRawBufferPointer(start: e.bytes, count: e.count)
    }
}

extension LuaStack {
    /// Pushes `program`'s chunk, compiled.
    func load(_ program: LuaProgram) throws {
        try load(text: program.text, name: program.chunkName, cached: true)
    }
}
