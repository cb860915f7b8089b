import FontModel
import LuaBridge

/// Structured table values (GDEF …) as plain Lua values, both ways, driven by the description:
/// a record is a table keyed by member name (counts are the lengths of their lists), a subtable
/// in one of several formats also has `Format`, a list is a list (a missing subtable in it is
/// `false`), a Coverage is a list of glyph names, a ClassDef is `{glyphName = class}`, a Device is
/// `{StartSize =, EndSize =, DeltaFormat =, DeltaValue = {...}}`, a ValueRecord is
/// `{XAdvance = -40, ...}`, GSUB types 1–4 are a list of `{in = {...}, out = {...}}` (glyph names).
/// Glyphs are read back by name or id.
final class StructValues {
    let face: Face
    let names: [String]
    /// Scalars read so far in the enclosing records (a lookup's subtables follow its LookupType).
    var scope = StructScope()

    init(_ face: Face) throws {
        self.face = face
        names = try face.glyphNames()
    }

    func glyphName(_ id: Int) -> String { FontModel.glyphName(id, in: names) }

    // MARK: scalars (a structured member's or a field table's: they need no glyph names)

    /// A scalar as Lua sees it: fixed-point as the shortest decimal that stores back the same
    /// (2.37, not 2.3700103759765625), a tag as its text ("wght"), others as integers.
    static func pushScalar(_ s: LuaStack, _ v: Int64, _ kind: FieldKind) {
        switch kind {
        case .fixed: s.push(shortestDecimal(v, scale: Fixed.scale))
        case .f2dot14: s.push(shortestDecimal(v, scale: F2Dot14.scale))
        case .tag: s.push(Tag(UInt32(truncatingIfNeeded: v)).description)
        default: s.push(Int(v))
        }
    }

