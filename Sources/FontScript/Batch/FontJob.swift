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

    /// Runs `script` (source bytes) over the font at `fontPath`. `print` is captured into the
    /// record's `printed` list, so the JSON lines on stdout stay whole.
    public static func run(
        script: [UInt8], scriptPath: String, fontPath: String, arguments: [String],
        sandboxed: Bool
    ) -> Record {
        let start = monotonicSeconds()
        var faces: Int?
        let lua = LuaState()
        let s = lua.stack
        do {
            // The fixed part of every font's job: tables that stay alive, nothing to collect.
            try lua.withCollectorStopped {
                try FontScript.install(in: lua, sandboxed: sandboxed)
                try s.load(LuaProgram.batchCapture)
                try lua.call(results: 1)
                s.setRegistryField(printedKey)
                let font = try Font(path: fontPath)
                faces = font.faces.count
                try FontScript.bind(fonts: [(font, fontPath)], in: lua)
                pushArgTable(s, scriptPath: scriptPath, arguments: arguments, sandboxed: sandboxed)
                s.setGlobal("arg")
                // Compiled once per worker: every font runs the same script.
                try lua.load(bytes: strippingHashLine(script), name: "@" + scriptPath, textOnly: sandboxed, cached: true)
            }
            for a in arguments { s.push(a) }
            try lua.call(arguments: Int32(arguments.count), results: 1)
            return finish(lua, path: fontPath, faces: faces, start: start, error: nil)
        } catch let e as LuaError {
            s.truncate(to: 0)
            s.pushNil()
            return finish(lua, path: fontPath, faces: faces, start: start, error: e)
        } catch {
            s.truncate(to: 0)
            s.pushNil()
            return finish(lua, path: fontPath, faces: faces, start: start, error: LuaError(message: String(describing: error)))
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
