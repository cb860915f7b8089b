import FontScript
import LuaBridge
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer target: a Lua chunk → the FontShell API, in a sandboxed state (nothing written to
/// disk, no io/os/debug/registry, text chunks only) with DejaVu Sans bound as `font`/`face`, a
/// 64 MB heap and a budget of Lua instructions. Lua errors are the expected outcome of bad
/// chunks; a crash, a trap, a leak of the Lua stack or a hang in Swift is a bug.
let dejavuPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLua(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let lua = LuaState()
    lua.memoryLimit = 64 << 20
    do {
        try FontScript.install(in: lua, sandboxed: true)
        try FontScript.bind(fontPaths: [dejavuPath], in: lua)
    } catch {
        fatalError("the sandbox could not be set up: \(error)")
    }
    lua.limitInstructions(to: 200_000)
    let base = lua.top
    do {
        try lua.load(bytes: Array(UnsafeBufferPointer(start: data, count: size)), name: "=fuzz", textOnly: true)
        try lua.call(results: 0)
    } catch {}
    // Whatever the chunk did, the Swift side must leave the stack as it found it.
    precondition(lua.top == base, "Lua stack left at \(lua.top), expected \(base)")
    return 0
}

// SwiftPM links an executable's entry point (main) as fuzz_lua_main: hand libFuzzer's driver the target.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("fuzz_lua_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    // Scripts print; libFuzzer reports on stderr. Keep stdout quiet.
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 { dup2(null, 1); close(null) }
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzLua(data, size) }
}
