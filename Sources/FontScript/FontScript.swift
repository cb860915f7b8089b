import FontModel
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Lua API: modules `fontshell`, `registry` and `preview`, the classes Font, Face, Table,
/// Name, Cmap, Glyphs, Glyph, Image, KerningPairs, and `help`. docs/lua-api.md is the reference; a test checks that every name here is in it.
public enum FontScript {
    /// Every class, for registration, help and the reference check.
    static let classes: [LuaClass] = ScriptClass.allCases.map(\.luaClass)
    /// The classes are declared once per process, on the first state's install (declaring sorts
    /// each class's members for the bridge's lookups: not work for every font of a batch run).
    private static let classesDeclared: Bool = {
        for c in classes { LuaState.declare(c) }
        return true
    }()
    /// Functions of the `fontshell` module.
    static let moduleFunctions: [(String, LuaFunction)] = [("open", open), ("members", members), ("json", json)]

    /// Public names for the documentation check: "Face.familyName", "Glyph:copyFrom", "fontshell.open", ...
    public static var boundNames: [String] {
        var names =
            moduleFunctions.map { "fontshell.\($0.0)" } + [
                "help", "show", "fontshell.pretty", "fontshell.complete", "fontshell.json", "fontshell.version", "check", "check.run",
                "check.list", "check.load",
            ]
        names += RegistryModule.functions.map { "registry.\($0.0)" }
        names += PreviewModule.functions.map { "preview.\($0.0)" }
        for c in classes {
            names += c.fields.map { $0.contains("/") ? "\(c.name)[\"\($0)\"]" : "\(c.name).\($0)" }
            names += c.methods.keys.map { "\(c.name):\($0)" }
        }
        return names.sorted()
    }

    /// Registers the classes, the `fontshell` module and `help` in a state.
    ///
    /// `sandboxed`, for chunks nobody vouches for (the Lua fuzz target): no file is written by
    /// anything in the process from then on, the registry module is left out, and Lua's own
    /// ways out are removed (io, os but its clocks, package/require, dofile/loadfile, debug,
    /// precompiled chunks through `load`). Bound the work with `LuaState.limitInstructions`
    /// and `memoryLimit`.
    public static func install(in lua: LuaState, sandboxed: Bool = false) throws {
        _ = classesDeclared
        lua.registerModule("fontshell", functions: moduleFunctions, strings: [("version", FontShellVersion.string)])
        lua.stack.getGlobal("fontshell")
        Prelude.installOnFirstUse(lua.stack)
        lua.stack.pop(1)
        lua.register("help", Help.help)
        lua.register("show", Show.show)
        if !sandboxed { RegistryModule.install(in: lua) }
        PreviewModule.install(in: lua)
        try CheckModule.install(in: lua, sandboxed: sandboxed)
        if sandboxed {
            AtomicFile.refuseWrites()
            try lua.stack.load(LuaProgram.sandbox)
            try lua.call(results: 0)
        }
    }

    /// Pushes field `name` of the `fontshell` table at `index`, read raw, loading the Lua
    /// prelude first when the field is one of its functions (`pretty`, `complete`).
    public static func pushModuleField(_ name: String, ofTableAt index: Int32, _ s: LuaStack) {
        let t = s.absolute(index)
        guard s.getField(name, in: t) == .nil, name == "pretty" || name == "complete" else { return }
        s.pop(1)
        try? Prelude.load(intoTableAt: t, s)
        _ = s.getField(name, in: t)
    }

    /// fontshell.json(value) → its JSON text on one line (LuaJSON says how values are written).
    static let json: LuaFunction = { L in
        LuaCall.run(L, "json") { call in
            do {
                call.stack.push(bytes: try LuaJSON.encode(call.stack, at: 1))
            } catch let e as LuaJSON.Failure {
                call.stack.push("fontshell.json: " + e.description)   // raised without a position (as error(m, 0))
                throw LuaRaiseValue()
            }
            return 1
        }
    }

    /// fontshell.members(object) → names of its fields, and methods as "name()"; for tables of
    /// fields (hhea, OS/2 ...) the fields of that table's version.
    static let members: LuaFunction = { L in
        LuaCall.run(L, "members") { call in
            var names = call.stack.members(at: 1)
            if call.stack.classInfo(at: 1)?.name == TableObject.className {
                let part = try call.object(1, TableObject.classID, TableObject.className, as: FacePart.self)
                names = try TableObject.table(part).fieldNames + names
            }
            call.stack.push(strings: names)
            return 1
        }
    }

