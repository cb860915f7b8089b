import FontModel
import LuaBridge

/// Lua class `Table`: a described table. Fixed-layout tables (head, hhea, vhea, maxp, OS/2, post)
/// have fields read and written by their spec names, range-checked by the model's description;
/// structured tables (GDEF …) have members read as plain Lua values and replaced whole. Both
/// go through one scalar leaf (`StructValues.pushScalar`/`readScalar`): a field is a scalar
/// member of its table's record.
enum TableObject {
    static let className = "Table"
    static var classID: Int32 { ScriptClass.table.rawValue }

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className, summary: "a table's fields by spec name: t.ascender, t.ascender = 900; pairs(t) lists them",
            get: get)
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

    /// The described table behind a Table object: one of fields, a structured one, or a
    /// hand-written one read through its description (HVAR …: read-only).
    enum Described {
        case fields(FieldTable)
        case structured(StructuredTable, Face)
        case view(Record, StructFields, Face)

        init(_ part: FacePart) throws {
            let face = try part.face.get()
            if let t = try face.fieldTable(part.tag) { self = .fields(t); return }
            if let t = try face.structuredTable(part.tag) { self = .structured(t, face); return }
            if let (record, fields) = try face.describedView(part.tag) { self = .view(record, fields, face); return }
            throw LuaBridgeError("the face has no '\(part.tag)' table")
        }

        var names: [String] {
            switch self {
            case .fields(let t): t.fieldNames
            case .structured(let t, _): t.memberNames
            case .view(let record, let fields, _): record.valueMembers.map(\.name).filter { fields[$0] != nil }
            }
        }

        func push(_ s: LuaStack, _ name: String) throws {
            switch self {
            case .fields(let t): StructValues.pushScalar(s, try t.rawValue(name), try t.kind(of: name))
            case .structured(let t, let face):
                guard let value = try t.value(name) else { s.pushNil(); return }
                try StructValues(face).push(s, member: try t.member(name), value)
            case .view(let record, let fields, let face):
                guard let member = record.valueMembers.first(where: { $0.name == name }) else {
                    throw LuaBridgeError("\(record.name) has no member '\(name)'")
                }
                guard let value = fields[name] else { s.pushNil(); return }
                try StructValues(face).push(s, member: member, value)
            }
        }
    }

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Table") { call in
            let part = try call.trustedSelf(className, as: FacePart.self)
            try Described(part).push(call.stack, try call.string(2))
            return 1
        }
    }

    static let set: LuaFunction = { L in
        LuaCall.run(L, "Table") { call in
            let part = try call.trustedSelf(className, as: FacePart.self)
            let name = try call.string(2)
            switch try Described(part) {
            case .fields(let t):
                let kind = try t.kind(of: name)
                try t.set(name, raw: try StructValues.readScalar(call.stack, at: 3, kind, path: "\(part.tag.trimmed).\(name)"))
            case .structured(let t, let face):
                let member = try t.member(name)
                let path = "\(part.tag.trimmed).\(name)"
                let value = try StructValues(face).read(call.stack, at: 3, member: member, path: path)
                try t.set(name, value)
            case .view:
                throw LuaBridgeError("\(part.tag.trimmed) is read-only in Lua: change it with face:fuse (its XML) or face:setRawTable")
            }
            return 0
        }
    }

    /// t:fields() → the field (or member) names of this table's version, in binary order.
    static let fields: LuaFunction = { L in
        LuaCall.run(L, "fields") { call in
            call.stack.push(strings: try Described(try call.methodSelf(className, as: FacePart.self)).names)
            return 1
        }
    }

    /// pairs(t): field name → value, in binary order.
    static let pairs: LuaFunction = { L in
        LuaCall.run(L, "__pairs") { call in
            let t = try Described(try call.methodSelf(className, as: FacePart.self))
            return try OrderedPairs.push(call, names: t.names) { try t.push(call.stack, $0) }
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let part = try call.methodSelf(className, as: FacePart.self)
            switch try Described(part) {
            case .fields(let t):
                let shown = try t.fieldNames.prefix(6).map { "\($0)=\(try t.value($0))" }.joined(separator: ", ")
                call.stack.push("<\(part.tag.trimmed) \(shown)\(t.fieldNames.count > 6 ? ", …" : "")>")
            case .structured(let t, _):
                call.stack.push("<\(part.tag.trimmed) \(t.memberNames.joined(separator: ", "))>")
            case .view:
                call.stack.push("<\(part.tag.trimmed) \(try Described(part).names.joined(separator: ", ")) (read-only)>")
            }
            return 1
        }
    }
}
