import FontModel
import LuaBridge

/// Lua class `Font`: a file of one or more faces. `fontshell.open(path)` makes one.
enum FontObject {
    static let className = "Font"
    static var classID: Int32 { ScriptClass.font.rawValue }

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className, summary: "a font file: font.faces[1..n], font:face(i or name), font:save(path), font:close()",
            get: get)
        c.fields = Field.names
        c.methods = ["face": face, "save": save, "close": close, "subset": SubsetMethods.fontSubset]
        c.tostring = tostring
        c.len = length
        return c
    }

    static func push(_ stack: LuaStack, _ handle: FontHandle) { stack.push(object: handle, classID: classID) }

    /// The fields, by name, in the order the bridge numbers them (from 1).
    enum Field: String, ClassFields {
        case path, format, faces, isCollection, webFormat
    }
    static let fields = Field.allCases

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Font") { call in
            let handle = try call.trustedSelf(className, as: FontHandle.self)
            let font = try handle.get()
            guard let field = fields.numbered(try call.integer(3)) else {
                throw unknownField(className, call.stack.describe(at: 2), luaClass.fields + luaClass.methods.keys)
            }
            switch field {
            case .path: call.stack.push(handle.path)
            case .format: call.stack.push(font.format.rawValue)
            case .faces:
                call.stack.pushTable(arrayCount: Int32(font.faces.count))
                for i in font.faces.indices {
                    FaceObject.push(call.stack, try FaceRef(handle, i))
                    call.stack.setIndex(i + 1, in: -2)
                }
            case .isCollection: call.stack.push(font.isCollection)
            case .webFormat: if let web = font.webFormat { call.stack.push(web) } else { call.stack.pushNil() }
            }
            return 1
        }
    }

    /// font:face(i) with the 0-based index of the face in the file (as `face.index`), or
    /// font:face(name) with a PostScript or full name.
    static let face: LuaFunction = { L in
        LuaCall.run(L, "face") { call in
            let handle = try call.methodSelf(className, as: FontHandle.self)
            let font = try handle.get()
            if let name = call.stack.string(at: 2) {
                guard let f = font.face(named: name) else {
                    let names = font.faces.compactMap { try? $0.postScriptName }
                    throw LuaBridgeError("no face named '\(name)' (faces: \(names.joined(separator: ", ")))")
                }
                FaceObject.push(call.stack, try FaceRef(handle, f.index))
            } else {
                let i = try call.integer(2)
                guard font.faces.indices.contains(i) else {
                    throw LuaArgumentError(2, "no face \(i): faces are numbered 0 to \(font.faces.count - 1)")
                }
                FaceObject.push(call.stack, try FaceRef(handle, i))
            }
            return 1
        }
    }

    /// font:save(path [, {overwrite = true, force = true, format = "woff2", quality = 11,
    /// window = 22, transform = false, followSymlinks = false}]) → report table. The container
    /// follows the path's extension (.woff, .woff2, else sfnt) unless `format` names it;
    /// followSymlinks = false refuses a symlink at the path (for names a script derives).
    static let save: LuaFunction = { L in
        LuaCall.run(L, "save") { call in
            let handle = try call.methodSelf(className, as: FontHandle.self)
            let path = try call.string(2)
            let report = try handle.get().save(to: path, options: try saveOptions(call, 3))
            pushReport(call.stack, report)
            return 1
        }
    }

    /// The options table of font:save and face:save.
    static func saveOptions(_ call: LuaCall, _ i: Int32) throws -> SaveOptions {
        try call.options(i, ["overwrite", "force", "format", "quality", "window", "transform", "followSymlinks"])
        var format: OutputFormat?
        if let name = try call.stringOption(i, "format") {
            guard let f = OutputFormat(rawValue: name) else { throw LuaArgumentError(i, "format \"\(name)\": choose sfnt, woff or woff2") }
            format = f
        }
        let woff2 = WOFF2Options(
            quality: try call.intOption(i, "quality") ?? 11, window: try call.intOption(i, "window") ?? 22,
            transformGlyphs: try call.boolOption(i, "transform", default: true))
        return SaveOptions(
            overwriteInput: try call.boolOption(i, "overwrite", default: false),
            force: try call.boolOption(i, "force", default: false), format: format, woff2: woff2,
            followSymlinks: try call.boolOption(i, "followSymlinks", default: true))
    }

    static func pushReport(_ stack: LuaStack, _ report: SaveReport) {
        stack.pushTable(fieldCount: 7)
        stack.push(report.path ?? ""); stack.setField("path", in: -2)
        stack.push(report.bytesWritten); stack.setField("bytesWritten", in: -2)
        stack.push(strings: report.reencodedTables); stack.setField("reencoded", in: -2)
        stack.push(strings: report.recalculated); stack.setField("recalculated", in: -2)
        stack.push(report.tableRecords); stack.setField("tableRecords", in: -2)
        stack.push(report.distinctTables); stack.setField("distinctTables", in: -2)
        if let container = report.container { stack.push(container); stack.setField("container", in: -2) }
    }

    /// font:close(): lets the file go; every face, table and glyph from it then refuses use.
    static let close: LuaFunction = { L in
        LuaCall.run(L, "close") { call in
            try call.methodSelf(className, as: FontHandle.self).font = nil
            return 0
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let handle = try call.methodSelf(className, as: FontHandle.self)
            let name = handle.path.split(separator: "/").last.map(String.init) ?? handle.path
            if let font = handle.font {
                call.stack.push("<Font \(name): \(font.isCollection ? "collection of \(font.faces.count) faces" : font.format.rawValue)>")
            } else {
                call.stack.push("<Font \(name): closed>")
            }
            return 1
        }
    }

    static let length: LuaFunction = { L in
        LuaCall.run(L, "__len") { call in
            call.stack.push(try call.methodSelf(className, as: FontHandle.self).get().faces.count)
            return 1
        }
    }
}