    /// Opens fonts and binds them as lua.c would bind arguments: `fonts` (all), `font` (the first)
    /// and `face` (its first face).
    public static func bind(fontPaths: [String], in lua: LuaState) throws {
        try bind(fonts: fontPaths.map { (try Font(path: $0), $0) }, in: lua)
    }

    /// `bind(fontPaths:in:)` for fonts already opened.
    public static func bind(fonts: [(Font, String)], in lua: LuaState) throws {
        let s = lua.stack
        s.pushTable(arrayCount: Int32(fonts.count))
        for (i, (font, path)) in fonts.enumerated() {
            let handle = FontHandle(font, path: path)
            FontObject.push(s, handle)
            if i == 0 {
                s.pushValue(at: -1); s.setGlobal("font")
                FaceObject.push(s, try FaceRef(handle, 0)); s.setGlobal("face")
            }
            s.setIndex(i + 1, in: -2)
        }
        s.setGlobal("fonts")
    }

    /// fontshell.open(path) → Font
    static let open: LuaFunction = { L in
        LuaCall.run(L, "open") { call in
            let path = try call.string(1)
            FontObject.push(call.stack, FontHandle(try Font(path: path), path: path))
            return 1
        }
    }

    /// This program's executable (for batch workers and the resources beside it).
    public static func executablePath() -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return CommandLine.arguments[0]
    }

    static let overview = """
        FontShell — explore and edit fonts in Lua. Glyph ids are 0-based, as in the spec.
          fontshell.open(path)          → Font      (the REPL binds font, face and fonts)
          font.faces[1..n], font:face(0-based index or PostScript name), font:save(path), font:close()
          face.hhea.ascender, face["OS/2"].usWinAscent, face.head.unitsPerEm   (typed fields)
          face.name[6], face.name[1] = "Family"                                (name records)
          face.cmap["a"], face.glyphs.A, face.glyphs[36], face:glyphFor("a")
          glyph.advance, glyph.bounds, glyph.contours, glyph:copyFrom(other, {metrics = true})
          face:rename{family = "New Family"}, face:rawTable("GSUB"), face:setRawTable(tag, bytes)
          face.GSUB.LookupList, face:features("liga"), face:lookups("GPOS"), face:kerning("A", "V")
          glyph:copyFrom(other, {metrics = true, layout = true})               (ligatures, kerning too)
          face:dump("hhea"), face:fuse(xml), face:validate()                   (TTX XML, checks)
          preview.label(face, "Sign In", {width = 200, height = 44, scale = 2, guides = true}):save("l.png")
          preview.text(face, "Hello"), preview.compare(a, b), face:sweep{field = "hhea.ascender", values = {...}, text = "Hi", label = {...}}
          registry.find("DejaVuSans"), registry.register(path), registry.missing{"Futura"}, registry.pick("Inter")
          show(face.glyphs.a), show(preview.text(face, "Hi"))                 (pictures in the terminal)
          check(face), face:subset{text = "Hello"}, face:location{wght = 700}, face:instance{wght = 700}
        help(object) lists what an object offers, help(face.setKerning) or help("setKerning") one
        function; docs/lua-api.md is the full reference.
        """

}

/// The Lua classes in registration order. A class's id (which marks its objects' userdata) is
/// its place in this list, so none is chosen by hand; each class reads its own as
/// `ScriptClass.<case>.rawValue`, a constant.
enum ScriptClass: Int32, CaseIterable {
    case font = 1, face, table, name, cmap, glyphs, glyph, image, kerning

    var luaClass: LuaClass {
        switch self {
        case .font: FontObject.luaClass
        case .face: FaceObject.luaClass
        case .table: TableObject.luaClass
        case .name: NameObject.luaClass
        case .cmap: CmapObject.luaClass
        case .glyphs: GlyphsObject.luaClass
        case .glyph: GlyphObject.luaClass
        case .image: ImageObject.luaClass
        case .kerning: KerningObject.luaClass
        }
    }
}
