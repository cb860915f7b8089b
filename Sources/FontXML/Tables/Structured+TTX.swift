import FontModel

/// Structured tables (GDEF …) in TTX, from their descriptions, the way fontTools writes its
/// otData tables: a scalar is `<Name value="…"/>`, a count is a comment, a subtable is an
/// element holding its members (a format as `Format="n"`), array items carry `index="k"`, a
/// missing subtable in an array is `empty="1"`, Coverage is `<Glyph value=…/>` in coverage
/// order, ClassDef is `<ClassDef glyph=… class=…/>` by glyph name.
extension TTX {
    static func structuredConverter(_ tag: Tag) -> Converter {
        Converter(
            dump: { face in
                guard let table = try face.structuredTable(tag) else { return nil }
                var writer = StructuredWriter(names: try face.glyphNames())
                let name = xmlName(tag)
                writer.out = "  <\(name)>\n"
                try writer.members(table.record, table.root, indent: 4)
                return writer.out + "  </\(name)>\n"
            },
            fuse: { element, face, apply in
                guard let type = TableRegistry.type(for: tag) as? StructuredTable.Type else { return }
                let fields = try StructuredReader(face: face).fields(type.record, element)
                // Checked whole before anything changes: encoding proves it fits the description.
                let bytes: [UInt8]
                do { bytes = try StructureCodec.encode(.record(fields), type.shape, name: tag.trimmed) } catch let e as FontError {
                    throw XMLError(e.message, line: element.line, column: element.column)
                }
                if apply { face.setRawTable(tag, bytes) }
            })
    }
}

/// Writes structured values as TTX.
struct StructuredWriter {
    let names: [String]
    var out = ""

    func glyphName(_ id: Int) -> String { id >= 0 && id < names.count ? names[id] : "glyph\(id)" }

    mutating func line(_ indent: Int, _ text: String) {
        out += String(repeating: " ", count: indent) + text + "\n"
    }

    mutating func members(_ record: Record, _ fields: StructFields, indent: Int) throws {
        for member in record.members {
            if record.countNames.contains(member.name) {
                guard let array = record.members.first(where: { $0.count == member.name }), fields[array.name] != nil || member.since == nil else { continue }
                var n = 0
                if case .list(let items)? = fields[array.name] { n = items.count }
                line(indent, "<!-- \(member.name)=\(n) -->")
                continue
            }
            guard let value = fields[member.name] else { continue }
            if member.count != nil {
                guard case .list(let items) = value else { continue }
                for (k, item) in items.enumerated() { try element(member.name, item, member.shape, member.ttxFormat, indent: indent, index: k) }
            } else {
                try element(member.name, value, member.shape, member.ttxFormat, indent: indent, index: nil)
            }
        }
    }

    mutating func element(_ name: String, _ value: StructValue, _ shape: Shape, _ format: TTXFormat, indent: Int, index: Int?) throws {
        let indexAttribute = index.map { " index=\"\($0)\"" } ?? ""
        switch (shape, value) {
        case (.offset, .none):
            if index != nil { line(indent, "<\(name)\(indexAttribute) empty=\"1\"/>") }
        case (.offset(let target, _), _):
            try element(name, value, target, format, indent: indent, index: index)
        case (.scalar(let kind), .int(let v)):
            line(indent, "<\(name)\(indexAttribute) value=\"\(Self.scalarText(v, kind, format))\"/>")
        case (.record(let record), .record(let fields)):
            line(indent, "<\(name)\(indexAttribute)>")
            try members(record, fields, indent: indent + 2)
            line(indent, "</\(name)>")
        case (.formats(_, let records), .formatted(let f, let fields)):
            guard let record = records[f] else { throw FontError("\(name): no format \(f)") }
            line(indent, "<\(name)\(indexAttribute) Format=\"\(f)\">")
            try members(record, fields, indent: indent + 2)
            line(indent, "</\(name)>")
        case (.coverage, .glyphs(let glyphs)):
            line(indent, "<\(name)\(indexAttribute)>")
            for run in glyphs.runs { for g in run { line(indent + 2, "<Glyph value=\"\(xmlEscaped(glyphName(g)))\"/>") } }
            line(indent, "</\(name)>")
        case (.classDef, .classes(let classes)):
            line(indent, "<\(name)\(indexAttribute)>")
            // By glyph name, as fontTools sorts them (Python's code-point order).
            let entries = classes.flatMap { run in (run.first...run.last).map { (glyphName($0), run.glyphClass) } }
            for c in entries.sorted(by: { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }) {
                line(indent + 2, "<ClassDef glyph=\"\(xmlEscaped(c.0))\" class=\"\(c.1)\"/>")
            }
            line(indent, "</\(name)>")
        case (.device, .device(let d)):
            line(indent, "<\(name)\(indexAttribute)>")
            line(indent + 2, "<StartSize value=\"\(d.startSize)\"/>")
            line(indent + 2, "<EndSize value=\"\(d.endSize)\"/>")
            line(indent + 2, "<DeltaFormat value=\"\(d.deltaFormat)\"/>")
            if (1...3).contains(d.deltaFormat) { line(indent + 2, "<DeltaValue value=\"[\(d.deltas.map(String.init).joined(separator: ", "))]\"/>") }
            line(indent, "</\(name)>")
        default:
            throw FontError("\(name): the value does not have the shape its description gives")
        }
    }

