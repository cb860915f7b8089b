import FontModel

/// Structured tables (GDEF …) in TTX, from their descriptions, the way fontTools writes its
/// otData tables: a scalar is `<Name value="…"/>`, a count is a comment, a subtable is an
/// element holding its members (a format as `Format="n"`), array items carry `index="k"`, a
/// missing subtable in an array is `empty="1"`, Coverage is `<Glyph value=…/>` in coverage
/// order, ClassDef is `<ClassDef glyph=… class=…/>` by glyph name.
extension TTX {
    static func structuredConverter(_ tag: Tag) -> Converter {
        let type = TableRegistry.type(for: tag) as? StructuredTable.Type
        // Encoded as the table type encodes itself: GSUB/GPOS move lookups behind extensions and
        // split subtables when offsets overflow.
        let encode: @Sendable (StructFields) throws -> [UInt8] = { fields in
            guard let type else { throw FontError("\(tag) is not a structured table") }
            return try type.init(root: fields).encode()
        }
        return describedConverter(tag, shape: type?.shape ?? .record(Record("", [])), encode: encode) { face in
            try face.structuredTable(tag).map { ($0.record, try $0.rootKeepingDamage) }
        }
    }

    /// A hand-written table with a description (HVAR …): its bytes decoded by the description.
    static func shapeDescribedConverter(_ tag: Tag) -> Converter {
        let type = TableRegistry.type(for: tag)?.shapeDescribed
        let shape = type?.shape ?? .record(Record("", []))
        return describedConverter(tag, shape: shape) { face in try face.describedView(tag) }
    }

    /// Dump and fuse from a description; `decoded` gives the face's table as a record's value.
    static func describedConverter(
        _ tag: Tag, shape: Shape, encode: (@Sendable (StructFields) throws -> [UInt8])? = nil,
        decoded: @escaping @Sendable (Face) throws -> (Record, StructFields)?
    ) -> Converter {
        Converter(
            dump: { face in
                let table: (Record, StructFields)?
                // A structure not described yet (FeatureVariations …): the table goes out as hexdata.
                do { table = try decoded(face) } catch is UndescribedStructure { return nil }
                guard let (record, fields) = table else { return nil }
                let nameTable = face.has("name") ? try? face.name : nil
                var writer = StructuredWriter(names: try face.glyphNames(), nameString: nameTable.map { table in { table.debugName($0) } })
                // Layout tables make 30–60 bytes of XML a byte.
                writer.out.bytes.reserveCapacity(32 * (face.storedLength(tag) ?? 0))
                let name = xmlName(tag)
                writer.out.add("  <"); writer.out.add(name); writer.out.add(">\n")
                try writer.members(record, fields, indent: 4)
                writer.out.add("  </"); writer.out.add(name); writer.out.add(">\n")
                return writer.out.string
            },
            fuse: { element, face, apply in
                guard case .record(let record) = shape else { return }
                let fields = try StructuredReader(face: face).fields(record, element)
                // Checked whole before anything changes: encoding proves it fits the description.
                let bytes: [UInt8]
                do { bytes = try encode?(fields) ?? StructureCodec.encode(.record(fields), shape, name: tag.trimmed) } catch let e
                    as FontError
                {
                    throw XMLError(e.message, line: element.line, column: element.column)
                }
                if apply { face.setRawTable(tag, bytes) }
            })
    }
}

/// Writes structured values as TTX.
struct StructuredWriter {
    let names: [String]
    /// The face's names by ID, for the comments after name IDs (nil: the face has no name table).
    var nameString: ((Int) -> String?)?
    var out = XMLText()

    func glyphName(_ id: Int) -> String { FontModel.glyphName(id, in: names) }
    func glyphName(_ id: Int64) -> String { glyphName(Int(id)) }

    mutating func line(_ indent: Int, _ text: String) {
        out.spaces(indent); out.add(text); out.add("\n")
    }

    /// Starts an element's tag, `<name index="k"`, leaving it open for attributes.
    mutating func open(_ indent: Int, _ name: String, _ index: Int?) {
        out.spaces(indent); out.add("<"); out.add(name)
        if let index { out.add(" index=\""); out.add(index); out.add("\"") }
    }

    mutating func close(_ indent: Int, _ name: String) {
        out.spaces(indent); out.add("</"); out.add(name); out.add(">\n")
    }

