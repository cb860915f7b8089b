import FontModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dump and fuse tables in fontTools' TTX dialect, so files interoperate with `ttx`.
/// Fixed-layout tables are written from their field descriptions (TTX name and format per field);
/// `name`, `hmtx`/`vmtx` and `loca` have their own elements; every other table is written as
/// `<TAG raw="True"><hexdata>`, which fontTools reads back as raw bytes.
public enum TTX {
    /// Tables written as typed XML (the rest as hexdata).
    public static let typedTags: Set<Tag> = ["head", "hhea", "vhea", "maxp", "OS/2", "post", "name", "cmap", "hmtx", "vmtx", "loca", "glyf"]
    /// cmap subtable formats written as typed XML (a cmap with others is written as hexdata).
    static let cmapFormats: Set<Int> = [0, 4, 6, 10, 12, 13, 14]

    // MARK: tag names, as fontTools' tagToXML / xmlToTag

    public static func xmlName(_ tag: Tag) -> String {
        let text = tag.description
        if text == "OS/2" { return "OS_2" }
        let trimmed = tag.trimmed
        let identifier = trimmed.first.map { $0.isLetter || $0 == "_" } == true && trimmed.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        if identifier { return trimmed }
        // fontTools' tagToIdentifier: a-z0-9 as "_c", A-Z as "C_", anything else as its hex code.
        var ident = ""
        for c in trimmed.unicodeScalars {
            switch c.value {
            case 0x61...0x7A, 0x30...0x39: ident += "_" + String(Character(c))
            case 0x41...0x5A: ident += String(Character(c)) + "_"
            default: ident += String(c.value, radix: 16)
            }
        }
        return ident.first?.isNumber == true ? "_" + ident : ident
    }

    public static func tag(fromXMLName name: String) -> Tag? {
        if name == "OS_2" { return "OS/2" }
        guard name.count == 8 else { return Tag(string: name) }
        // fontTools' identifierToTag: pairs "_c" → c, "C_" → C, else two hex digits.
        var chars = Array(name)
        if chars.count % 2 == 1, chars.first == "_" { chars.removeFirst() }
        var tag = ""
        var i = 0
        while i + 1 < chars.count {
            if chars[i] == "_" { tag.append(chars[i + 1]) }
            else if chars[i + 1] == "_" { tag.append(chars[i]) }
            else if let v = UInt8(String(chars[i...i + 1]), radix: 16) { tag.unicodeScalars.append(Unicode.Scalar(v)) }
            else { return nil }
            i += 2
        }
        return Tag(string: tag)
    }

    // MARK: dump

    /// The TTX document for `tags` of a face (all tables, plus GlyphOrder, when nil).
    public static func dump(_ face: Face, tags requested: [Tag]? = nil) throws -> String {
        let tags = requested ?? face.tags
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<ttFont sfntVersion=\"\(sfntVersionText(face.sfntVersion))\">\n"
        if requested == nil { out += try glyphOrder(face) }
        for tag in tags.sorted(by: { $0.description < $1.description }) {
            guard face.has(tag) else { throw FontError("the face has no '\(tag)' table") }
            out += "\n" + (try table(tag, of: face))
        }
        out += "\n</ttFont>\n"
        return out
    }

    static func sfntVersionText(_ v: UInt32) -> String {
        if v == Face.cffVersion { return "OTTO" }
        if v == 0x7472_7565 { return "true" }
        let bytes = [v >> 24, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF]
        return bytes.map { "\\x" + paddedHex($0, 2) }.joined()
    }

    static func glyphOrder(_ face: Face) throws -> String {
        var out = "\n  <GlyphOrder>\n    <!-- The 'id' attribute is only for humans; it is ignored when parsed. -->\n"
        for (id, name) in try face.glyphNames().enumerated() { out += "    <GlyphID id=\"\(id)\" name=\"\(xmlEscaped(name))\"/>\n" }
        return out + "  </GlyphOrder>\n"
    }

    static func table(_ tag: Tag, of face: Face) throws -> String {
        let name = xmlName(tag)
        if tag == "post", let post = try face.post { return try postTable(post, face) }
        if let fields = try face.fieldTable(tag) { return try fieldTable(fields, name) }
        switch tag {
        case "name": return try nameTable(face.name)
        case "hmtx": return try metrics(face.hmtx, face, "hmtx", "width", "lsb")
        case "vmtx":
            guard let v = try face.vmtx else { break }
            return try metrics(v, face, "vmtx", "height", "tsb")
        case "loca": return "  <loca>\n    <!-- The 'loca' table will be calculated by the compiler -->\n  </loca>\n"
        case "cmap":
            if let cmap = try face.cmap, cmap.records.allSatisfy({ cmapFormats.contains($0.subtable.format) }) { return try cmapTable(cmap, face) }
        case "glyf":
            if let glyf = try face.glyf { return try glyfTable(glyf, face) }
        default: break
        }
        return "  <\(name) raw=\"True\">\n    <hexdata>\n" + hexLines(try face.rawTable(tag) ?? []) + "    </hexdata>\n  </\(name)>\n"
    }

