import LuaBridge

/// `help([x])`: what x offers. A class instance or name lists its fields and methods (a table
/// of fields such as face.hhea lists its own fields); a module (`preview`, `registry`,
/// `fontshell`, or its name as a string) lists its functions with one line each, and preview's
/// options; `help()` prints an overview and everything that has help.
enum Help {
    /// One line per module function: what it takes and returns.
    static let modules: [(name: String, summary: String, functions: [(String, String)])] = [
        (
            "fontshell", "opening fonts and looking around",
            [
                ("open(path)", "→ Font: a TrueType/OpenType font, collection, WOFF or WOFF2"),
                ("members(x)", "→ names of x's fields and methods (\"name()\")"),
                ("version", "FontShell's version string"),
            ]
        ),
        (
            "preview", "pictures of a face as it is in memory (PNG through Image:save)",
            [
                ("text(face, text [, options])", "→ Image: the text shaped and drawn"),
                ("label(face, text, {width =, height =, ...})", "→ Image: text placed in a box as a platform lays out a label"),
                ("sheet(images [, {columns =, captions =, captionSize =, gap =, background =}])", "→ Image: a contact sheet"),
                ("compare(a, b)", "→ Image (a | b | difference), {changedPixels, totalPixels, maxDifference, bounds}"),
                ("load(path)", "→ Image from a PNG"),
                ("appearance([kind,] options)", "sets default options (for every preview, or for those with kind = ...)"),
                ("resetAppearance()", "forgets the defaults"),
                (
                    "sweep(face, {field =, values =, text =, label =, columns =})",
                    "→ sheet Image, per-value results, best value (also face:sweep)"
                ),
                (
                    "glyph(glyph [, {size = 360}])",
                    "→ Image: the glyph large with its points, contour starts and directions, advance, metrics"
                ),
                ("glyphs(face.glyphs [, {from = 0, count = 100, size = 48}])", "→ Image: a grid of glyphs with ids and names"),
                ("specimen(face)", "→ Image: names, metrics, a waterfall, the first characters"),
            ]
        ),
        (
            "registry", "installed fonts (fontconfig on Linux, CoreText on macOS)",
            [
                (
                    "register(path or Font [, {scope = \"user\" or \"process\", replace =}])",
                    "installs a font (a Font with its edits) for the user (default, as the CLI) or this process; → descriptors"
                ),
                ("unregister(path or name)", "removes a font FontShell installed; → descriptors"),
                ("list([{scope =, family =}])", "→ descriptors of installed fonts"),
                ("find(name)", "→ the descriptor of a PostScript, full or family name, or nil"),
                ("missing{names...}", "→ {name =, fallback =} for each name no installed font answers to"),
                ("system{design = \"default\" | \"serif\" | \"monospaced\" | \"rounded\"}", "→ the platform's font for a role, or nil"),
                ("changed()", "→ whether the installed fonts changed since the last call"),
                ("repair()", "→ {adopted, forgotten, leftAlone}: FontShell's folder and its record made to agree"),
                (
                    "pick([filter [, {choose =, samples =, limit =}]])",
                    "→ Face: a live picker over installed families (type to filter, arrows, Enter), samples inline"
                ),
            ]
        ),
    ]

    static let help: LuaFunction = { L in
        LuaCall.run(L, "help") { call in
            let s = call.stack
            print(try text(for: call, s))
            return 0
        }
    }

