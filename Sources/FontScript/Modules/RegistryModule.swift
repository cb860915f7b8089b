import FontModel
import FontRegistry
import LuaBridge
#if canImport(Glibc)
import Glibc
#endif

/// Lua module `registry`: install fonts for this process or the user, list and find what is
/// installed, report missing names, remove what FontShell installed (fontconfig on Linux,
/// CoreText on macOS).
enum RegistryModule {
    static let functions: [(String, LuaFunction)] = [
        ("register", register), ("unregister", unregister), ("list", list), ("find", find),
        ("missing", missing), ("system", system), ("changed", changed), ("repair", repair), ("pick", FontPicker.pick),
    ]

    /// fontconfig's configuration is process-wide, so one registry serves every state.
    nonisolated(unsafe) static var shared: FontRegistry?

    static func registry() throws -> FontRegistry {
        if let shared { return shared }
        let r = try makeRegistry()
        shared = r
        return r
    }

    static func install(in lua: LuaState) {
        lua.registerModule("registry", functions: functions)
    }

    static func push(_ s: LuaStack, _ d: FontDescriptor?) {
        guard let d else { s.pushNil(); return }
        s.pushTable(fieldCount: 10)
        for (key, value) in [
            ("postscriptName", d.postScriptName), ("fullName", d.fullName), ("family", d.family),
            ("style", d.style), ("path", d.path),
        ] {
            s.push(value); s.setField(key, in: -2)
        }
        s.push(d.weight); s.setField("weight", in: -2)
        s.push(d.width); s.setField("width", in: -2)
        s.push(d.faceIndex); s.setField("faceIndex", in: -2)
        if let scope = d.scope { s.push(scope); s.setField("scope", in: -2) }
        s.push(d.registeredByFontShell); s.setField("registeredByFontShell", in: -2)
    }

    static func push(_ s: LuaStack, _ list: [FontDescriptor]) {
        s.pushTable(arrayCount: Int32(list.count))
        for (i, d) in list.enumerated() { push(s, d); s.setIndex(i + 1, in: -2) }
    }

    /// registry.register(path or Font [, {scope = "user" (default) | "process", replace = false}]) → descriptors.
    /// A Font (edits included) is saved to a temporary file first, which is what gets registered.
    static let register: LuaFunction = { L in
        LuaCall.run(L, "register") { call in
            try call.options(2, ["scope", "replace"])
            // The same default as `fontshell registry register`: the user's fonts.
            let scope = try RegistryScope(name: try call.stringOption(2, "scope") ?? "user")
            let replace = try call.boolOption(2, "replace", default: false)
            var path: String
            var scratch: String?
            if let p = call.stack.string(at: 1) {
                path = p
            } else {
                let handle = try call.object(1, FontObject.classID, "Font (or a path)", as: FontHandle.self)
                let font = try handle.get()
                // The PostScript name comes from the font: only its safe characters make the file name.
                let name = String(
                    ((try font.faces.first?.postScriptName) ?? "font").filter {
                        $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")
                    }.prefix(63))
                let folder = try privateTemporaryFolder()
                scratch = folder
                path = folder + "/" + (name.isEmpty ? "font" : name) + (font.isCollection ? ".ttc" : font.format == .cff ? ".otf" : ".ttf")
                try font.save(to: path)
            }
            // A user-scope font is copied into the registry's folder: the scratch copy can go.
            // A process-scope one is read by fontconfig while the process runs: it goes at exit.
            defer { if let scratch { if scope == .user { removeFolder(scratch) } else { removeAtExit(scratch) } } }
            push(call.stack, try registry().register(path: path, scope: scope, replace: replace))
            return 1
        }
    }

    static let unregister: LuaFunction = { L in
        LuaCall.run(L, "unregister") { call in
            push(call.stack, try registry().unregister(try call.string(1)))
            return 1
        }
    }

    /// registry.list{scope =, family =}
    static let list: LuaFunction = { L in
        LuaCall.run(L, "list") { call in
            try call.options(1, ["scope", "family"])
            let scope = try call.stringOption(1, "scope").map(RegistryScope.init(name:))
            push(call.stack, try registry().list(scope: scope, family: try call.stringOption(1, "family")))
            return 1
        }
    }

    static let find: LuaFunction = { L in
        LuaCall.run(L, "find") { call in
            push(call.stack, try registry().find(try call.string(1)))
            return 1
        }
    }

    /// registry.missing{names...} → list of {name =, fallback = descriptor or nil}
    static let missing: LuaFunction = { L in
        LuaCall.run(L, "missing") { call in
            _ = try call.table(1)
            let names = try call.stack.items(ofListAt: 1) { i in
                guard let name = call.stack.string(at: -1) else {
                    throw LuaArgumentError(1, "names must be strings (item \(i) is \(call.stack.typeName(at: -1)))")
                }
                return name
            }
            let result = try registry().missing(names)
            let s = call.stack
            s.pushTable(arrayCount: Int32(result.count))
            for (i, m) in result.enumerated() {
                s.pushTable(fieldCount: 2)
                s.push(m.name); s.setField("name", in: -2)
                push(s, m.fallback); s.setField("fallback", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    /// registry.system{design = "default" | "serif" | "monospaced" | "rounded"} → descriptor or nil
    static let system: LuaFunction = { L in
        LuaCall.run(L, "system") { call in
            try call.options(1, ["design"])
            push(call.stack, try registry().systemFont(design: try call.stringOption(1, "design") ?? "default"))
            return 1
        }
    }

    static let changed: LuaFunction = { L in
        LuaCall.run(L, "changed") { call in
            call.stack.push(try registry().changed())
            return 1
        }
    }

    /// registry.repair() → {adopted = {{path=, postscriptNames={...}}, ...}, forgotten = {...},
    /// leftAlone = {{path=, reason=}, ...}}: fonts in FontShell's folder missing from its record
    /// are adopted, records of vanished files dropped; nothing is deleted.
    static let repair: LuaFunction = { L in
        LuaCall.run(L, "repair") { call in
            let report = try registry().repair()
            let s = call.stack
            func push(_ files: [RegistryRepair.FontFile]) {
                s.pushTable(arrayCount: Int32(files.count))
                for (i, f) in files.enumerated() {
                    s.pushTable(fieldCount: 2)
                    s.push(f.path); s.setField("path", in: -2)
                    s.push(strings: f.postScriptNames); s.setField("postscriptNames", in: -2)
                    s.setIndex(i + 1, in: -2)
                }
            }
            s.pushTable(fieldCount: 3)
            push(report.adopted); s.setField("adopted", in: -2)
            push(report.forgotten); s.setField("forgotten", in: -2)
            s.pushTable(arrayCount: Int32(report.leftAlone.count))
            for (i, f) in report.leftAlone.enumerated() {
                s.pushTable(fieldCount: 2)
                s.push(f.path); s.setField("path", in: -2)
                s.push(f.reason); s.setField("reason", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            s.setField("leftAlone", in: -2)
            return 1
        }
    }

    /// A new folder only this user can read, with an unpredictable name (mkdtemp).
    static func privateTemporaryFolder() throws -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/fontshell-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw LuaBridgeError("cannot make a temporary folder in \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    static func removeFolder(_ folder: String) {
        for name in listFolder(folder) { unlink(folder + "/" + name) }
        rmdir(folder)
    }

    nonisolated(unsafe) static var foldersToRemove: [String] = []

    static func removeAtExit(_ folder: String) {
        if foldersToRemove.isEmpty { atexit { for f in RegistryModule.foldersToRemove { RegistryModule.removeFolder(f) } } }
        foldersToRemove.append(folder)
    }
}
