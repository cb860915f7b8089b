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
    @usableFromInline let L: OpaquePointer
    /// Value helpers over this state's stack.
    public var stack: LuaStack { LuaStack(L) }

    /// What happens to the state when this object goes: closed, put back as a template froze it
    /// (LuaTemplate), or nothing (a template being built).
    enum Ending { case close, reset(LuaTemplate), keep }
    private let ending: Ending

    public init() {
        // nil would mean Lua could not start at all (no memory for the state itself).
        guard let state = fs_newstate() else {
            print("\(Self.programName): cannot create a Lua state")
            exit(70)
        }
        L = state
        ending = .close
    }

    init(state: OpaquePointer, ending: Ending) {
        L = state
        self.ending = ending
    }

    /// The name the bridge's own messages start with ("NAME: cannot create a Lua state", "NAME:
    /// out of memory") and default chunks are named after; "lua" until the program sets it,
    /// once, before its first state.
    public static var programName: String { String(cString: fs_program_name()) }
    public static func setProgramName(_ name: String) { fs_set_program_name(name) }

    deinit {
        switch ending {
        case .close: fs_closestate(L)
        case .reset(let template): template.reset()
        case .keep: break
        }
    }

    /// The heap limit in bytes (FONTSHELL_LUA_MEMORY, default 1 GiB): past it allocations fail
    /// with Lua's "not enough memory" error, which scripts can catch with pcall.
    public var memoryLimit: Int {
        get { fs_memory_limit(L) }
        set { fs_set_memory_limit(L, max(newValue, 1 << 20)) }
    }
    public var memoryUsed: Int { fs_memory_used(L) }

    /// FONTSHELL_LUA_MEMORY as the user wrote it, checked: nil when unset or valid, else what is
    /// wrong with it ("abc", "-5G" and "99999999999999999999G" must not be ignored in silence).
    /// The accepted spellings are the C reader's: whole bytes, or a number with K, M or G.
    public static func memoryEnvironmentProblem(_ text: String? = getenv("FONTSHELL_LUA_MEMORY").map { String(cString: $0) }) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let units: [Character: Int] = ["k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20, "g": 1 << 30, "G": 1 << 30]
        var digits = Substring(text), unit = 1
        if let last = text.last, let u = units[last] { digits = digits.dropLast(); unit = u }
        let example = "give bytes or a number with K, M or G, e.g. 512M or 4G"
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return "FONTSHELL_LUA_MEMORY is '\(text)': \(example)"
        }
        guard let value = Int(digits), case let (bytes, overflow) = value.multipliedReportingOverflow(by: unit), !overflow else {
            return "FONTSHELL_LUA_MEMORY is '\(text)': more than this machine can address; \(example)"
        }
        guard bytes >= 1 << 20 else { return "FONTSHELL_LUA_MEMORY is '\(text)': the Lua heap needs at least 1M" }
        return nil
    }

    /// Runs `body` with the garbage collector stopped: for setting up a fresh state (the API,
    /// bound fonts), whose tables all stay alive, so collecting while it grows only traces them
    /// again and again. Not for running scripts: their garbage needs the collector.
    public func withCollectorStopped<T>(_ body: () throws -> T) rethrows -> T {
        fs_gc_stop(L)
        defer { fs_gc_restart(L) }
        return try body()
    }

    /// Collects all garbage now (what a failed chunk left on the heap, before more is needed).
    public func collectGarbage() { fs_gc_collect(L) }

    /// Stops the code this state runs, in any coroutine, with "instruction limit reached" after
    /// about `count` more VM instructions (a pcall cannot catch it for good); nil: no limit.
    /// Bounds untrusted chunks; time spent inside Swift functions is bounded by their own limits.
    public func limitInstructions(to count: Int?) { fs_set_instruction_limit(L, Int64(count ?? -1)) }

    /// Installs the process's Ctrl-C handler: code running through `callInterruptible` (in any
    /// coroutine) then stops with "interrupted!"; otherwise the signal is only noted.
    public static func installInterruptHandler() { fs_install_interrupt_handler() }
    /// Whether Ctrl-C arrived since the last call (clears it).
    public static func takeInterrupt() -> Bool { fs_take_interrupt() != 0 }
    /// Whether Ctrl-C was pressed and not taken yet (left for `takeInterrupt`).
    public static var interruptPending: Bool { fs_interrupted() != 0 }

    /// `call`, with Ctrl-C interrupting the code it runs.
    public func callInterruptible(arguments nargs: Int32 = 0, results nresults: Int32 = LUA_MULTRET) throws {
        fs_set_running(1)
        defer { fs_set_running(0) }
        try call(arguments: nargs, results: nresults)
    }

    public var top: Int32 { lua_gettop(L) }

    /// Compiles `code` and pushes the chunk; throws the syntax error without raising.
    /// `cached`: the program's own chunks (preludes, runners; each with a name of its own),
    /// compiled once per process and loaded from their bytecode in every later state (a batch
    /// run makes a state per font).
    public func load(_ code: String, name: String, cached: Bool = false) throws {
        try stack.load(code, name: name, cached: cached)
    }

    /// Compiles bytes (which may contain zeros) and pushes the chunk. `textOnly` refuses
    /// precompiled chunks, which Lua does not verify (malformed bytecode can crash the VM).
    /// `cached`: as for `load(_:name:cached:)`, for a script run once per font by a batch
    /// worker; the cached bytecode is Lua's own compilation of the text, so loading it again
    /// is safe even when `textOnly`.
    public func load(bytes: [UInt8], name: String, textOnly: Bool = false, cached: Bool = false) throws {
        try bytes.withUnsafeBytes { try stack.load($0, name: name, mode: textOnly ? "t" : nil, cached: cached) }
    }

    /// Calls the function below `nargs` arguments, protected, with a traceback on error.
    public func call(arguments nargs: Int32 = 0, results nresults: Int32 = LUA_MULTRET) throws {
        try stack.call(arguments: nargs, results: nresults)
    }

    /// Runs a chunk and returns how many values it left on the stack.
    @discardableResult
    public func run(_ code: String, name: String? = nil, cached: Bool = false) throws -> Int32 {
        let name = name ?? "=(\(Self.programName))"
        let base = top
        try load(code, name: name, cached: cached)
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

/// Bytecode of the program's own chunks, shared by every state of the process. Looked up by
/// chunk name and source length (hashing a long source on every load would cost as much as
/// compiling it), so each cached chunk needs a name of its own.
final class CompiledChunks: @unchecked Sendable {
    static let shared = CompiledChunks()
    private var chunks: [String: (length: Int, bytecode: [UInt8])] = [:]
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }

    func bytecode(length: Int, name: String) -> [UInt8]? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard let entry = chunks[name], entry.length == length else { return nil }
        return entry.bytecode
    }

    func store(_ bytecode: [UInt8], length: Int, name: String) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        chunks[name] = (length, bytecode)
    }
}