    static func text(for call: LuaCall, _ s: LuaStack) throws -> String {
        if call.isNoneOrNil(1) { return overview() }
        if s.type(at: 1) == .function {
            guard let name = functionName(s, at: 1) else { return "help: this function is not one of FontShell's; " + index() }
            return entriesText(LuaReference.entries.filter { $0.name == name }, orName: name)
        }
        if let info = s.classInfo(at: 1) {
            var members = s.members(at: 1)
            if info.name == TableObject.className {
                let part = try call.object(1, TableObject.classID, TableObject.className, as: FacePart.self)
                if let fields = try? TableObject.table(part).fieldNames {
                    members = fields + members
                }
            }
            let fields = members.filter { !$0.hasSuffix("()") }, methods = members.filter { $0.hasSuffix("()") }
            var text = "\(info.name): \(info.summary)"
            if !fields.isEmpty { text += "\n  fields:  " + fields.joined(separator: ", ") }
            if !methods.isEmpty { text += "\n  methods:\n" + methodLines(info.name, methods.map { String($0.dropLast(2)) }) }
            return text
        }
        if let name = s.string(at: 1) {
            if let c = FontScript.classes.first(where: { $0.name == name }) {
                var text = "\(c.name): \(c.summary)"
                if !c.fields.isEmpty { text += "\n  fields:  " + c.fields.joined(separator: ", ") }
                if !c.methods.isEmpty { text += "\n  methods:\n" + methodLines(c.name, c.methods.keys.sorted()) }
                return text
            }
            if let m = modules.first(where: { $0.name == name }) { return moduleText(m) }
            if name == "preview options" || name == "options" { return previewOptionsText() }
            // A documented name, whole ("Face:setKerning", "preview.text") or its last part ("setKerning").
            let found = LuaReference.entries.filter { e in
                e.name == name || e.name.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) == name
            }
            if !found.isEmpty { return entriesText(found, orName: name) }
            return "help: nothing is called '\(name)'; " + index()
        }
        if s.type(at: 1) == .table {
            // check is a table one calls: check(face), check.run(…), check.list().
            s.getGlobal("check")
            let isCheck = s.rawEqual(1, -1)
            s.pop()
            if isCheck {
                return entriesText(LuaReference.entries.filter { $0.name == "check" || $0.name.hasPrefix("check.") }, orName: "check")
            }
            for m in modules {
                s.getGlobal(m.name)
                defer { s.pop() }
                if s.rawEqual(1, -1) { return moduleText(m) }
            }
        }
        return "help: no help for a \(s.typeName(at: 1)) value; " + index()
    }

    /// The name a function value has in FontShell: a global (`show`), a module's (`preview.text`)
    /// or a class's method (`Face:setKerning`), found by identity; nil for the user's own.
    static func functionName(_ s: LuaStack, at index: Int32) -> String? {
        let value = s.absolute(index)
        for global in ["show", "check", "help", "print"] {
            s.getGlobal(global)
            defer { s.pop() }
            if s.rawEqual(value, -1) { return global }
        }
        for module in modules.map(\.name) + ["check"] {
            s.getGlobal(module)
            defer { s.pop() }
            guard s.type(at: -1) == .table else { continue }
            for key in s.keys(ofTableAt: -1) {
                s.getField(key, in: -1)
                defer { s.pop() }
                if s.rawEqual(value, -1) { return module + "." + key }
            }
        }
        for c in FontScript.classes {
            guard s.getRegistryField("fontshell.methods." + c.name) == .table else { s.pop(); continue }
            defer { s.pop() }
            for key in c.methods.keys {
                s.getField(key, in: -1)
                defer { s.pop() }
                if s.rawEqual(value, -1) { return c.name + ":" + key }
            }
        }
        return nil
    }

    /// Signature and line of each entry.
    static func entriesText(_ entries: [(name: String, signature: String, summary: String)], orName name: String) -> String {
        guard !entries.isEmpty else { return "\(name): not documented yet (docs/lua-api.md)" }
        return entries.map { "\($0.signature)\n  \($0.summary)" }.joined(separator: "\n")
    }

    /// A class's methods, one a line: signature and what it does.
    static func methodLines(_ className: String, _ methods: [String]) -> String {
        methods.map { method in
            let entry = LuaReference.entries.first { $0.name == className + ":" + method }
            guard let entry else { return "    :\(method)(…)" }
            let signature = entry.signature.dropFirst(className.count)
            return "    \(signature)\n        \(entry.summary)"
        }.joined(separator: "\n")
    }

    static func moduleText(_ m: (name: String, summary: String, functions: [(String, String)])) -> String {
        let width = m.functions.map(\.0.count).max() ?? 0
        var lines = ["\(m.name): \(m.summary)"]
        for (f, what) in m.functions {
            lines.append("  \(m.name).\(f)\(String(repeating: " ", count: max(1, width - f.count + 2)))\(what)")
        }
        if m.name == "preview" { lines.append(previewOptionsText()) }
        return lines.joined(separator: "\n")
    }

    static func previewOptionsText() -> String {
        "preview options (text, label, and sweep's label table): " + PreviewModule.optionNames.joined(separator: ", ")
            + "\n  (docs/previews.md describes each; preview.appearance{...} sets defaults)"
    }

    static func index() -> String {
        "help covers the modules " + modules.map(\.name).joined(separator: ", ") + " and the classes "
            + FontScript.classes.map(\.name).joined(separator: ", ") + ": help(face), help(preview), help(\"Glyph\")"
    }

    static func overview() -> String {
        FontScript.overview + "\n" + index()
    }
}
