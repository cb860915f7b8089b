import FontModel
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Font checks written in Lua: `Checks/<area>/<id>.lua`, each returning
/// `{id, title, rationale, severity, check = function(face, report) ... end [, fix =, applies =,
/// fontbakery =, outlines =]}`. The Swift side finds and reads the files (checks run in sandboxed
/// states too, which have no io); `LuaPrograms/check-runner.lua` loads each in an environment of
/// its own, runs it over faces and applies fixes. `check(face)` in the REPL, `fontshell check`
/// and its batch workers all run through it. docs/checks.md lists the shipped checks.
public enum CheckModule {
    /// The checks shipped with FontShell: `$FONTSHELL_CHECKS`, else a `Checks` folder beside
    /// the executable (`FontShell_FontScript.resources/Checks`, where older builds copied it),
    /// else the source tree this was built from.
    public static func shippedDirectory() -> String? {
        if let env = getenv("FONTSHELL_CHECKS") { return String(cString: env) }
        let exe = FontScript.executablePath()
        let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var candidates = [
            dir + "/Checks", dir + "/FontShell_FontScript.resources/Checks",
            // Test bundles live one level down from the build folder.
            dir + "/../FontShell_FontScript.resources/Checks",
        ]
        // Sources/FontScript/Modules/CheckModule.swift → Sources/FontScript/Checks
        let source = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        candidates.append(source + "/Checks")
        return candidates.first { isDirectory($0) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every `<area>/<id>.lua` below each folder, sorted by id: `{id, path, source}`, or
    /// `{id, path, error}` for a file that cannot be read. A later folder's check replaces an
    /// earlier one with the same id (a user's folder can override a shipped check).
    static func sources(in directories: [String]) -> [(id: String, path: String, source: [UInt8]?, error: String?)] {
        var byID: [String: (String, String, [UInt8]?, String?)] = [:]
        for dir in directories {
            for area in names(in: dir).sorted() where isDirectory(dir + "/" + area) && !area.hasPrefix(".") {
                for file in names(in: dir + "/" + area).sorted() where file.hasSuffix(".lua") {
                    let id = area + "/" + String(file.dropLast(4))
                    let path = dir + "/" + area + "/" + file
                    if let bytes = readFile(path, limit: 1 << 20) {   // a check is a small file
                        byID[id] = (id, path, bytes, nil)
                    } else {
                        byID[id] = (id, path, nil, "cannot read \(path): \(String(cString: strerror(errno)))")
                    }
                }
            }
        }
        return byID.keys.sorted().compactMap { byID[$0] }
    }

    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// check.sources(dirs) → list of {id =, path =, source =} or {id =, path =, error =}.
    static let sourcesFunction: LuaFunction = { L in
        LuaCall.run(L, "check.sources") { call in
            let s = call.stack
            var dirs: [String] = []
            if s.type(at: 1) == .table {
                dirs = try s.items(ofListAt: 1) { _ in
                    guard let d = s.string(at: -1) else { throw LuaArgumentError(1, "a list of folder paths expected") }
                    return d
                }
            }
            if dirs.isEmpty, let shipped = shippedDirectory() { dirs = [shipped] }
            let found = sources(in: dirs)
            s.pushTable(arrayCount: Int32(found.count))
            for (i, f) in found.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(f.id); s.setField("id", in: -2)
                s.push(f.path); s.setField("path", in: -2)
                if let source = f.source { s.push(bytes: source); s.setField("source", in: -2) }
                if let error = f.error { s.push(error); s.setField("error", in: -2) }
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    /// A sandboxed state reads only the shipped checks (no folder of its choosing).
    static let shippedSourcesFunction: LuaFunction = { L in
        if let L { LuaStack(L).truncate(to: 0) }
        return sourcesFunction(L)
    }

    /// Installs `check` as a stand-in that loads the runner when first used: a batch run makes
    /// a Lua state per font, and most scripts never check anything.
    static func install(in lua: LuaState, sandboxed: Bool) throws {
        try lua.stack.load(LuaProgram.checkStub)
        lua.stack.push(function: loadRunner)
        lua.stack.push(function: sandboxed ? shippedSourcesFunction : sourcesFunction)
        try lua.call(arguments: 2, results: 0)
    }

    /// The runner compiled (from the process's bytecode after the first time), as a function.
    static let loadRunner: LuaFunction = { L in
        LuaCall.run(L, "check") { call in
            try call.stack.load(LuaProgram.checkRunner)
            return 1
        }
    }

    /// A batch worker's job for `fontshell check`: every selected check over every face of the
    /// font, fixes applied and the font saved when asked; the record lists each result.
    public static func run(
        fontPath: String, directories: [String], profile: String, only: [String],
        fix: Bool, inPlace: Bool
    ) -> FontJob.Record {
        let start = monotonicSeconds()
        let lua = LuaState()
        let s = lua.stack
        do {
            try FontScript.install(in: lua, sandboxed: false)
            try lua.stack.load(LuaProgram.checkWorker)
            s.push(fontPath)
            s.push(strings: directories)
            s.push(profile)
            s.push(strings: only)
            s.push(fix)
            s.push(inPlace)
            try lua.call(arguments: 6, results: 2)
            // The record is finished here so its time includes the save.
            let failed = s.truthy(at: -1)
            s.pop()
            s.push(FontJob.rounded(monotonicSeconds() - start))
            s.setField("seconds", in: -2)
            try lua.load("return fontshell.json(...)", name: "=(check record)", cached: true)
            s.insert(at: -2)
            try lua.call(arguments: 1, results: 1)
            return FontJob.Record(json: s.string(at: -1) ?? "", failed: failed)
        } catch {
            return FontJob.failure(path: fontPath, seconds: monotonicSeconds() - start, error: "\(error)")
        }
    }
}