    static func scalarText(_ v: Int64, _ kind: FieldKind, _ format: TTXFormat) -> String {
        switch (format, kind) {
        case (.hex8, _): "0x" + paddedHex(UInt32(truncatingIfNeeded: v), 8)
        case (.hex, _): "0x" + String(UInt32(truncatingIfNeeded: v), radix: 16)
        case (_, .fixed): TTX.decimalText(v, scale: 65536)
        case (_, .f2dot14): TTX.decimalText(v, scale: 16384)
        case (_, .tag): Tag(UInt32(truncatingIfNeeded: v)).description
        default: String(v)
        }
    }
}

/// Reads structured values from TTX, checking names and values with the element's position.
struct StructuredReader {
    let face: Face

    func fail(_ message: String, _ at: XMLElement) -> XMLError { XMLError(message, line: at.line, column: at.column) }

    func fields(_ record: Record, _ element: XMLElement) throws -> StructFields {
        var out = StructFields()
        let members = record.valueMembers
        for child in element.children where !members.contains(where: { $0.name == child.name }) {
            var message = "<\(child.name)> is not a member of \(record.name)"
            if let near = closestName(to: child.name, in: members.map(\.name)) { message += " (did you mean <\(near)>?)" }
            throw fail(message, child)
        }
        for member in members {
            let children = element.children.filter { $0.name == member.name }
            if member.count != nil {
                out[member.name] = .list(try children.map { try value(member.shape, $0) })
            } else if let child = children.first {
                guard children.count == 1 else { throw fail("<\(member.name)> is given \(children.count) times in <\(element.name)>", children[1]) }
                out[member.name] = try value(member.shape, child)
            } else if case .offset = member.shape {
                out[member.name] = StructValue.none
            } else if member.since == nil {
                throw fail("<\(element.name)> lacks <\(member.name)>", element)
            }
        }
        return out
    }

    func value(_ shape: Shape, _ e: XMLElement) throws -> StructValue {
        switch shape {
        case .offset(let target, _):
            if e.value("empty") == "1" { return .none }
            return try value(target, e)
        case .scalar(let kind):
            let text = try e.attribute("value").trimmingWhitespace()
            let v: Int64?
            switch kind {
            case .fixed: v = text.hasPrefix("0x") ? TTX.parseInteger(text) : Double(text).map { Int64(($0 * 65536).rounded()) }
            case .f2dot14: v = Double(text).map { Int64(($0 * 16384).rounded()) }
            case .tag: v = Tag(string: text).map { Int64($0.rawValue) }
            default: v = TTX.parseInteger(text)
            }
            guard let v, kind.rawRange.contains(v) else { throw fail("<\(e.name)> value '\(text)' is not a \(kind.typeName)", e) }
            return .int(v)
        case .record(let record):
            return .record(try fields(record, e))
        case .formats(let name, let records):
            guard let text = e.value("Format"), let f = Int(text), let record = records[f] else {
                throw fail("<\(e.name)> needs Format=\"n\" with a known \(name) format (\(records.keys.sorted().map(String.init).joined(separator: ", ")))", e)
            }
            return .formatted(f, try fields(record, e))
        case .coverage:
            return .glyphs(GlyphRuns(try e.children.map { g in
                guard g.name == "Glyph" else { throw fail("<\(g.name)> in <\(e.name)>: expected <Glyph value=…/>", g) }
                return try glyph(try g.attribute("value"), g)
            }))
        case .classDef:
            var classes: [ClassRun] = []
            for c in e.children {
                guard c.name == "ClassDef" else { throw fail("<\(c.name)> in <\(e.name)>: expected <ClassDef glyph=… class=…/>", c) }
                guard let k = Int(try c.attribute("class")), (0...0xFFFF).contains(k) else { throw fail("class must be 0…65535", c) }
                let g = try glyph(try c.attribute("glyph"), c)
                classes.append(ClassRun(first: g, last: g, glyphClass: k))
            }
            return .classes(ClassRun.normalized(classes))
        case .device:
            func number(_ name: String) throws -> Int {
                guard let c = e.children.first(where: { $0.name == name }) else { throw fail("<\(e.name)> lacks <\(name)>", e) }
                guard let v = Int(try c.attribute("value")), (0...0xFFFF).contains(v) else { throw fail("<\(name)> must be 0…65535", c) }
                return v
            }
            var deltas: [Int] = []
            if let d = e.children.first(where: { $0.name == "DeltaValue" }) {
                let text = try d.attribute("value").trimmingWhitespace()
                guard text.hasPrefix("["), text.hasSuffix("]") else { throw fail("DeltaValue must be a list like [1, -1]", d) }
                for part in text.dropFirst().dropLast().split(separator: ",") where !part.allSatisfy(\.isWhitespace) {
                    guard let v = Int(String(part).trimmingWhitespace()) else { throw fail("DeltaValue item '\(part)' is not an integer", d) }
                    deltas.append(v)
                }
            }
            return .device(DeviceValue(startSize: try number("StartSize"), endSize: try number("EndSize"), deltaFormat: try number("DeltaFormat"), deltas: deltas))
        case .undescribed(let what):
            throw fail("\(what) cannot be read from XML yet; give the whole table as hexdata", e)
        }
    }

    func glyph(_ name: String, _ at: XMLElement) throws -> Int {
        guard let id = try face.glyphID(named: name) else { throw fail("no glyph named '\(name)' in the font", at) }
        return id
    }
}