    /// An element a custom leaf made, with its children.
    mutating func leafElement(_ e: LeafXML, indent: Int) {
        out.spaces(indent); out.add("<"); out.add(e.name)
        for (key, text) in e.attributes { out.add(" "); out.add(key); out.add("=\""); out.add(xmlEscaped(text)); out.add("\"") }
        if e.children.isEmpty { out.add("/>\n"); return }
        out.add(">\n")
        for child in e.children { leafElement(child, indent: indent + 2) }
        close(indent, e.name)
    }

    mutating func members(_ record: Record, _ fields: StructFields, indent: Int) throws {
        for member in record.members {
            if record.countNames.contains(member.name) {
                // Written where the count sits, as fontTools does, unless its arrays are absent.
                let users = record.members.filter { $0.count == member.name }
                guard users.isEmpty || users.contains(where: { fields[$0.name] != nil }) else { continue }
                let count = StructureCodec.count(member.name, in: record, fields)
                if member.ttxFormat == .writtenCount {
                    line(indent, "<\(member.ttxName) value=\"\(count)\"/>")
                } else {
                    line(indent, "<!-- \(member.ttxName)=\(count) -->")
                }
                continue
            }
            guard let value = fields[member.name] else { continue }
            if member.ttxFormat == .structLength {
                if case .int(let length) = value { line(indent, "<!-- \(member.ttxName)=\(length) -->") }
                continue
            }
            if member.count != nil {
                guard case .list(let items) = value else { continue }
                for (k, item) in items.enumerated() {
                    try element(member.ttxName, item, member.shape, member.ttxFormat, indent: indent, index: k)
                }
            } else {
                try element(member.ttxName, value, member.shape, member.ttxFormat, indent: indent, index: nil)
            }
        }
    }

