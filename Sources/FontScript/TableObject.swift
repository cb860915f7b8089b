import FontModel
import LuaBridge

/// Lua class `Table`: a fixed-layout table (head, hhea, vhea, maxp, OS/2, post) whose fields are
/// read and written by their spec names, range-checked by the model's table description.
enum TableObject {
    static let className = "Table"
    static let classID: Int32 = 3

    static var luaClass: LuaClass {
        var c = LuaClass(id: classID, name: className, summary: "a table's fields by spec name: t.ascender, t.ascender = 900; pairs(t) lists them", get: get)
        c.set = set
        c.methods = ["fields": fields]
        c.tostring = tostring
        c.pairs = pairs
        return c
    }

    static func table(_ part: FacePart) throws -> FieldTable {
        guard let t = try part.face.get().fieldTable(part.tag) else { throw LuaBridgeError("the face has no '\(part.tag)' table") }
        return t
    }

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Table") { call in
            let part = try call.trustedSelf(className, as: FacePart.self)
            call.stack.push(try table(part).value(try call.string(2)))
            return 1
        }
    }

    static let set: LuaFunction = { L in
        LuaCall.run(L, "Table") { call in
            let part = try call.trustedSelf(className, as: FacePart.self)
            try table(part).set(try call.string(2), try call.fieldValue(3))
            return 0
        }
    }

    /// t:fields() → the field names of this table's version, in binary order.
    static let fields: LuaFunction = { L in
        LuaCall.run(L, "fields") { call in
            call.stack.push(strings: try table(try call.methodSelf(className, as: FacePart.self)).fieldNames)
            return 1
        }
    }

    /// pairs(t): field name → value, in binary order.
    static let pairs: LuaFunction = { L in
        LuaCall.run(L, "__pairs") { call in
            let t = try table(try call.methodSelf(className, as: FacePart.self))
            return try OrderedPairs.push(call, names: t.fieldNames) { call.stack.push(try t.value($0)) }
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let part = try call.methodSelf(className, as: FacePart.self)
            let t = try table(part)
            let shown = try t.fieldNames.prefix(6).map { "\($0)=\(try t.value($0))" }.joined(separator: ", ")
            call.stack.push("<\(part.tag.trimmed) \(shown)\(t.fieldNames.count > 6 ? ", …" : "")>")
            return 1
        }
    }
}