    /// post: the header fields, and for format 2 the names fontTools needs to compile it.
    static func postTable(_ post: PostTable, _ face: Face) throws -> String {
        var out = try fieldTable(post, "post")
        guard post.version == 0x0002_0000, let stored = try post.glyphNames(count: try face.glyphCount) else { return out }
        out.removeLast("  </post>\n".count)
        out += "    <psNames>\n"
        let unique = try face.glyphNames()
        for (u, p) in zip(unique, stored).sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) where u != p {
            out += "      <psName name=\"\(xmlEscaped(p))\" psName=\"\(xmlEscaped(u))\"/>\n"
        }
        out += "    </psNames>\n    <extraNames>\n"
        for n in try post.extraNames() { out += "      <psName name=\"\(xmlEscaped(n))\"/>\n" }
        return out + "    </extraNames>\n  </post>\n"
    }

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
    static func fieldText(_ t: FieldTable, _ field: Field) throws -> String? {
        let raw = try t.rawValue(field.name)
        switch field.ttxFormat {
        case .omitted: return nil
        case .hex: return "0x" + String(UInt32(truncatingIfNeeded: raw), radix: 16)
        case .hex8: return "0x" + paddedHex(UInt32(truncatingIfNeeded: raw), 8)
        case .binary:
            let bits = field.kind.size * 8
            let digits = String(UInt64(UInt32(truncatingIfNeeded: raw)), radix: 2)
            let padded = String(repeating: "0", count: max(0, bits - digits.count)) + digits
            return stride(from: 0, to: bits, by: 8).map { start in
                String(padded.dropFirst(start).prefix(8))
            }.joined(separator: " ")
        case .versionFixed, .versionHex:
            let minorName = t.fields.first { $0.ttxFormat == .omitted }?.name
            let minor = try minorName.map { try t.rawValue($0) } ?? 0
            let combined = UInt32(truncatingIfNeeded: raw) << 16 | UInt32(truncatingIfNeeded: minor)
            return field.ttxFormat == .versionHex ? "0x" + paddedHex(combined, 8) : decimalText(Int64(combined), scale: 65536)
        case .plain:
            switch field.kind {
            case .fixed, .version32: return decimalText(raw, scale: 65536)
            case .f2dot14: return decimalText(raw, scale: 16384)
            case .longDateTime: return asctime1904(raw)
            case .tag: return Tag(UInt32(truncatingIfNeeded: raw)).description
            default: return String(raw)
            }
        }
    }

    /// Fixed-point as fontTools writes it: the shortest decimal that maps back ("2.37", "1.0").
    static func decimalText(_ raw: Int64, scale: Double) -> String { String(shortestDecimal(raw, scale: scale)) }

    static func nameTable(_ name: NameTable) -> String {
        var out = "  <name>\n"
        for r in name.records {
            let unicode = r.isUTF16 ? "" : " unicode=\"True\""
            let text = r.text ?? String(decoding: r.bytes, as: UTF8.self)
            out += "    <namerecord nameID=\"\(r.nameID)\" platformID=\"\(r.platformID)\" platEncID=\"\(r.encodingID)\" langID=\"0x\(String(r.languageID, radix: 16))\"\(unicode)>\n"
            out += "      \(xmlEscapedKeepingEdges(text))\n    </namerecord>\n"
        }
        return out + "  </name>\n"
    }

    static func metrics(_ m: MetricsTable, _ face: Face, _ element: String, _ advance: String, _ bearing: String) throws -> String {
        let names = try face.glyphNames()
        // One line per glyph, tens of thousands in CJK fonts: built as bytes, not interpolated strings.
        var out: [UInt8] = []
        out.reserveCapacity(names.count * 48)
        func append(_ s: String) { out.append(contentsOf: s.utf8) }
        func append(_ v: Int) {
            if v < 0 { out.append(UInt8(ascii: "-")) }
            var magnitude = v.magnitude, digits: [UInt8] = []
            repeat { digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10)); magnitude /= 10 } while magnitude > 0
            out.append(contentsOf: digits.reversed())
        }
        append("  <\(element)>\n")
        let middle = "\" \(advance)=\"", last = "\" \(bearing)=\""
        // fontTools orders by glyph name (code point order).
        let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
        for id in order where id < m.glyphCount {
            append("    <mtx name=\"")
            append(xmlEscaped(names[id]))
            append(middle); append(m.advances[id])
            append(last); append(m.sideBearings[id])
            append("\"/>\n")
        }
        append("  </\(element)>\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// cmap as fontTools writes it: one element per encoding record, maps sorted by code.
    static func cmapTable(_ cmap: CmapTable, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        func glyphName(_ id: Int) -> String { id < names.count ? names[id] : "glyph\(id)" }
        var out = "  <cmap>\n    <tableVersion version=\"\(cmap.version)\"/>\n"
        for r in cmap.records {
            let st = r.subtable
            let mapping = try st.mapping()
            let element = "cmap_format_\(st.format)"
            var attributes = "platformID=\"\(r.platformID)\" platEncID=\"\(r.encodingID)\""
            switch st.format {
            case 14: break
            case 10, 12, 13:
                attributes += " format=\"\(st.format)\" reserved=\"0\" length=\"\(st.bytes.count)\" language=\"\(st.language)\""
                if st.format != 10 { attributes += " nGroups=\"\(max(0, (st.bytes.count - 16) / 12))\"" }
            default: attributes += " language=\"\(st.language)\""
            }
            out += "    <\(element) \(attributes)>\n"
            if st.format == 14 {
                for (selector, v) in (st.variations ?? [:]).sorted(by: { $0.key < $1.key }) {
                    for range in v.defaults.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                        for uv in range { out += "      <map uv=\"0x\(String(uv, radix: 16))\" uvs=\"0x\(String(selector, radix: 16))\"/>\n" }
                    }
                    for (uv, g) in v.glyphs.sorted(by: { $0.key < $1.key }) {
                        out += "      <map uv=\"0x\(String(uv, radix: 16))\" uvs=\"0x\(String(selector, radix: 16))\" name=\"\(xmlEscaped(glyphName(g)))\"/>\n"
                    }
                }
            } else {
                for (code, g) in mapping.sorted(by: { $0.key < $1.key }) {
                    out += "      <map code=\"0x\(String(code, radix: 16))\" name=\"\(xmlEscaped(glyphName(g)))\"/>\n"
                }
            }
            out += "    </\(element)>\n"
        }
        return out + "  </cmap>\n"
    }

    /// Component flags fontTools keeps in XML; the others follow from the data and are recomputed.
    static let keptComponentFlags: UInt16 = GlyphComponent.roundXYToGrid | GlyphComponent.useMyMetrics
        | GlyphComponent.overlapCompound | GlyphComponent.scaledComponentOffset | GlyphComponent.unscaledComponentOffset

    /// glyf as fontTools writes it: TTGlyph elements in glyph-name order; instructions as bytecode.
    static func glyfTable(_ glyf: GlyfTable, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        var out = "  <glyf>\n    <!-- The xMin, yMin, xMax and yMax values\n         will be recalculated by the compiler. -->\n\n"
        for id in names.indices.sorted(by: { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }) where id < glyf.glyphCount {
            let g = try glyf.glyph(id)
            let name = xmlEscaped(names[id])
            guard !g.isEmpty || !g.instructions.isEmpty, let b = g.bounds ?? (g.isEmpty ? GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0) : nil) else {
                out += "    <TTGlyph name=\"\(name)\"/><!-- contains no outline data -->\n\n"
                continue
            }
            out += "    <TTGlyph name=\"\(name)\" xMin=\"\(b.xMin)\" yMin=\"\(b.yMin)\" xMax=\"\(b.xMax)\" yMax=\"\(b.yMax)\">\n"
            for (ci, contour) in g.contours.enumerated() {
                out += "      <contour>\n"
                for (pi, p) in contour.enumerated() {
                    out += "        <pt x=\"\(p.x)\" y=\"\(p.y)\" on=\"\(p.onCurve ? 1 : 0)\"\(ci == 0 && pi == 0 && g.overlapSimple ? " overlap=\"1\"" : "")/>\n"
                }
                out += "      </contour>\n"
            }
            for c in g.components {
                var attributes = "glyphName=\"\(xmlEscaped(c.glyphID < names.count ? names[c.glyphID] : "glyph\(c.glyphID)"))\""
                attributes += c.flags & GlyphComponent.argsAreXYValues != 0 ? " x=\"\(c.arg1)\" y=\"\(c.arg2)\"" : " firstPt=\"\(c.arg1)\" secondPt=\"\(c.arg2)\""
                let t = c.transform
                func f(_ v: Int) -> String { decimalText(Int64(v), scale: 16384) }
                if t.xy != 0 || t.yx != 0 { attributes += " scalex=\"\(f(t.xx))\" scale01=\"\(f(t.xy))\" scale10=\"\(f(t.yx))\" scaley=\"\(f(t.yy))\"" }
                else if t.xx != t.yy { attributes += " scalex=\"\(f(t.xx))\" scaley=\"\(f(t.yy))\"" }
                else if t.xx != 16384 { attributes += " scale=\"\(f(t.xx))\"" }
                attributes += " flags=\"0x\(String(c.flags & keptComponentFlags, radix: 16))\""
                out += "      <component \(attributes)/>\n"
            }
            if g.instructions.isEmpty { out += "      <instructions/>\n" }
            else { out += "      <instructions>\n        <bytecode>\n" + hexLines(g.instructions).replacingLeading("      ", with: "          ") + "        </bytecode>\n      </instructions>\n" }
            out += "    </TTGlyph>\n\n"
        }
        return out + "  </glyf>\n"
    }

    static func hexLines(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        var i = 0
        while i < bytes.count {
            out += "      "
            for j in i..<min(i + 16, bytes.count) {
                if j > i && (j - i) % 4 == 0 { out += " " }
                out.append(digits[Int(bytes[j] >> 4)]); out.append(digits[Int(bytes[j] & 0xF)])
            }
            out += "\n"
            i += 16
        }
        return out
    }

    // MARK: fuse

    /// Fuses the tables in a TTX document into a face, leaving other tables as they are.
    /// Returns the tags fused. The whole document is checked first (a dry run); on any error,
    /// which names the XML line and column, the face is left exactly as it was.
    @discardableResult
    public static func fuse(_ xml: String, into face: Face) throws -> [Tag] {
        try fuse(try parse(xml), into: face)
    }

    /// Parses a TTX document once, to fuse it into several faces.
    public static func parse(_ xml: String) throws -> XMLElement { try XMLReader.parse(xml) }
    /// Parses a file's bytes: UTF-8 only, checked (invalid bytes are an error with a position).
    public static func parse(bytes: [UInt8]) throws -> XMLElement { try XMLReader.parse(bytes: bytes) }

    @discardableResult
    public static func fuse(_ root: XMLElement, into face: Face) throws -> [Tag] {
        guard root.name == "ttFont" else { throw XMLError("the root element is <\(root.name)>, expected <ttFont>", line: root.line, column: root.column) }
        _ = try fuse(root, into: face, apply: false)
        return try fuse(root, into: face, apply: true)
    }

    private static func fuse(_ root: XMLElement, into face: Face, apply: Bool) throws -> [Tag] {
        var fused: [Tag] = []
        for element in root.children {
            if element.name == "GlyphOrder" { try checkGlyphOrder(element, face); continue }
            guard let tag = tag(fromXMLName: element.name) else {
                throw XMLError("<\(element.name)> is not a table name", line: element.line, column: element.column)
            }
            try fuseTable(tag, element, into: face, apply: apply)
            // Written canonically, as fontTools writes a table it read from XML; glyf keeps every
            // glyph that did not change byte for byte.
            if apply && tag != "glyf" { face.reencode(tag) }
            fused.append(tag)
        }
        return fused
    }

    static func checkGlyphOrder(_ element: XMLElement, _ face: Face) throws {
        let names = try face.glyphNames()
        for (i, g) in element.children.enumerated() where g.name == "GlyphID" {
            let name = try g.attribute("name")
            guard i < names.count, names[i] == name else {
                throw XMLError("GlyphOrder differs from the font's at glyph \(i) ('\(name)'); fusing does not rename glyphs", line: g.line, column: g.column)
            }
        }
    }

    /// Checks (apply: false) or fuses (apply: true) one table element.
    static func fuseTable(_ tag: Tag, _ element: XMLElement, into face: Face, apply: Bool) throws {
        if let hexdata = element.children.first, hexdata.name == "hexdata" {
            let bytes = try hexBytes(hexdata)
            if apply { face.setRawTable(tag, bytes) }
            return
        }
        if let table = try face.fieldTable(tag) { try fuseFields(table, element, apply: apply); return }
        switch tag {
        case "name": try fuseNames(try face.name, element, apply: apply)
        case "hmtx": try fuseMetrics(try face.hmtx, face, element, "width", "lsb", apply: apply)
        case "vmtx":
            guard let v = try face.vmtx else { throw XMLError("the face has no vmtx table to fuse into", line: element.line, column: element.column) }
            try fuseMetrics(v, face, element, "height", "tsb", apply: apply)
        case "loca": return // computed from glyf on save
        case "cmap": try fuseCmap(face, element, apply: apply)
        case "glyf": try fuseGlyf(face, element, apply: apply)
        default:
            throw XMLError("<\(element.name)> has no typed XML yet; give it as <\(element.name) raw=\"True\"><hexdata>…", line: element.line, column: element.column)
        }
    }

    static func fuseFields(_ t: FieldTable, _ element: XMLElement, apply: Bool) throws {
        var byTTXName: [String: Field] = [:]
        for f in type(of: t).allFields { byTTXName[f.ttxName] = f }
        func fuseChild(_ child: XMLElement) throws {
            if t.tag == "post" && (child.name == "psNames" || child.name == "extraNames") { return } // names come from the font
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
    static func setField(_ t: FieldTable, _ field: Field, _ text: String, apply: Bool) throws {
        func bad(_ what: String) -> XMLError { XMLError("\(field.ttxName) value '\(text)' is not \(what)", line: 0, column: 0) }
        func store(_ name: String, _ v: Int64, kind: FieldKind? = nil) throws {
            let k = kind ?? field.kind
            guard k.rawRange.contains(v) else {
                throw FontError("\(t.tag).\(name) is \(k.typeName) (\(k.rawRange.lowerBound)...\(k.rawRange.upperBound)), got \(v)")
            }
            if apply { try t.setRaw(name, v) }
        }
        let trimmed = text.trimmingWhitespace()
        switch field.ttxFormat {
        case .omitted: return
        case .hex, .hex8:
            guard let v = parseInteger(trimmed) else { throw bad("a number") }
            try store(field.name, v)
        case .binary:
            let digits = trimmed.filter { $0 != " " }
            guard let v = Int64(digits, radix: 2) ?? parseInteger(trimmed) else { throw bad("binary digits") }
            try store(field.name, v)
        case .versionFixed, .versionHex:
            let combined: Int64
            if trimmed.hasPrefix("0x") { guard let v = parseInteger(trimmed) else { throw bad("a version") }; combined = v }
            else { guard let d = Double(trimmed) else { throw bad("a version") }; combined = Int64((d * 65536).rounded()) }
            guard (0...0xFFFF_FFFF).contains(combined) else { throw bad("a version") }
            try store(field.name, combined >> 16)
            if let minor = t.fields.first(where: { $0.ttxFormat == .omitted }) { try t.setRaw(minor.name, combined & 0xFFFF) }
        case .plain:
            switch field.kind {
            case .fixed, .version32:
                if trimmed.hasPrefix("0x") { guard let v = parseInteger(trimmed) else { throw bad("a number") }; try store(field.name, v) }
                else { guard let d = Double(trimmed) else { throw bad("a number") }; try store(field.name, Int64((d * 65536).rounded())) }
            case .f2dot14:
                guard let d = Double(trimmed) else { throw bad("a number") }
                try store(field.name, Int64((d * 16384).rounded()))
            case .longDateTime:
                guard let v = parseAsctime1904(trimmed) else { throw bad("a date like 'Fri Mar 10 08:35:35 2023'") }
                try store(field.name, v)
            case .tag:
                guard let tagValue = Tag(string: text) else { throw bad("1 to 4 ASCII characters") }
                try store(field.name, Int64(tagValue.rawValue))
            default:
                guard let v = parseInteger(trimmed) else { throw bad("an integer") }
                try store(field.name, v)
            }
        }
    }

    static func fuseNames(_ name: NameTable, _ element: XMLElement, apply: Bool) throws {
        var records: [NameRecord] = []
        for r in element.children {
            guard r.name == "namerecord" else { throw XMLError("<\(r.name)> in <name>: expected <namerecord>", line: r.line, column: r.column) }
            func number(_ key: String) throws -> Int {
                let text = try r.attribute(key)
                guard let v = parseInteger(text), (0...0xFFFF).contains(v) else {
                    throw XMLError("\(key)=\"\(text)\" is not a number 0...65535", line: r.line, column: r.column)
                }
                return Int(v)
            }
            let platform = try number("platformID"), encoding = try number("platEncID"), language = try number("langID"), id = try number("nameID")
            let text = r.trimmedText
            do {
                guard let record = try NameRecord(platformID: platform, encodingID: encoding, languageID: language, nameID: id, text: text) else {
                    throw XMLError("platform \(platform) encoding \(encoding) text cannot be written (only Unicode, Windows and Mac Roman)", line: r.line, column: r.column)
                }
                records.append(record)
            } catch let e as FontError {
                throw XMLError(e.message, line: r.line, column: r.column)
            }
        }
        if apply { name.replaceRecords(records) }
    }

    /// A cmap element: every subtable it lists replaces the face's cmap records; a subtable whose
    /// mapping did not change keeps its bytes.
    static func fuseCmap(_ face: Face, _ element: XMLElement, apply: Bool) throws {
        guard let cmap = try face.cmap else { throw XMLError("the face has no cmap table to fuse into", line: element.line, column: element.column) }
        var records: [CmapTable.EncodingRecord] = []
        for child in element.children {
            if child.name == "tableVersion" { continue }
            guard child.name.hasPrefix("cmap_format_"), let format = Int(child.name.dropFirst("cmap_format_".count)), cmapFormats.contains(format) else {
                throw XMLError("<\(child.name)> in <cmap>: expected <cmap_format_N> with N one of \(cmapFormats.sorted())", line: child.line, column: child.column)
            }
            func number(_ e: XMLElement, _ key: String, default value: Int64? = nil) throws -> Int64 {
                guard let text = e.value(key) else {
                    if let value { return value }
                    throw XMLError("<\(e.name)> needs the attribute '\(key)'", line: e.line, column: e.column)
                }
                guard let v = parseInteger(text), v >= 0 else { throw XMLError("\(key)=\"\(text)\" is not a number", line: e.line, column: e.column) }
                return v
            }
            func glyph(_ e: XMLElement) throws -> Int {
                let name = try e.attribute("name")
                guard let id = try face.glyphID(named: name) else { throw XMLError("glyph '\(name)' does not exist in this font", line: e.line, column: e.column) }
                return id
            }
            let platform = Int(try number(child, "platformID")), encoding = Int(try number(child, "platEncID"))
            let language = Int(try number(child, "language", default: 0))
            var mapping: [UInt32: Int] = [:]
            var variations: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])] = [:]
            for m in child.children {
                guard m.name == "map" else { throw XMLError("<\(m.name)> in <\(child.name)>: expected <map>", line: m.line, column: m.column) }
                if format == 14 {
                    let uv = UInt32(truncatingIfNeeded: try number(m, "uv")), selector = UInt32(truncatingIfNeeded: try number(m, "uvs"))
                    var v = variations[selector] ?? ([], [:])
                    if m.value("name") == nil || m.value("name") == "None" { v.defaults.append(uv...uv) } else { v.glyphs[uv] = try glyph(m) }
                    variations[selector] = v
                } else {
                    let code = try number(m, "code")
                    guard code <= 0x10FFFF else { throw XMLError("code 0x\(String(code, radix: 16)) is beyond Unicode", line: m.line, column: m.column) }
                    mapping[UInt32(code)] = try glyph(m)
                }
            }
            // Keep the existing subtable (and its bytes) when nothing in it changed.
            let existing = cmap.records.first { $0.platformID == platform && $0.encodingID == encoding && $0.subtable.format == format }?.subtable
            var subtable: CmapSubtable
            if let existing, format != 14, existing.language == language, try existing.mapping() == mapping {
                subtable = existing
            } else if let existing, format == 14, try existing.mapping() == [:], sameVariations(existing.variations ?? [:], variations) {
                subtable = existing
            } else {
                do { subtable = try CmapSubtable(format: format, language: language, mapping: mapping, variations: mergedDefaults(variations)) } catch let e as FontError {
                    throw XMLError(e.message, line: child.line, column: child.column)
                }
            }
            records.append(CmapTable.EncodingRecord(platformID: platform, encodingID: encoding, subtable: subtable))
        }
        if apply { cmap.replaceRecords(records) }
    }

    /// TTGlyph elements replace those glyphs (glyphs not listed stay as they are); a glyph whose
    /// outline, components and instructions did not change keeps its bytes.
    static func fuseGlyf(_ face: Face, _ element: XMLElement, apply: Bool) throws {
        guard let glyf = try face.glyf else { throw XMLError("the face has no glyf table to fuse into", line: element.line, column: element.column) }
        for e in element.children {
            guard e.name == "TTGlyph" else { throw XMLError("<\(e.name)> in <glyf>: expected <TTGlyph>", line: e.line, column: e.column) }
            func fail(_ message: String, _ at: XMLElement) -> XMLError { XMLError(message, line: at.line, column: at.column) }
            func int(_ x: XMLElement, _ key: String) throws -> Int {
                let text = try x.attribute(key)
                guard let v = parseInteger(text), (-0x8000...0xFFFF).contains(v) else { throw fail("\(key)=\"\(text)\" is not a 16-bit integer", x) }
                return Int(v)
            }
            func f2dot14(_ x: XMLElement, _ key: String) throws -> Int? {
                guard let text = x.value(key) else { return nil }
                guard let d = Double(text), (-2.0..<2.0).contains(d) else { throw fail("\(key)=\"\(text)\" is not a 2.14 number (-2 to 2)", x) }
                return Int((d * 16384).rounded())
            }
            let name = try e.attribute("name")
            guard let id = try face.glyphID(named: name) else { throw fail("glyph '\(name)' does not exist in this font", e) }
            var glyph = TrueTypeGlyph()
            for child in e.children {
                switch child.name {
                case "contour":
                    var points: [GlyphPoint] = []
                    for pt in child.children {
                        guard pt.name == "pt" else { throw fail("<\(pt.name)> in <contour>: expected <pt>", pt) }
                        points.append(GlyphPoint(x: try int(pt, "x"), y: try int(pt, "y"), onCurve: (pt.value("on") ?? "1") != "0"))
                        if pt.value("overlap") == "1" { glyph.overlapSimple = true }
                        if pt.value("cubic") == "1" { throw fail("cubic points need the glyf extensions fontshell does not write yet", pt) }
                    }
                    glyph.contours.append(points)
                case "component":
                    let componentName = try child.attribute("glyphName")
                    guard let componentID = try face.glyphID(named: componentName) else { throw fail("component glyph '\(componentName)' does not exist in this font", child) }
                    guard let flags = parseInteger(child.value("flags") ?? "0"), (0...0xFFFF).contains(flags) else { throw fail("flags must be a 16-bit number", child) }
                    var c: GlyphComponent
                    if child.value("firstPt") != nil {
                        c = GlyphComponent(glyphID: componentID, flags: UInt16(flags) & ~GlyphComponent.argsAreXYValues, arg1: try int(child, "firstPt"), arg2: try int(child, "secondPt"))
                    } else {
                        c = GlyphComponent(glyphID: componentID, flags: UInt16(flags) | GlyphComponent.argsAreXYValues, arg1: try int(child, "x"), arg2: try int(child, "y"))
                    }
                    if let scale = try f2dot14(child, "scale") { c.transform = (scale, 0, 0, scale) }
                    if let sx = try f2dot14(child, "scalex") {
                        c.transform = (sx, try f2dot14(child, "scale01") ?? 0, try f2dot14(child, "scale10") ?? 0, try f2dot14(child, "scaley") ?? sx)
                    }
                    glyph.components.append(c)
                case "instructions":
                    for program in child.children {
                        switch program.name {
                        case "bytecode": glyph.instructions = try hexBytes(program)
                        case "assembly":
                            do { glyph.instructions = try TrueTypeAssembly.assemble(program.text) } catch let e as AssemblyError { throw fail(e.description, program) }
                        default: throw fail("<\(program.name)> in <instructions>: expected <assembly> or <bytecode>", program)
                        }
                    }
                default:
                    throw fail("<\(child.name)> in <TTGlyph>: expected <contour>, <component> or <instructions>", child)
                }
            }
            guard glyph.contours.isEmpty || glyph.components.isEmpty else { throw fail("a glyph has contours or components, not both", e) }
            let current = try glyf.glyph(id)
            let same = current.contours == glyph.contours && current.instructions == glyph.instructions && current.overlapSimple == glyph.overlapSimple
                && current.components.count == glyph.components.count
                && zip(current.components, glyph.components).allSatisfy { a, b in
                    a.glyphID == b.glyphID && a.arg1 == b.arg1 && a.arg2 == b.arg2 && a.transform == b.transform
                        && (a.flags & (keptComponentFlags | GlyphComponent.argsAreXYValues)) == (b.flags & (keptComponentFlags | GlyphComponent.argsAreXYValues))
                }
            if same { continue }
            do {
                if glyph.isEmpty && glyph.instructions.isEmpty {
                    if apply { try glyf.setGlyphData(id, []) }
                } else if apply {
                    try glyf.setGlyph(id, glyph)
                } else {
                    _ = try glyph.encode(compositeBounds: GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0))   // checks it can be stored
                }
            } catch let error as FontError {
                throw fail(error.message, e)
            }
        }
    }

    /// Default variation ranges merged into runs (the XML lists single code points).
    static func mergedDefaults(_ v: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])]) -> [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])] {
        v.mapValues { entry in
            var runs: [ClosedRange<UInt32>] = []
            for r in entry.defaults.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = runs.last, r.lowerBound == last.upperBound + 1, r.upperBound - last.lowerBound <= 255 { runs[runs.count - 1] = last.lowerBound...r.upperBound }
                else { runs.append(r) }
            }
            return (runs, entry.glyphs)
        }
    }

    static func sameVariations(_ a: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])], _ b: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])]) -> Bool {
        guard Set(a.keys) == Set(b.keys) else { return false }
        for (k, x) in a {
            guard let y = b[k], x.glyphs == y.glyphs else { return false }
            let codes = { (r: [ClosedRange<UInt32>]) in Set(r.flatMap { Array($0) }) }
            if codes(x.defaults) != codes(y.defaults) { return false }
        }
        return true
    }

    static func fuseMetrics(_ m: MetricsTable, _ face: Face, _ element: XMLElement, _ advance: String, _ bearing: String, apply: Bool) throws {
        // Rows usually come in glyph order (ttx sorts by name, which is glyph order for CID
        // fonts' cidNNNNN): try the glyph after the last one before hashing the name.
        let names = try face.glyphNames()
        var next = 0
        for e in element.children {
            guard e.name == "mtx" else { throw XMLError("<\(e.name)> in <\(element.name)>: expected <mtx>", line: e.line, column: e.column) }
            let glyph = try e.attribute("name")
            let guess: Int? = next < names.count && names[next] == glyph ? next : nil
            guard let id = try guess ?? face.glyphID(named: glyph) else {
                throw XMLError("glyph '\(glyph)' does not exist in this font", line: e.line, column: e.column)
            }
            next = id + 1
            do {
                guard let a = parseInteger(try e.attribute(advance)), let b = parseInteger(try e.attribute(bearing)) else {
                    throw XMLError("\(advance) and \(bearing) must be integers", line: e.line, column: e.column)
                }
                guard (0...0xFFFF).contains(a) else { throw FontError("\(advance) is UInt16 (0...65535), got \(a)") }
                guard (-32768...32767).contains(b) else { throw FontError("\(bearing) is Int16 (-32768...32767), got \(b)") }
                if apply {
                    try m.setAdvance(id, Int(a))
                    try m.setSideBearing(id, Int(b))
                }
            } catch let error as FontError {
                throw XMLError(error.message, line: e.line, column: e.column)
            }
        }
    }

    /// The bytes written as hex digits in an element (<hexdata>, <bytecode>); whitespace ignored.
    static func hexBytes(_ element: XMLElement) throws -> [UInt8] {
        let hex = Array(element.text.utf8.filter { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) })
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        guard hex.count % 2 == 0 else { throw XMLError("<\(element.name)> must hold pairs of hex digits", line: element.line, column: element.column) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        for i in stride(from: 0, to: hex.count, by: 2) {
            guard let high = value(hex[i]), let low = value(hex[i + 1]) else {
                throw XMLError("<\(element.name)> must hold pairs of hex digits", line: element.line, column: element.column)
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    static func parseInteger(_ text: String) -> Int64? {
        if let v = Int64(text) { return v }   // the common case, without trimming
        let t = text.trimmingWhitespace()
        if t.hasPrefix("0x") || t.hasPrefix("0X") { return Int64(t.dropFirst(2), radix: 16) }
        if t.hasPrefix("-0x") { return Int64(t.dropFirst(3), radix: 16).map { -$0 } }
        return Int64(t)
    }

    // MARK: dates (seconds since 1904-01-01 UTC, written as asctime like fontTools)

    static let epochDifference: Int64 = 2_082_844_800
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func asctime1904(_ value: Int64) -> String {
        var t = time_t(max(0, value - epochDifference))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let day = parts.tm_mday < 10 ? " \(parts.tm_mday)" : "\(parts.tm_mday)"
        return "\(weekdays[Int(parts.tm_wday)]) \(months[Int(parts.tm_mon)]) \(day) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) \(parts.tm_year + 1900)"
    }

    static func parseAsctime1904(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 5, let month = months.firstIndex(of: String(parts[1])), let day = Int32(parts[2]), let year = Int32(parts[4]) else { return nil }
        let clock = parts[3].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        var t = tm()
        t.tm_year = year - 1900; t.tm_mon = Int32(month); t.tm_mday = day
        t.tm_hour = clock[0]; t.tm_min = clock[1]; t.tm_sec = clock[2]
        return Int64(timegm(&t)) + epochDifference
    }
}

/// Lowercase hex, zero-padded to `width` digits.
func paddedHex(_ v: UInt32, _ width: Int) -> String {
    let digits = String(v, radix: 16)
    return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
}

extension String {
    /// Replaces `prefix` at the start of every line.
    func replacingLeading(_ prefix: String, with replacement: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(prefix) ? replacement + line.dropFirst(prefix.count) : String(line)
        }.joined(separator: "\n")
    }

    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