    mutating func element(_ name: String, _ value: StructValue, _ shape: Shape, _ format: TTXFormat, indent: Int, index: Int?) throws {
        // Made only where a branch builds its line as text (the common ones write straight out).
        var indexAttribute: String { index.map { " index=\"\($0)\"" } ?? "" }
        switch (shape, value) {
        case (_, .opaque(let o)):
            // A subtable that does not decode: its bytes, and why (fontshell reads this back; ttx does not).
            line(indent, "<\(name)\(indexAttribute)>")
            line(indent + 2, "<!-- not decoded, so kept as bytes: \(TTX.xmlComment(o.description)) -->")
            line(indent + 2, "<hexdata>")
            out.hexLines(o.bytes, indent: indent + 4)
            line(indent + 2, "</hexdata>")
            line(indent, "</\(name)>")
        case (.offset, .none):
            if index != nil { line(indent, "<\(name)\(indexAttribute) empty=\"1\"/>") }
        case (.offset(let target, _), _):
            try element(name, value, target, format, indent: indent, index: index)
        case (.switched(_, let cases), .switched(let k, let inner)):
            guard let chosen = cases[k] else { throw FontError("\(name): no case \(k)") }
            try element(chosen.name, inner, chosen.shape, format, indent: indent, index: index)
        case (.recursive(_, let make), _):
            try element(name, value, make(), format, indent: indent, index: index)
        case (.scalar, .int(0xFFFF_FFFF)) where format == .varIndex:
            line(indent, "<\(name)\(indexAttribute)/>")   // no variation, as fontTools writes None
        case (.scalar(let kind), .int(let v)) where format == .plain && kind.isPlainInteger:
            // The common case, written without building a line.
            open(indent, name, index); out.add(" value=\""); out.add(Int(v)); out.add("\"/>\n")
        case (.scalar(let kind), .int(let v)):
            var text = "<\(name)\(indexAttribute) value=\"\(xmlEscaped(TTX.scalarText(v, kind, format)))\"/>"
            if format == .lookupFlag, let flags = Self.lookupFlagNames(v) { text += "<!-- \(flags) -->" }
            if format == .axisValueFlags, v & 3 != 0 {
                text +=
                    "  <!-- \([(1, "OlderSiblingFontAttribute"), (2, "ElidableAxisValueName")].filter { v & $0.0 != 0 }.map(\.1).joined(separator: " ")) -->"
            }
            if format == .nameID, v != 0, let nameString {
                // As fontTools: the name, "None" for 0xFFFF, or that it is missing.
                let comment = nameString(Int(v)) ?? (v == 0xFFFF ? "None" : "missing from name table")
                text += "  <!-- \(xmlEscaped(comment)) -->"
            }
            line(indent, text)
        case (.glyph, .int(let g)):
            open(indent, name, index); out.add(" value=\""); out.add(xmlEscaped(glyphName(g))); out.add("\"/>\n")
        case (.record(let record), .record(let fields)):
            open(indent, name, index)
            if let key = record.formatAttribute, case .int(let v)? = fields[key] {
                out.add(" "); out.add(key); out.add("=\""); out.add(Int(v)); out.add("\"")
            }
            out.add(">\n")
            try members(record, fields, indent: indent + 2)
            close(indent, name)
        case (.formats(_, let records), .formatted(let f, let fields)), (.formats8(_, let records), .formatted(let f, let fields)):
            guard let record = records[f] else { throw FontError("\(name): no format \(f)") }
            open(indent, name, index); out.add(" Format=\""); out.add(f); out.add("\">\n")
            try members(record, fields, indent: indent + 2)
            close(indent, name)
        case (.valueRecord, .record(let fields)):
            guard fields.count > 0 else { break }   // ValueFormat 0: fontTools writes nothing
            open(indent, name, index)
            var devices: [(String, StructValue)] = []
            for (bit, field) in StructureCodec.valueRecordFields.enumerated() {
                guard let v = fields[field] else { continue }
                if bit < 4, case .int(let n) = v {
                    out.add(" "); out.add(field); out.add("=\""); out.add(Int(n)); out.add("\"")
                } else if case .device = v {
                    devices.append((field, v))
                }
            }
            if devices.isEmpty { out.add("/>\n"); break }
            out.add(">\n")
            for (field, device) in devices { try element(field, device, .device, .plain, indent: indent + 2, index: nil) }
            close(indent, name)
        case (.coverage, .glyphs(let glyphs)):
            open(indent, name, index); out.add(">\n")
            for run in glyphs.runs {
                for g in run { out.spaces(indent + 2); out.add("<Glyph value=\""); out.add(xmlEscaped(glyphName(g))); out.add("\"/>\n") }
            }
            close(indent, name)
        case (.classDef, .classes(let classes)):
            line(indent, "<\(name)\(indexAttribute)>")
            // By glyph name, as fontTools sorts them (Python's code-point order).
            let entries = classes.flatMap { run in (run.first...run.last).map { (glyphName($0), run.glyphClass) } }
            for c in entries.sorted(by: { Self.precedes($0.0, $1.0) }) {
                out.spaces(indent + 2); out.add("<ClassDef glyph=\""); out.add(xmlEscaped(c.0)); out.add("\" class=\""); out.add(c.1);
                out.add("\"/>\n")
            }
            line(indent, "</\(name)>")
        case (.device, .device(let d)):
            line(indent, "<\(name)\(indexAttribute)>")
            line(indent + 2, "<StartSize value=\"\(d.startSize)\"/>")
            line(indent + 2, "<EndSize value=\"\(d.endSize)\"/>")
            line(indent + 2, "<DeltaFormat value=\"\(d.deltaFormat)\"/>")
            if (1...3).contains(d.deltaFormat) {
                line(indent + 2, "<DeltaValue value=\"[\(d.deltas.map(String.init).joined(separator: ", "))]\"/>")
            }
            line(indent, "</\(name)>")
        case (.deltaRow, .list(let row)):
            // fontTools writes a row as a Python list: value="[-96, 0]".
            line(indent, "<\(name)\(indexAttribute) value=\"[\(row.compactMap(\.int).map(String.init).joined(separator: ", "))]\"/>")
        case (.custom(let leaf), _):
            let names = self.names
            var xml = leaf.ttx(value, LeafContext(glyphCount: names.count, glyphName: { FontModel.glyphName($0, in: names) }))
            xml.name = name
            if let index { xml.attributes.insert(("index", "\(index)"), at: 0) }
            leafElement(xml, indent: indent)
        case (.clipList, .list(let groups)):
            // As fontTools: a <Clip> per box, by its first glyph name, its glyphs sorted by name.
            line(indent, "<\(name)\(indexAttribute) Format=\"1\">")
            var clips: [(glyphs: [String], box: StructValue)] = []
            for group in groups {
                guard case .record(let fields) = group, case .list(let glyphs)? = fields["Glyph"], let box = fields["ClipBox"] else {
                    continue
                }
                clips.append((glyphs.compactMap(\.int).map(glyphName).sorted(by: Self.precedes), box))
            }
            for clip in clips.sorted(by: { Self.precedes($0.glyphs.first ?? "", $1.glyphs.first ?? "") }) {
                line(indent + 2, "<Clip>")
                for g in clip.glyphs { line(indent + 4, "<Glyph value=\"\(xmlEscaped(g))\"/>") }
                try element("ClipBox", clip.box, COLRShapes.clipBox, .plain, indent: indent + 4, index: nil)
                line(indent + 2, "</Clip>")
            }
            line(indent, "</\(name)>")
        case (.aatLookup(let valueShape), .list(let items)), (.aatLookupWithData(let valueShape), .list(let items)):
            // As fontTools: a <Lookup glyph=…> per glyph, sorted by glyph name, with its value or
            // the members of the record it points at.
            line(indent, "<\(name)\(indexAttribute)>")
            var entries: [(glyph: String, value: StructValue)] = []
            for item in items {
                guard case .record(let fields) = item, let g = fields["Glyph"]?.int, let v = fields["Value"] else { continue }
                entries.append((glyphName(g), v))
            }
            for entry in entries.sorted(by: { Self.precedes($0.glyph, $1.glyph) }) {
                if case .offset(let target, _) = valueShape, case .record(let record) = target.target,
                    case .record(let fields) = entry.value
                {
                    line(indent + 2, "<Lookup glyph=\"\(xmlEscaped(entry.glyph))\">")
                    try members(record, fields, indent: indent + 4)
                    line(indent + 2, "</Lookup>")
                } else if let v = entry.value.int {
                    line(indent + 2, "<Lookup glyph=\"\(xmlEscaped(entry.glyph))\" value=\"\(v)\"/>")
                }
            }
            line(indent, "</\(name)>")
        case (.substitutions(let kind), .substitutions(let subs)):
            line(indent, "<\(name)\(indexAttribute)>")
            substitutions(kind, subs, indent: indent + 2)
            line(indent, "</\(name)>")
        default:
            throw FontError("\(name): the value does not have the shape its description gives")
        }
    }

