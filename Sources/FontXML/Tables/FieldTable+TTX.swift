import FontModel

/// Tables of fixed fields (head, hhea, vhea, maxp, OS/2, post's header) in TTX: one element per
/// field, named and formatted as each field's description says.
extension TTX {
    static func fieldTable(_ t: FieldTable, _ element: String) throws -> String {
        var out = "  <\(element)>\n"
        var group: String?
        for field in t.fields {
            if field.ttxGroup != group {
                if let g = group { out += "    </\(g)>\n" }
                if let g = field.ttxGroup { out += "    <\(g)>\n" }
                group = field.ttxGroup
            }
            guard let text = try fieldText(t, field) else { continue }
            out += "\(group == nil ? "    " : "      ")<\(field.ttxName) value=\"\(xmlEscaped(text))\"/>\n"
        }
        if let g = group { out += "    </\(g)>\n" }
        return out + "  </\(element)>\n"
    }

    /// A field's TTX value text, or nil when it is written as part of another field.
    static func fieldText(_ t: FieldTable, _ field: Member) throws -> String? {
        let raw = try t.rawValue(field.name)
        switch field.ttxFormat {
        case .omitted: return nil
        case .versionFixed, .versionHex:
            // A version pair (major, minor) written as one: its minor half is the omitted member.
            let minorName = t.fields.first { $0.ttxFormat == .omitted }?.name
            let minor = try minorName.map { try t.rawValue($0) } ?? 0
            let combined = UInt32(truncatingIfNeeded: raw) << 16 | UInt32(truncatingIfNeeded: minor)
            return field.ttxFormat == .versionHex ? "0x" + paddedHex(combined, 8) : decimalText(Int64(combined), scale: Fixed.scale)
        default: return scalarText(raw, field.kind, field.ttxFormat)
        }
    }

    static func fuseFields(_ t: FieldTable, _ element: XMLElement, apply: Bool) throws {
        var byTTXName: [String: Member] = [:]
        for f in type(of: t).allFields { byTTXName[f.ttxName] = f }
        func fuseChild(_ child: XMLElement) throws {
            if t.tag == "post" && (child.name == "psNames" || child.name == "extraNames") { return }   // names come from the font
            if child.value("value") == nil, !child.children.isEmpty {
                for grandchild in child.children { try fuseChild(grandchild) }   // <panose>
                return
            }
            guard let field = byTTXName[child.name], field.ttxFormat != .omitted else {
                let known = type(of: t).allFields.filter { $0.ttxFormat != .omitted }.map(\.ttxName)
                var message = "<\(child.name)> is not a field of \(element.name)"
                if let near = closestName(to: child.name, in: known) { message += " (did you mean <\(near)>?)" }
                throw XMLError(message, line: child.line, column: child.column)
            }
            let text = try child.attribute("value")
            do {
                try setField(t, field, text, apply: apply)
            } catch let e as FontError {
                throw XMLError(e.message, line: child.line, column: child.column)
            } catch let e as XMLError {
                throw XMLError(e.message, line: child.line, column: child.column)
            }
        }
        for child in element.children { try fuseChild(child) }
    }

    /// Parses a field's TTX value and checks it fits the field's type; sets it when `apply`.
    static func setField(_ t: FieldTable, _ field: Member, _ text: String, apply: Bool) throws {
        func bad(_ what: String) -> XMLError { XMLError("\(field.ttxName) value '\(text)' is not \(what)", line: 0, column: 0) }
        func store(_ name: String, _ v: Int64) throws {
            let k = field.kind
            guard k.rawRange.contains(v) else {
                throw FontError("\(t.tag).\(name) is \(k.typeName) (\(k.rawRange.lowerBound)...\(k.rawRange.upperBound)), got \(v)")
            }
            if apply { try t.setRaw(name, v) }
        }
        switch field.ttxFormat {
        case .omitted: return
        case .versionFixed, .versionHex:
            let trimmed = text.trimmingWhitespace()
            let combined: Int64
            if trimmed.hasPrefix("0x") {
                guard let v = parseInteger(trimmed) else { throw bad("a version") }; combined = v
            } else {
                guard let v = Double(trimmed).flatMap({ scaled($0, Fixed.scale) }) else { throw bad("a version") }; combined = v
            }
            guard (0...0xFFFF_FFFF).contains(combined) else { throw bad("a version") }
            try store(field.name, combined >> 16)
            if let minor = t.fields.first(where: { $0.ttxFormat == .omitted }) { try t.setRaw(minor.name, combined & 0xFFFF) }
        default:
            guard let v = scalarValue(text, field.kind, field.ttxFormat) else { throw bad(scalarExpectation(field.kind, field.ttxFormat)) }
            try store(field.name, v)
        }
    }

    static func fieldTableConverter(_ tag: Tag) -> Converter {
        Converter(
            dump: { face in try face.fieldTable(tag).map { try fieldTable($0, xmlName(tag)) } },
            fuse: { element, face, apply in
                guard let table = try face.fieldTable(tag) else {
                    throw XMLError("the face has no \(tag.trimmed) table to fuse into", line: element.line, column: element.column)
                }
                try fuseFields(table, element, apply: apply)
            })
    }
}

/// A byte as Python writes it inside a string literal (Latin-1): printable characters as they
/// are, a backslash doubled, \t \n \r, and other control bytes as \xNN.
func pythonEscaped(_ b: UInt8) -> String {
    switch b {
    case 0x5C: return "\\\\"
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x20...0x7E,
        0xA1...0xFF where b != 0xAD:
        return String(Character(Unicode.Scalar(b)))
    default: return "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
    }
}

/// The bytes of a Python string literal's body (Latin-1, with \xNN, \t, \n, \r, \\ and quote
/// escapes), or nil when it holds a character beyond Latin-1 or a broken escape.
func pythonUnescaped(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    var chars = Array(text.unicodeScalars)[...]
    while let c = chars.popFirst() {
        guard c == "\\" else {
            guard c.value <= 0xFF else { return nil }
            out.append(UInt8(c.value))
            continue
        }
        guard let e = chars.popFirst() else { return nil }
        switch e {
        case "x":
            guard chars.count >= 2, let v = UInt8(String(String.UnicodeScalarView(chars.prefix(2))), radix: 16) else { return nil }
            chars = chars.dropFirst(2)
            out.append(v)
        case "t": out.append(0x09)
        case "n": out.append(0x0A)
        case "r": out.append(0x0D)
        case "\\", "'", "\"": out.append(UInt8(e.value))
        default: return nil
        }
    }
    return out
}