    /// A scalar's stored bits from the Lua value at `index`, checked against its binary type.
    static func readScalar(_ s: LuaStack, at index: Int32, _ kind: FieldKind, path: String) throws -> Int64 {
        if kind == .tag, let text = s.string(at: index), s.number(at: index) == nil {
            // A tag by its text ("wght"; a shorter one is padded with spaces).
            guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw FontError("\(path) is a tag: 1 to 4 printable ASCII characters, got \"\(text)\"")
            }
            return Int64(Tag(text: text).rawValue)
        }
        guard let number = s.number(at: index), number.isFinite else {
            throw FontError("\(path) must be a number, got \(s.describedType(at: index))")
        }
        let stored: Double
        switch kind {
        case .fixed: stored = (number * Fixed.scale).rounded()
        case .f2dot14: stored = (number * F2Dot14.scale).rounded()
        default:
            guard let v = s.integer(at: index) else { throw FontError("\(path) must be an integer, got \(number)") }
            stored = Double(v)
        }
        guard let v = Int64(exactly: stored), kind.rawRange.contains(v) else {
            let given = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : number.described
            throw FontError("\(path) is \(kind.typeName) (\(kind.rangeText)), got \(given)")
        }
        return v
    }

    // MARK: to Lua

    func push(_ s: LuaStack, _ value: StructValue, _ shape: Shape) {
        s.reserve(8)   // nested tables each keep one slot while their members are pushed
        switch (shape, value) {
        case (.offset, .none): s.pushNil()
        case (_, .opaque(let o)):
            // A subtable that does not decode: its bytes and why.
            s.pushTable(fieldCount: 2)
            s.push(bytes: o.bytes); s.setField("raw", in: -2)
            s.push(o.description); s.setField("error", in: -2)
        case (.offset(let target, _), _): push(s, value, target)
        case (.recursive(_, let make), _): push(s, value, make())
        case (.clipList, .list(let groups)):
            // {{Glyph = {names…}, ClipBox = {Format = 1, xMin = …}}, …}
            s.pushTable(arrayCount: Int32(groups.count))
            for (k, group) in groups.enumerated() {
                guard case .record(let fields) = group else { continue }
                s.pushTable(fieldCount: 2)
                if case .list(let glyphs)? = fields["Glyph"] {
                    s.push(strings: glyphs.compactMap(\.int).map { glyphName(Int($0)) }); s.setField("Glyph", in: -2)
                }
                if let box = fields["ClipBox"] { push(s, box, COLRShapes.clipBox); s.setField("ClipBox", in: -2) }
                s.setIndex(k + 1, in: -2)
            }
        case (.aatLookup(let valueShape), .list(let items)), (.aatLookupWithData(let valueShape), .list(let items)):
            // {A = value, …}: by glyph name, the value a number or the record it points at.
            s.pushTable(fieldCount: Int32(items.count))
            for item in items {
                guard case .record(let fields) = item, let g = fields["Glyph"]?.int, let v = fields["Value"] else { continue }
                push(s, v, valueShape)
                s.setField(glyphName(Int(g)), in: -2)
            }
        case (.switched(_, let cases), .switched(let k, let inner)):
            if let chosen = cases[k] { push(s, inner, chosen.shape) } else { s.pushNil() }
        case (.glyph, .int(let g)): s.push(glyphName(Int(g)))
        case (.valueRecord, .record(let fields)):
            s.pushTable(fieldCount: Int32(fields.count))
            for (bit, name) in StructureCodec.valueRecordFields.enumerated() {
                guard let v = fields[name] else { continue }
                push(s, v, bit < 4 ? .scalar(.int16) : .offset16(.device))
                s.setField(name, in: -2)
            }
        case (.custom, _): pushPlain(s, value)
        case (.deltaRow, .list(let row)):
            s.pushTable(arrayCount: Int32(row.count))
            for (k, v) in row.enumerated() { s.push(Int(v.int ?? 0)); s.setIndex(k + 1, in: -2) }
        case (.substitutions, .substitutions(let subs)):
            s.pushTable(arrayCount: Int32(subs.count))
            for (k, sub) in subs.enumerated() {
                s.pushTable(fieldCount: 2)
                s.push(strings: sub.input.map(glyphName)); s.setField("in", in: -2)
                s.push(strings: sub.output.map(glyphName)); s.setField("out", in: -2)
                s.setIndex(k + 1, in: -2)
            }
        case (.scalar(let kind), .int(let v)): Self.pushScalar(s, v, kind)
        case (.record(let record), .record(let fields)): push(s, record, fields, format: nil)
        case (.formats(_, let records), .formatted(let f, let fields)), (.formats8(_, let records), .formatted(let f, let fields)):
            if let record = records[f] { push(s, record, fields, format: f) } else { s.pushNil() }
        case (.coverage, .glyphs(let glyphs)):
            s.pushTable(arrayCount: Int32(min(glyphs.count, 1 << 20)))
            var k = 1
            for run in glyphs.runs { for g in run { s.push(glyphName(g)); s.setIndex(k, in: -2); k += 1 } }
        case (.classDef, .classes(let runs)):
            s.pushTable(fieldCount: Int32(min(runs.count, 1 << 20)))
            for run in runs { for g in run.first...run.last { s.push(run.glyphClass); s.setField(glyphName(g), in: -2) } }
        case (.device, .device(let d)):
            s.pushTable(fieldCount: 4)
            s.push(d.startSize); s.setField("StartSize", in: -2)
            s.push(d.endSize); s.setField("EndSize", in: -2)
            s.push(d.deltaFormat); s.setField("DeltaFormat", in: -2)
            if (1...3).contains(d.deltaFormat) { s.push(integers: d.deltas); s.setField("DeltaValue", in: -2) }
        default:
            s.pushNil()
        }
    }

    func push(_ s: LuaStack, _ record: Record, _ fields: StructFields, format: Int?) {
        s.pushTable(fieldCount: Int32(fields.count + 1))
        if let format { s.push(format); s.setField("Format", in: -2) }
        for member in record.valueMembers {
            guard let value = fields[member.name] else { continue }
            push(s, member: member, value)
            s.setField(member.name, in: -2)
        }
    }

    /// A member's value: a list for a repeated member (a missing subtable in it is `false`).
    func push(_ s: LuaStack, member: Member, _ value: StructValue) {
        guard member.count != nil, case .list(let items) = value else { push(s, value, member.shape); return }
        s.pushTable(arrayCount: Int32(items.count))
        for (k, item) in items.enumerated() {
            if case .none = item { s.push(false) } else { push(s, item, member.shape) }
            s.setIndex(k + 1, in: -2)
        }
    }

    /// Reads a member's value at `index` (a list for a repeated member).
    func read(_ s: LuaStack, at index: Int32, member: Member, path: String) throws -> StructValue {
        guard member.count != nil else { return try read(s, at: index, member.shape, path: path) }
        guard s.type(at: index) == .table else {
            if s.type(at: index) == .nil { return .list([]) }
            throw FontError("\(path) must be a list")
        }
        return .list(try s.items(ofListAt: index) { k in try read(s, at: -1, member.shape, path: "\(path)[\(k)]") })
    }

    // MARK: from Lua

    /// Reads the value at `index` as `shape`; `path` names it in errors ("GDEF.AttachList.Coverage").
    func read(_ s: LuaStack, at index: Int32, _ shape: Shape, path: String) throws -> StructValue {
        let index = s.absolute(index)
        switch shape {
        case .offset(let target, _):
            if s.type(at: index) == .nil || (s.type(at: index) == .boolean && !s.truthy(at: index)) { return .none }
            return try read(s, at: index, target, path: path)
        case .scalar(let kind): return .int(try Self.readScalar(s, at: index, kind, path: path))
        case .record(let record):
            return .record(try fields(s, at: index, record, path: path, format: false))
        case .switched(let selector, let cases):
            guard let key = scope.lookup(selector).map(Int.init), let chosen = cases[key] else {
                throw FontError("\(path): \(selector) must be set first")
            }
            return .switched(key, try read(s, at: index, chosen.shape, path: path))
        case .glyph:
            return .int(Int64(try glyph(s, index, path)))
        case .valueRecord:
            try requireTable(s, index, path)
            var fields = StructFields()
            for key in s.keys(ofTableAt: index) where !StructureCodec.valueRecordFields.contains(key) {
                var message = "\(path) has no field '\(key)'"
                if let near = closestName(to: key, in: StructureCodec.valueRecordFields) { message += " (did you mean '\(near)'?)" }
                throw FontError(message)
            }
            for (bit, name) in StructureCodec.valueRecordFields.enumerated() {
                try s.withField(name, in: index) { type in
                    guard type != .nil else { return }
                    fields[name] = try read(s, at: -1, bit < 4 ? .scalar(.int16) : .offset16(.device), path: "\(path).\(name)")
                }
            }
            return .record(fields)
        case .substitutions:
            try requireTable(s, index, path)
            return .substitutions(
                try s.items(ofListAt: index) { k in
                    let here = "\(path)[\(k)]"
                    try requireTable(s, -1, here)
                    func glyphs(_ key: String) throws -> [Int] {
                        try s.withField(key, in: -1) { type in
                            if type == .string || type == .number { return [try glyph(s, -1, "\(here).\(key)")] }
                            guard type == .table else { throw FontError("\(here).\(key) must be a glyph or a list of glyphs") }
                            return try s.items(ofListAt: -1) { j in try glyph(s, -1, "\(here).\(key)[\(j)]") }
                        }
                    }
                    return Substitution(try glyphs("in"), try glyphs("out"))
                })
        case .recursive(_, let make):
            return try read(s, at: index, make(), path: path)
        case .clipList:
            throw FontError("\(path): a ClipList cannot be set from Lua yet")
        case .aatLookup(let valueShape), .aatLookupWithData(let valueShape):
            try requireTable(s, index, path)
            var items: [(Int, StructValue)] = []
            try s.forEachPair(inTableAt: index) {
                let g = try glyph(s, -2, "\(path) key")
                items.append((g, try read(s, at: -1, valueShape, path: "\(path).\(s.describe(at: -2))")))
            }
            return .list(
                items.sorted { $0.0 < $1.0 }.map { g, v in
                    var fields = StructFields(capacity: 2)
                    fields["Glyph"] = .int(Int64(g)); fields["Value"] = v
                    return .record(fields)
                })
        case .formats(let name, let records), .formats8(let name, let records):
            try requireTable(s, index, path)
            let format = s.withField("Format", in: index) { _ in s.integer(at: -1) }
            guard let format, let record = records[format] else {
                throw FontError("\(path) needs Format = \(records.keys.sorted().map(String.init).joined(separator: " or ")) (a \(name))")
            }
            return .formatted(format, try fields(s, at: index, record, path: path, format: true))
        case .coverage:
            try requireTable(s, index, path)
            return .glyphs(GlyphRuns(try s.items(ofListAt: index) { k in try glyph(s, -1, "\(path)[\(k)]") }))
        case .classDef:
            try requireTable(s, index, path)
            var runs: [ClassRun] = []
            try s.forEachPair(inTableAt: index) {
                let g = try glyph(s, -2, "\(path) key")
                guard let c = s.integer(at: -1), (0...0xFFFF).contains(c) else {
                    throw FontError("\(path)[\(s.describe(at: -2))] must be a class 0…65535")
                }
                runs.append(ClassRun(first: g, last: g, glyphClass: c))
            }
            return .classes(ClassRun.normalized(runs))
        case .device:
            try requireTable(s, index, path)
            func number(_ key: String) throws -> Int {
                guard let v = s.withField(key, in: index, { _ in s.integer(at: -1) }), (0...0xFFFF).contains(v) else {
                    throw FontError("\(path).\(key) must be an integer 0…65535")
                }
                return v
            }
            let deltas: [Int] = try s.withField("DeltaValue", in: index) { type in
                guard type == .table else { return [] }
                return try s.items(ofListAt: -1) { k in
                    guard let v = s.integer(at: -1) else { throw FontError("\(path).DeltaValue[\(k)] must be an integer") }
                    return v
                }
            }
            return .device(
                DeviceValue(
                    startSize: try number("StartSize"), endSize: try number("EndSize"), deltaFormat: try number("DeltaFormat"),
                    deltas: deltas))
        case .custom: return try plainValue(s, at: index, path: path)
        case .deltaRow:
            try requireTable(s, index, path)
            return .list(
                try s.items(ofListAt: index) { k in
                    guard let v = s.integer(at: -1) else { throw FontError("\(path)[\(k)] must be an integer") }
                    return .int(Int64(v))
                })
        case .undescribed(let what):
            throw FontError("\(path): \(what) cannot be set from Lua yet")
        }
    }

    func fields(_ s: LuaStack, at index: Int32, _ record: Record, path: String, format: Bool) throws -> StructFields {
        try requireTable(s, index, path)
        let members = record.valueMembers
        let known = members.map(\.name) + (format ? ["Format"] : [])
        for key in s.keys(ofTableAt: index) where !known.contains(key) {
            var message = "\(path) has no member '\(key)'"
            if let near = closestName(to: key, in: known) { message += " (did you mean '\(near)'?)" }
            throw FontError(message)
        }
        var out = StructFields()
        scope.enter()
        defer { scope.leave() }
        for member in members {
            let here = path + "." + member.name
            if let condition = member.when, (scope.lookup(condition.name) ?? 0) & condition.mask == 0 { continue }
            try s.withField(member.name, in: index) { type in
                guard type != .nil || member.since == nil else { return }
                let value = try read(s, at: -1, member: member, path: here)
                if case .int(let raw) = value { scope.note(member.name, raw) }
                out[member.name] = value
            }
        }
        return out
    }

    /// A custom leaf's value as plain Lua: numbers, lists, records as tables by member name.
    func pushPlain(_ s: LuaStack, _ value: StructValue) {
        s.reserve(4)
        switch value {
        case .int(let v): s.push(Int(v))
        case .list(let items):
            s.pushTable(arrayCount: Int32(items.count))
            for (k, item) in items.enumerated() { pushPlain(s, item); s.setIndex(k + 1, in: -2) }
        case .record(let fields):
            s.pushTable(fieldCount: Int32(fields.count))
            for (name, item) in zip(fields.names, fields.values) { pushPlain(s, item); s.setField(name, in: -2) }
        default: s.pushNil()
        }
    }

    /// The same read back: an integer, a list, or a table by string keys (a record).
    func plainValue(_ s: LuaStack, at index: Int32, path: String) throws -> StructValue {
        switch s.type(at: index) {
        case .number:
            guard let v = s.integer(at: index) else { throw FontError("\(path) must be an integer") }
            return .int(Int64(v))
        case .nil: return .none
        case .table:
            let keys = s.keys(ofTableAt: index)
            if keys.allSatisfy({ $0 == "<number>" }) {
                return .list(try s.items(ofListAt: index) { k in try plainValue(s, at: -1, path: "\(path)[\(k)]") })
            }
            var fields = StructFields()
            for key in keys.sorted() {
                guard !key.hasPrefix("<") else { throw FontError("\(path) mixes list items and named members") }
                fields[key] = try s.withField(key, in: index) { _ in try plainValue(s, at: -1, path: "\(path).\(key)") }
            }
            return .record(fields)
        default: throw FontError("\(path) must be a number or a table, got \(s.describedType(at: index))")
        }
    }

    func requireTable(_ s: LuaStack, _ index: Int32, _ path: String) throws {
        guard s.type(at: index) == .table else { throw FontError("\(path) must be a table, got \(s.describedType(at: index))") }
    }

    func glyph(_ s: LuaStack, _ index: Int32, _ path: String) throws -> Int {
        if let id = s.integer(at: index) {
            guard id >= 0, id < names.count else { throw FontError("\(path): glyph id \(id) is not in the font (0…\(names.count - 1))") }
            return id
        }
        guard let name = s.string(at: index) else {
            throw FontError("\(path) must be a glyph name or id, got \(s.describedType(at: index))")
        }
        guard let id = try face.glyphID(named: name) else {
            throw FontError("\(path): " + (try GlyphsObject.missingGlyphMessage(name, face, orNil: false)))
        }
        return id
    }
}
