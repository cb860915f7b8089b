import FontModel
import JSONText
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One font's share of a batch run (`fontshell run SCRIPT --each GLOB`): the script runs over
/// the font in a Lua state of its own, bound as in the REPL, and what it returns becomes one
/// JSON object. The state is closed before the call returns, so nothing of the font outlives it.
public enum FontJob {
    /// One JSON object (a single line) and whether the font failed.
    public struct Record: Sendable {
        public let json: String
        public let failed: Bool
        public init(json: String, failed: Bool) { self.json = json; self.failed = failed }
    }

    /// Names FontShell writes into every record; a script's result fields with these names are
    /// moved under `script` rather than lost.
    public static let reservedFields = ["path", "ok", "faces", "seconds", "error", "traceback", "printed", "script", "warning"]

    /// Runs one script over font after font, each in a state of its own. The part of a state
    /// that is the same for every font (Lua's libraries, FontShell's modules, `print`'s capture,
    /// `arg`, the compiled script) is built once as a `LuaTemplate` and put back before each
    /// font; where templates are not used (or the script does not compile) every font gets a
    /// fresh state built the same way.
    public final class Runner {
        let script: [UInt8], scriptPath: String, arguments: [String], sandboxed: Bool
        private lazy var template: LuaTemplate? = LuaTemplate { lua in
            try self.prepare(lua)
            lua.stack.makeClassMetatables()
        }

        public init(script: [UInt8], scriptPath: String, arguments: [String], sandboxed: Bool) {
            self.script = script; self.scriptPath = scriptPath; self.arguments = arguments; self.sandboxed = sandboxed
        }

        /// Runs the script over the font at `fontPath`. `print` is captured into the record's
        /// `printed` list, so the JSON lines on stdout stay whole.
        public func run(fontPath: String) -> Record {
            let start = monotonicSeconds()
            var faces: Int?
            let lua = template?.state() ?? LuaState()
            let fresh = template == nil
            let s = lua.stack
            do {
                // The fixed part of every font's job: tables that stay alive, nothing to collect.
                try lua.withCollectorStopped {
                    if fresh { try prepare(lua) }
                    let font = try Font(path: fontPath)
                    faces = font.faces.count
                    try FontScript.bind(fonts: [(font, fontPath)], in: lua)
                    _ = s.getRegistryField(scriptKey)
                }
                for a in arguments { s.push(a) }
                try lua.call(arguments: Int32(arguments.count), results: 1)
                return finish(lua, path: fontPath, faces: faces, start: start, error: nil)
            } catch {
                // What the script left is garbage now: collected, or a script that ran out of
                // memory would leave none for its record, which would then blame the JSON.
                s.truncate(to: 0)
                lua.collectGarbage()
                s.pushNil()
                let e = error as? LuaError ?? LuaError(message: String(describing: error))
                return finish(lua, path: fontPath, faces: faces, start: start, error: e)
            }
        }

        /// What every font's state has before its font is bound: the modules, `print`'s
        /// capture, `arg` and the script, compiled (once per process), in the registry.
        private func prepare(_ lua: LuaState) throws {
            let s = lua.stack
            try FontScript.install(in: lua, sandboxed: sandboxed)
            try s.load(LuaProgram.batchCapture)
            try lua.call(results: 1)
            s.setRegistryField(printedKey)
            pushArgTable(s, scriptPath: scriptPath, arguments: arguments, sandboxed: sandboxed)
            s.setGlobal("arg")
            try lua.load(bytes: strippingHashLine(script), name: "@" + scriptPath, textOnly: sandboxed, cached: true)
            s.setRegistryField(scriptKey)
        }
    }

    /// A record for a font whose job did not finish (a timeout, a worker that died), written
    /// without Lua.
    public static func failure(path: String, seconds: Double, error: String) -> Record {
        Record(
            json: JSONText.write(["error": error, "ok": false, "path": path, "seconds": rounded(seconds)] as [String: Any]), failed: true)
    }

    // MARK: pieces

    static let printedKey = "fontshell.batch.printed"
    static let scriptKey = "fontshell.batch.script"

    /// Turns the result on top of the stack into the record.
    static func finish(_ lua: LuaState, path: String, faces: Int?, start: Double, error: LuaError?) -> Record {
        let s = lua.stack
        let seconds = rounded(monotonicSeconds() - start)
        do {
            let result = s.absolute(-1)
            try s.load(LuaProgram.batchFinish)
            s.push(path)
            if let faces { s.push(faces) } else { s.pushNil() }
            s.push(seconds)
            s.pushValue(at: result)
            _ = s.getRegistryField(printedKey)
            if let error { s.push(error.message) } else { s.pushNil() }
            if let error, !error.traceback.isEmpty { s.push(error.traceback) } else { s.pushNil() }
            s.push(strings: reservedFields)
            try lua.call(arguments: 8, results: 2)
            let json = s.string(at: -2) ?? ""
            return Record(json: json, failed: s.truthy(at: -1))
        } catch {
            return failure(path: path, seconds: seconds, error: "\(error)")
        }
    }

    /// `arg` as lua.c builds it: arg[0] the script, arg[1...] its arguments, negative indices
    /// the interpreter's own.
    static func pushArgTable(_ s: LuaStack, scriptPath: String, arguments: [String], sandboxed: Bool) {
        let interpreter = ["fontshell", "run"] + (sandboxed ? ["--sandbox"] : [])
        s.pushTable(arrayCount: Int32(arguments.count), fieldCount: Int32(interpreter.count + 1))
        for (i, a) in interpreter.enumerated() { s.push(a); s.setIndex(i - interpreter.count, in: -2) }
        s.push(scriptPath); s.setIndex(0, in: -2)
        for (i, a) in arguments.enumerated() { s.push(a); s.setIndex(i + 1, in: -2) }
    }

    static func rounded(_ seconds: Double) -> Double { (seconds * 1e4).rounded() / 1e4 }

}