    /// GSUB 1–4 as fontTools writes its mappings: by input glyph name; a ligature set's
    /// ligatures in their stored order.
    mutating func substitutions(_ kind: SubstitutionKind, _ subs: [Substitution], indent: Int) {
        let named = subs.map { (input: $0.input.map(glyphName), output: $0.output.map(glyphName)) }
        switch kind {
        case .single, .multiple:
            for s in named.sorted(by: { Self.precedes($0.input[0], $1.input[0]) }) {
                line(indent, "<Substitution in=\"\(xmlEscaped(s.input[0]))\" out=\"\(xmlEscaped(s.output.joined(separator: ",")))\"/>")
            }
        case .alternate:
            for s in named.sorted(by: { Self.precedes($0.input[0], $1.input[0]) }) {
                line(indent, "<AlternateSet glyph=\"\(xmlEscaped(s.input[0]))\">")
                for a in s.output { line(indent + 2, "<Alternate glyph=\"\(xmlEscaped(a))\"/>") }
                line(indent, "</AlternateSet>")
            }
        case .ligature:
            var firsts: [String] = []
            var sets: [String: [(input: [String], output: [String])]] = [:]
            for s in named {
                if sets[s.input[0]] == nil { firsts.append(s.input[0]) }
                sets[s.input[0], default: []].append(s)
            }
            for first in firsts.sorted(by: Self.precedes) {
                line(indent, "<LigatureSet glyph=\"\(xmlEscaped(first))\">")
                for lig in sets[first] ?? [] {
                    line(
                        indent + 2,
                        "<Ligature components=\"\(xmlEscaped(lig.input.dropFirst().joined(separator: ",")))\" glyph=\"\(xmlEscaped(lig.output[0]))\"/>"
                    )
                }
                line(indent, "</LigatureSet>")
            }
        }
    }

