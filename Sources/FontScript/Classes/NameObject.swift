import FontModel
import LuaBridge

/// Lua class `Name`: the name table. `name[id]` reads the best record and assigning updates every
/// platform's record (or adds Windows and Mac ones); `:records()`, `:set()`, `:remove()` for detail.
enum NameObject {
    static let className = "Name"
    static var classID: Int32 { ScriptClass.name.rawValue }

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary: "name records: name[4], name[1] = 'Family', name:records(), name:set(id, text, {platform=}), name:remove(id)", get: get
        )
        c.set = set
        c.methods = ["records": records, "set": setRecord, "remove": remove, "ids": ids]
        c.tostring = tostring
        c.pairs = pairs
        return c
    }

    static func table(_ call: LuaCall, method: Bool) throws -> NameTable {
        let part = method ? try call.methodSelf(className, as: FacePart.self) : try call.trustedSelf(className, as: FacePart.self)
        return try part.face.get().name
    }

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Name") { call in
            let name = try table(call, method: false)
            guard call.stack.type(at: 2) == .number else {
                throw LuaBridgeError("name is indexed by name ID (a number), e.g. name[4]; methods: records, set, remove, ids")
            }
            if let s = name.string(try call.integer(2)) { call.stack.push(s) } else { call.stack.pushNil() }
            return 1
        }
    }

    static let set: LuaFunction = { L in
        LuaCall.run(L, "Name") { call in
            let name = try table(call, method: false)
            let id = try call.integer(2)
            if call.isNoneOrNil(3) { name.remove(id) } else { try name.set(id, try call.string(3)) }
            return 0
        }
    }

    // Built as cmap:subtables() builds its list (a record per row), with name's fields.
    /// name:records() → list of {platformID, encodingID, languageID, nameID, text (nil if not decodable), bytes}.
    static let records: LuaFunction = { L in
        LuaCall.run(L, "records") { call in
            let name = try table(call, method: true)
            let s = call.stack
            s.pushTable(arrayCount: Int32(name.records.count))
            for (i, r) in name.records.enumerated() {
                s.pushTable(fieldCount: 6)
                for (key, v) in [
                    ("platformID", r.platformID), ("encodingID", r.encodingID), ("languageID", r.languageID), ("nameID", r.nameID),
                ] {
                    s.push(v); s.setField(key, in: -2)
                }
                if let text = r.text { s.push(text); s.setField("text", in: -2) }
                s.push(bytes: r.bytes); s.setField("bytes", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    /// name:set(id, text [, {platform=, encoding=, language=}])
    static let setRecord: LuaFunction = { L in
        LuaCall.run(L, "set") { call in
            let name = try table(call, method: true)
            let id = try call.integer(2), text = try call.string(3)
            try call.options(4, ["platform", "encoding", "language"])
            try name.set(
                id, text, platformID: try call.intOption(4, "platform"), encodingID: try call.intOption(4, "encoding"),
                languageID: try call.intOption(4, "language"))
            return 0
        }
    }

    /// name:remove(id [, {platform=, encoding=, language=}]) → number of records removed.
    static let remove: LuaFunction = { L in
        LuaCall.run(L, "remove") { call in
            let name = try table(call, method: true)
            let id = try call.integer(2)
            try call.options(3, ["platform", "encoding", "language"])
            call.stack.push(
                name.remove(
                    id, platformID: try call.intOption(3, "platform"), encodingID: try call.intOption(3, "encoding"),
                    languageID: try call.intOption(3, "language")))
            return 1
        }
    }

    static let ids: LuaFunction = { L in
        LuaCall.run(L, "ids") { call in
            call.stack.push(integers: try table(call, method: true).nameIDs)
            return 1
        }
    }

    /// pairs(name): name ID → best string, in ID order.
    static let pairs: LuaFunction = { L in
        LuaCall.run(L, "__pairs") { call in
            let name = try table(call, method: true)
            let s = call.stack
            s.pushTable()
            for id in name.nameIDs { if let text = name.string(id) { s.push(text); s.setIndex(id, in: -2) } }
            return call.returnNextOverSnapshot()
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let name = try table(call, method: true)
            call.stack.push("<name: \(name.records.count) records, family '\(name.string(16) ?? name.string(1) ?? "?")'>")
            return 1
        }
    }
}