    /// Python's string order (by code point), which fontTools' sorted() uses.
    static func precedes(_ a: String, _ b: String) -> Bool { a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }

    static func lookupFlagNames(_ v: Int64) -> String? {
        var flags: [String] = []
        if v & 0x01 != 0 { flags.append("rightToLeft") }
        if v & 0x02 != 0 { flags.append("ignoreBaseGlyphs") }
        if v & 0x04 != 0 { flags.append("ignoreLigatures") }
        if v & 0x08 != 0 { flags.append("ignoreMarks") }
        if v & 0x10 != 0 { flags.append("useMarkFilteringSet") }
        if v & 0xFF00 != 0 { flags.append("markAttachmentType[\(v >> 8)]") }
        return flags.isEmpty ? nil : flags.joined(separator: " ")
    }
}

/// Reads structured values from TTX, checking names and values with the element's position.
final class StructuredReader {
    let face: Face
    /// Scalars read so far in the enclosing records (what switches, conditions and counts use).
    var scope = StructScope()

    init(face: Face) { self.face = face }

    func fail(_ message: String, _ at: XMLElement) -> XMLError { XMLError(message, line: at.line, column: at.column) }

    /// The element names a member's values take: its TTX name, or for a switched subtable each case's.
    static func elementNames(_ member: Member) -> Set<String> {
        // A switched subtable kept as bytes for a case not described is under the member's name.
        if case .switched(_, let cases) = member.shape.target { return Set(cases.values.map(\.name)).union([member.ttxName]) }
        return [member.ttxName]
    }

    func fields(_ record: Record, _ element: XMLElement) throws -> StructFields {
        var out = StructFields()
        let members = record.valueMembers
        let writtenCounts = record.members.filter { record.countNames.contains($0.name) && $0.ttxFormat == .writtenCount }
        let known = members.reduce(into: Set<String>()) { $0.formUnion(Self.elementNames($1)) }.union(writtenCounts.map(\.ttxName))
        for child in element.children where !known.contains(child.name) {
            var message = "<\(child.name)> is not a member of \(record.name)"
            if let near = closestName(to: child.name, in: Array(known)) { message += " (did you mean <\(near)>?)" }
            throw fail(message, child)
        }
        scope.enter()
        defer { scope.leave() }
        for member in members where member.ttxFormat != .structLength {   // worked out when written
            let names = Self.elementNames(member)
            let children = element.children.filter { names.contains($0.name) }
            if let condition = member.when, (scope.lookup(condition.name) ?? 0) & condition.mask == 0 {
                if let extra = children.first {
                    throw fail(
                        "<\(extra.name)> is only allowed when \(condition.name) has 0x\(String(condition.mask, radix: 16)) set", extra)
                }
                continue
            }
            if member.count != nil {
                out[member.name] = .list(try children.map { try value(member.shape, $0, format: member.ttxFormat) })
            } else if let child = children.first {
                guard children.count == 1 else {
                    throw fail("<\(member.ttxName)> is given \(children.count) times in <\(element.name)>", children[1])
                }
                let v = try value(member.shape, child, format: member.ttxFormat)
                if case .int(let raw) = v { scope.note(member.name, raw) }
                out[member.name] = v
            } else if case .offset = member.shape {
                out[member.name] = StructValue.none
            } else if case .valueRecord = member.shape {
                out[member.name] = .record(StructFields())
            } else if member.since == nil {
                throw fail("<\(element.name)> lacks <\(member.ttxName)>", element)
            }
        }
        // A count written as a value must say how many items its arrays have.
        for count in writtenCounts {
            for child in element.children where child.name == count.ttxName {
                let given = try TTX.integerAttribute(child, "value", 0...0xFFFF_FFFF)
                guard let array = record.members.first(where: { $0.count == count.name }), case .list(let items)? = out[array.name] else {
                    continue
                }
                guard given == items.count else {
                    throw fail("<\(count.ttxName) value=\"\(given)\"/> but <\(element.name)> has \(items.count) <\(array.ttxName)>", child)
                }
            }
        }
        return out
    }

    func value(_ shape: Shape, _ e: XMLElement, format: TTXFormat = .plain) throws -> StructValue {
        switch shape {
        case .offset(let target, _):
            if e.value("empty") == "1" { return .none }
            if let data = e.children.first, data.name == "hexdata" {
                // A subtable kept as bytes (see StructuredWriter), under its lookup's case.
                let opaque = StructValue.opaque(OpaqueSubtable(bytes: try TTX.hexBytes(data), reason: "given as hexdata"))
                if case .switched(let selector, let cases) = target, let key = scope.lookup(selector).map(Int.init), cases[key] != nil {
                    return .switched(key, opaque)
                }
                return opaque
            }
            return try value(target, e, format: format)
        case .recursive(_, let make):
            return try value(make(), e, format: format)
        case .switched(let selector, let cases):
            guard let key = scope.lookup(selector).map(Int.init), let chosen = cases[key] else {
                throw fail("<\(e.name)> needs a known \(selector) before it", e)
            }
            guard chosen.name == e.name else { throw fail("<\(e.name)> in a lookup whose \(selector) \(key) makes it <\(chosen.name)>", e) }
            return .switched(key, try value(chosen.shape, e))
        case .scalar(let kind):
            // A variation index given without a value: none (0xFFFFFFFF), as fontTools reads it.
            if format == .varIndex && e.value("value") == nil { return .int(0xFFFF_FFFF) }
            let text = try e.attribute("value")
            guard let v = TTX.scalarValue(text, kind, format), kind.rawRange.contains(v) else {
                throw fail("<\(e.name)> value '\(text.trimmingWhitespace())' is not \(TTX.scalarExpectation(kind, format))", e)
            }
            return .int(v)
        case .glyph:
            return .int(Int64(try glyph(try e.attribute("value"), e)))
        case .record(let record):
            return .record(try fields(record, e))
        case .formats(let name, let records), .formats8(let name, let records):
            guard let text = e.value("Format"), let f = Int(text), let record = records[f] else {
                throw fail(
                    "<\(e.name)> needs Format=\"n\" with a known \(name) format (\(records.keys.sorted().map(String.init).joined(separator: ", ")))",
                    e)
            }
            return .formatted(f, try fields(record, e))
        case .valueRecord:
            var fields = StructFields()
            for (bit, name) in StructureCodec.valueRecordFields.enumerated() where bit < 4 {
                guard let text = e.value(name) else { continue }
                guard let v = Int(text), (-32768...32767).contains(v) else { throw fail("\(name) '\(text)' is not an int16", e) }
                fields[name] = .int(Int64(v))
            }
            for child in e.children {
                guard StructureCodec.valueRecordFields.dropFirst(4).contains(child.name) else {
                    throw fail("<\(child.name)> is not a device of a ValueRecord", child)
                }
                fields[child.name] = try value(.device, child)
            }
            return .record(fields)
        case .deltaRow:
            let text = try e.attribute("value").trimmingWhitespace()
            guard text.hasPrefix("["), text.hasSuffix("]") else {
                throw fail("<\(e.name)> value must be a list of deltas like [-96, 0]", e)
            }
            var row: [StructValue] = []
            for part in text.dropFirst().dropLast().split(separator: ",") where !part.allSatisfy(\.isWhitespace) {
                guard let v = Int64(String(part).trimmingWhitespace()) else {
                    throw fail("<\(e.name)> item '\(part)' is not an integer", e)
                }
                row.append(.int(v))
            }
            return .list(row)
        case .custom(let leaf):
            func converted(_ e: XMLElement) -> LeafXML {
                var x = LeafXML(e.name, e.attributeList.map { ($0.key, $0.value) }, children: e.children.map(converted))
                x.line = e.line; x.column = e.column
                return x
            }
            let context = LeafContext(
                glyphCount: try face.glyphCount,
                glyphID: { [self] name in
                    do { return try self.glyph(name, e) } catch let error as XMLError { throw FontError(error.message) }
                })
            do { return try leaf.value(fromTTX: converted(e), context) } catch let problem as LeafXML.Problem {
                throw XMLError(problem.message, line: problem.line, column: problem.column)
            }
        case .clipList:
            var groups: [StructValue] = []
            for clip in e.children {
                guard clip.name == "Clip" else { throw fail("<\(clip.name)> in <\(e.name)>: expected <Clip>", clip) }
                var fields = StructFields()
                var glyphs: [StructValue] = []
                for child in clip.children {
                    switch child.name {
                    case "Glyph": glyphs.append(.int(Int64(try glyph(try child.attribute("value"), child))))
                    case "ClipBox": fields["ClipBox"] = try value(COLRShapes.clipBox, child)
                    default: throw fail("<\(child.name)> in <Clip>: expected <Glyph> or <ClipBox>", child)
                    }
                }
                guard fields["ClipBox"] != nil else { throw fail("<Clip> needs a <ClipBox>", clip) }
                fields["Glyph"] = .list(glyphs)
                groups.append(.record(fields))
            }
            return .list(groups)
        case .aatLookup(let valueShape), .aatLookupWithData(let valueShape):
            var items: [StructValue] = []
            var seen = Set<Int>()
            for l in e.children {
                guard l.name == "Lookup" else { throw fail("<\(l.name)> in <\(e.name)>: expected <Lookup glyph=…>", l) }
                let g = try glyph(try l.attribute("glyph"), l)
                guard g != 0xFFFF else { throw fail("glyph 65535 cannot be in an AAT lookup", l) }
                guard seen.insert(g).inserted else { throw fail("glyph '\(try l.attribute("glyph"))' is in the lookup twice", l) }
                var fields = StructFields(capacity: 2)
                fields["Glyph"] = .int(Int64(g))
                if case .offset(let target, _) = valueShape {
                    fields["Value"] = try value(target, l)
                } else {
                    guard let v = Int64(try l.attribute("value")), (0...0xFFFF).contains(v) else { throw fail("value must be 0…65535", l) }
                    fields["Value"] = .int(v)
                }
                items.append(.record(fields))
            }
            return .list(items)
        case .coverage:
            return .glyphs(
                GlyphRuns(
                    try e.children.map { g in
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
                    guard let v = Int(String(part).trimmingWhitespace()) else {
                        throw fail("DeltaValue item '\(part)' is not an integer", d)
                    }
                    deltas.append(v)
                }
            }
            return .device(
                DeviceValue(
                    startSize: try number("StartSize"), endSize: try number("EndSize"), deltaFormat: try number("DeltaFormat"),
                    deltas: deltas))
        case .substitutions(let kind):
            return .substitutions(try substitutions(kind, e))
        case .undescribed(let what):
            throw fail("\(what) cannot be read from XML yet; give the whole table as hexdata", e)
        }
    }

    func substitutions(_ kind: SubstitutionKind, _ e: XMLElement) throws -> [Substitution] {
        func glyphs(_ text: String, _ at: XMLElement) throws -> [Int] {
            try text.split(separator: ",").map { try glyph(String($0).trimmingWhitespace(), at) }
        }
        var out: [Substitution] = []
        for child in e.children {
            switch (kind, child.name) {
            case (.single, "Substitution"), (.multiple, "Substitution"):
                out.append(Substitution([try glyph(try child.attribute("in"), child)], try glyphs(try child.attribute("out"), child)))
            case (.alternate, "AlternateSet"):
                let alternates = try child.children.map { a in
                    guard a.name == "Alternate" else { throw fail("<\(a.name)> in <AlternateSet>: expected <Alternate glyph=…/>", a) }
                    return try glyph(try a.attribute("glyph"), a)
                }
                out.append(Substitution([try glyph(try child.attribute("glyph"), child)], alternates))
            case (.ligature, "LigatureSet"):
                let first = try glyph(try child.attribute("glyph"), child)
                for lig in child.children {
                    guard lig.name == "Ligature" else {
                        throw fail("<\(lig.name)> in <LigatureSet>: expected <Ligature components=… glyph=…/>", lig)
                    }
                    let components = try lig.attribute("components")
                    out.append(
                        Substitution(
                            [first] + (components.isEmpty ? [] : try glyphs(components, lig)), [try glyph(try lig.attribute("glyph"), lig)])
                    )
                }
            default:
                throw fail("<\(child.name)> is not part of <\(e.name)>", child)
            }
        }
        return out
    }

    func glyph(_ name: String, _ at: XMLElement) throws -> Int {
        if let id = try face.glyphID(named: name) { return id }
        // fontTools' name for an id past the font's glyphs (validate reports the id).
        if name.hasPrefix("glyph"), name.count == 10, let id = Int(name.dropFirst(5)), id <= 0xFFFF { return id }
        throw fail("no glyph named '\(name)' in the font", at)
    }
}
