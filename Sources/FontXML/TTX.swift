import FontModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dump and fuse tables in fontTools' TTX dialect, so files interoperate with `ttx`.
/// Each typed table has a converter, found by tag: tables of fields and structured tables
/// (FontModel's `TableRegistry`) get theirs from their descriptions (`Tables/FieldTable+TTX`,
/// `Tables/Structured+TTX`); the others have one file each in `Tables/`. Every other table is
/// written as `<TAG raw="True"><hexdata>`, which fontTools reads back as raw bytes.
public enum TTX {
    /// How one table is written to and read from TTX XML.
    struct Converter: Sendable {
        /// The table's element; nil writes it as hexdata (a variant with no typed XML, such as a
        /// cmap subtable format fontTools does not parse either).
        let dump: @Sendable (Face) throws -> String?
        /// Checks (apply: false) or fuses (apply: true) the table's element into the face.
        let fuse: @Sendable (XMLElement, Face, _ apply: Bool) throws -> Void
    }

    /// The table's converter: its own (`TTXTable`, one file each in `Tables/`), or one made from
    /// its description; nil for tags the registry does not type (written as hexdata).
    static func converter(for tag: Tag) -> Converter? {
        guard let type = TableRegistry.type(for: tag) else { return nil }
        if let own = type as? TTXTable.Type { return own.ttx }
        if type is FieldTable.Type { return fieldTableConverter(tag) }
        if type is StructuredTable.Type { return structuredConverter(tag) }
        if type.shapeDescribed != nil { return shapeDescribedConverter(tag) }
        return nil
    }

    /// Tables written as typed XML (the rest as hexdata).
    public static let typedTags: Set<Tag> = Set(TableRegistry.types.map { $0.tableTag }.filter { converter(for: $0) != nil })

    // MARK: tag names, as fontTools' tagToXML / xmlToTag

    public static func xmlName(_ tag: Tag) -> String {
        let text = tag.description
        if text == "OS/2" { return "OS_2" }
        let trimmed = tag.trimmed
        let identifier =
            trimmed.first.map { $0.isLetter || $0 == "_" } == true
            && trimmed.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
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
            if chars[i] == "_" {
                tag.append(chars[i + 1])
            } else if chars[i + 1] == "_" {
                tag.append(chars[i])
            } else if let v = UInt8(String(chars[i...i + 1]), radix: 16) {
                tag.unicodeScalars.append(Unicode.Scalar(v))
            } else {
                return nil
            }
            i += 2
        }
        return Tag(string: tag)
    }

    // MARK: dump

    /// The TTX document for `tags` of a face (all tables, plus GlyphOrder, when nil).
    public static func dump(_ face: Face, tags requested: [Tag]? = nil) throws -> String {
        var parts: [String] = []
        try dump(face, tags: requested) { parts.append($0) }
        // Joined once, at its final size (the tables can be megabytes each).
        var out = ""
        out.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for part in parts { out += part }
        return out
    }

    /// The same document in pieces, each table's element handed on as soon as it is made, so a
    /// dump to a file never holds the whole document.
    public static func dump(_ face: Face, tags requested: [Tag]? = nil, piece: (String) throws -> Void) throws {
        let tags = (requested ?? face.tags).sorted(by: { $0.description < $1.description })
        for tag in tags where !face.has(tag) { throw FontError("the face has no '\(tag)' table") }
        try piece("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ttFont sfntVersion=\"\(sfntVersionText(face.sfntVersion))\">\n")
        if requested == nil { try piece(try glyphOrder(face)) }
        for tag in tags {
            try piece("\n")
            try piece(try table(tag, of: face))
        }
        try piece("\n</ttFont>\n")
    }

    static func sfntVersionText(_ v: UInt32) -> String {
        if v == Face.cffVersion { return "OTTO" }
        if v == 0x7472_7565 { return "true" }
        let bytes = [v >> 24, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF]
        return bytes.map { "\\x" + paddedHex($0, 2) }.joined()
    }

    static func glyphOrder(_ face: Face) throws -> String {
        var out = XMLText()
        out.add("\n  <GlyphOrder>\n    <!-- The 'id' attribute is only for humans; it is ignored when parsed. -->\n")
        for (id, name) in try face.glyphNames().enumerated() {
            out.add("    <GlyphID id=\""); out.add(id); out.add("\" name=\""); out.add(xmlEscaped(name)); out.add("\"/>\n")
        }
        out.add("  </GlyphOrder>\n")
        return out.string
    }

    /// A table's element. A typed table that does not decode is written as its bytes, with a
    /// comment saying why (as ttx does), so the rest of the dump and a later fuse still work.
    static func table(_ tag: Tag, of face: Face) throws -> String {
        var problem: String?
        if let converter = converter(for: tag) {
            do {
                if let element = try converter.dump(face) { return element }
            } catch let error as FontError {
                problem = error.description
            }
        }
        let name = xmlName(tag)
        var out = "  <\(name) raw=\"True\">\n"
        if let problem { out += "    <!-- not decoded, so written as bytes: \(xmlComment(problem)) -->\n" }
        return out + "    <hexdata>\n" + hexLines(try face.rawTable(tag) ?? []) + "    </hexdata>\n  </\(name)>\n"
    }

    /// Text that can stand inside an XML comment (no "--").
    static func xmlComment(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "-", out.last == "-" { out += " " }
            out.append(c)
        }
        return xmlEscaped(out)
    }

    /// Fixed-point as fontTools writes it (its fixedToStr): the fewest decimals that tell the
    /// value from its neighbours, printed with C's rounding ("2.37", "22.07812", "-0.00008"); a
    /// value within half a step of an integer as that integer ("1.0").
    static func decimalText(_ raw: Int64, scale: Double) -> String {
        // 16.16 and 2.14 (scales that are powers of two) in exact integer arithmetic, which gives
        // printf's digits without printf (its variadic call dominated CFF dumps).
        switch scale {
        case Fixed.scale: return binaryFractionText(raw, bits: Fixed.fractionBits)
        case F2Dot14.scale: return binaryFractionText(raw, bits: F2Dot14.fractionBits)
        default: return multipleText(Double(raw) / scale, factor: 1 / scale)
        }
    }

    /// `multipleText` for raw / 2^bits, computed exactly: the neighbours half a step away are
    /// (2·raw ∓ 1) / 2^(bits+1), formatted as printf's "%.8f" would format them.
    static func binaryFractionText(_ raw: Int64, bits: Int) -> String {
        if raw == 0 { return "0.0" }
        // Beyond 32-bit fields the products below could overflow: the general path.
        guard raw.magnitude < 1 << 40 else { return multipleText(Double(raw) / Double(1 << bits), factor: 1 / Double(1 << bits)) }
        let lo = 2 * raw - 1, hi = 2 * raw + 1, shift = bits + 1
        // Int(lo) != Int(hi): truncated toward zero, the neighbours lie on either side of an integer.
        if lo / (1 << shift) != hi / (1 << shift) { return String((Double(raw) / Double(1 << bits)).rounded(.toNearestOrEven) + 0.0) }
        let loText = fixedDigits(lo, shift: shift, decimals: 8), hiText = fixedDigits(hi, shift: shift, decimals: 8)
        guard loText.count == hiText.count, let period = loText.firstIndex(of: UInt8(ascii: ".")),
            let differ = zip(loText.indices, zip(loText, hiText)).first(where: { $0.1.0 != $0.1.1 })?.0, differ > period
        else {
            return String(Double(raw) / Double(1 << bits))
        }
        return String(decoding: fixedDigits(raw, shift: bits, decimals: differ - period), as: UTF8.self)
    }

    /// numerator / 2^shift with `decimals` digits after the point, rounded half to even as
    /// glibc's printf rounds an exact binary value; a minus sign whenever the value is negative.
    static func fixedDigits(_ numerator: Int64, shift: Int, decimals: Int) -> [UInt8] {
        var power: UInt64 = 1
        for _ in 0..<decimals { power *= 10 }
        let scaled = numerator.magnitude * power
        var n = scaled >> UInt64(shift)
        let rest = scaled & ((1 << UInt64(shift)) - 1), half: UInt64 = 1 << UInt64(shift - 1)
        if rest > half || (rest == half && n & 1 == 1) { n += 1 }
        var text = XMLText()
        if numerator < 0 { text.add("-") }
        text.add(Int(n / power))
        if decimals > 0 {
            text.add(".")
            let fraction = String(n % power)
            text.add(String(repeating: "0", count: decimals - fraction.count) + fraction)
        }
        return text.bytes
    }

    /// A value that is a multiple of `factor` (a fixed-point step, or an angle in F2Dot14 steps
    /// of 180/16384 degrees), as fontTools' nearestMultipleShortestRepr writes it: rounded to
    /// the multiple, then the fewest decimals that tell it from its neighbours.
    static func multipleText(_ value: Double, factor: Double) -> String {
        if value == 0 { return "0.0" }
        let v = (value / factor + 0.5).rounded(.down) * factor   // otRound
        let lo = v - 0.5 * factor, hi = v + 0.5 * factor
        if Int(lo) != Int(hi) { return String(v.rounded(.toNearestOrEven) + 0.0) }   // + 0.0: no "-0.0"
        let loText = cFormat("%.8f", lo), hiText = cFormat("%.8f", hi)
        guard let period = loText.firstIndex(of: "."), loText.count == hiText.count,
            let differ = zip(loText.indices, zip(loText, hiText)).first(where: { $0.1.0 != $0.1.1 })?.0
        else { return String(v) }
        return cFormat("%.\(loText.distance(from: period, to: differ))f", v)
    }

    /// A fixed-point number as fontTools writes it.
    static func text<F: FixedPointNumber>(_ v: F) -> String { binaryFractionText(Int64(v.raw), bits: F.fractionBits) }

    /// A number held as a Double, written as the fixed-point value it is stored as.
    static func text<F: FixedPointNumber>(_ value: Double, as type: F.Type) -> String { text(F(clamping: value)) }

    /// An attribute's text as a fixed-point number; nil when it is not a number the type can hold.
    static func fixedPoint<F: FixedPointNumber>(_ text: String, as type: F.Type) -> F? {
        Double(text.trimmingWhitespace()).flatMap { F(rounding: $0) }
    }

    /// Python's repr of a float ("0.001", "8.0", "1e-05"): Swift's shortest round-trip text.
    static func pythonFloatText(_ v: Double) -> String { "\(v)" }

    /// A number formatted by C's printf.
    static func cFormat(_ format: String, _ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        return String(cString: buffer)
    }

    static func hexLines(_ bytes: [UInt8], indent: Int = 6) -> String {
        var out = XMLText()
        out.hexLines(bytes, indent: indent)
        return out.string
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

    /// `onTable` is told of each table element as it is checked, then as it is fused (for a
    /// progress bar: a CJK font's CFF takes a second each way).
    @discardableResult
    public static func fuse(
        _ root: XMLElement, into face: Face,
        onTable: ((_ table: XMLElement, _ applying: Bool) -> Void)? = nil
    ) throws -> [Tag] {
        guard root.name == "ttFont" else {
            throw XMLError("the root element is <\(root.name)>, expected <ttFont>", line: root.line, column: root.column)
        }
        _ = try fuse(root, into: face, apply: false, onTable: onTable)
        return try fuse(root, into: face, apply: true, onTable: onTable)
    }

    private static func fuse(
        _ root: XMLElement, into face: Face, apply: Bool,
        onTable: ((XMLElement, Bool) -> Void)?
    ) throws -> [Tag] {
        var fused: [Tag] = []
        // A bitmap location table and its data table given together are fused as one (each
        // needs the other's new content); the pair is fused where the location table stands.
        let typedElements = Dictionary(root.children.filter { !isRawTable($0) }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func typedPartner(_ tag: Tag, _ kind: EmbeddedBitmaps.Kind, data: Bool) -> XMLElement? {
            typedElements[xmlName(data ? kind.locatorTag : kind.dataTag)].flatMap { typedElements[xmlName(tag)] != nil ? $0 : nil }
        }
        for element in root.children {
            onTable?(element, apply)
            if element.name == "GlyphOrder" { try checkGlyphOrder(element, face); continue }
            guard let tag = tag(fromXMLName: element.name) else {
                throw XMLError("<\(element.name)> is not a table name", line: element.line, column: element.column)
            }
            if let (kind, isData) = bitmapTable(tag), let partner = typedPartner(tag, kind, data: isData) {
                if !isData { try BitmapXML.fuse(locator: element, data: partner, kind, face, apply) }
                fused.append(tag)
                continue
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
                throw XMLError(
                    "GlyphOrder differs from the font's at glyph \(i) ('\(name)'); fusing does not rename glyphs", line: g.line,
                    column: g.column)
            }
        }
    }

    /// A table given as its bytes: its first child is a bare `<hexdata>` (meta's typed entries
    /// are `<hexdata tag=>`).
    static func isRawTable(_ element: XMLElement) -> Bool {
        guard let first = element.children.first else { return false }
        return first.name == "hexdata" && first.attributeList.isEmpty
    }

    /// Checks (apply: false) or fuses (apply: true) one table element.
    static func fuseTable(_ tag: Tag, _ element: XMLElement, into face: Face, apply: Bool) throws {
        if isRawTable(element), let hexdata = element.children.first {
            let bytes = try hexBytes(hexdata)
            if apply { face.setRawTable(tag, bytes) }
            return
        }
        guard let converter = converter(for: tag) else {
            throw XMLError(
                "<\(element.name)> has no typed XML yet; give it as <\(element.name) raw=\"True\"><hexdata>…", line: element.line,
                column: element.column)
        }
        try converter.fuse(element, face, apply)
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
        guard hex.count % 2 == 0 else {
            throw XMLError("<\(element.name)> must hold pairs of hex digits", line: element.line, column: element.column)
        }
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

    /// A per-glyph table's `<child name="glyph" value=…/>` elements (LTSH's yPel, TSI5's
    /// glyphgroup): each glyph's value by id, nil where none is given.
    static func perGlyphValues(_ element: XMLElement, _ child: String, _ range: ClosedRange<Int64>, face: Face) throws -> [Int?] {
        var values: [Int?] = Array(repeating: nil, count: try face.glyphCount)
        let reader = StructuredReader(face: face)
        for e in element.children {
            guard e.name == child else {
                throw XMLError("<\(e.name)> in <\(element.name)>: expected <\(child) name= value=/>", line: e.line, column: e.column)
            }
            let id = try reader.glyph(try e.attribute("name"), e)
            guard id < values.count else {
                throw XMLError("glyph \(id) is past the font's \(values.count) glyphs", line: e.line, column: e.column)
            }
            values[id] = Int(try integerAttribute(e, "value", range))
        }
        return values
    }

    /// An integer attribute within a range, or an error at the element.
    static func integerAttribute(_ e: XMLElement, _ key: String, _ range: ClosedRange<Int64>) throws -> Int64 {
        let text = try e.attribute(key)
        guard let v = parseInteger(text), range.contains(v) else {
            throw XMLError(
                "\(key)=\"\(text)\" is not a number in \(range.lowerBound)...\(range.upperBound)", line: e.line, column: e.column)
        }
        return v
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
        var t = time_t(value <= epochDifference ? 0 : value - epochDifference)   // no overflow on a hostile date
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let day = parts.tm_mday < 10 ? " \(parts.tm_mday)" : "\(parts.tm_mday)"
        return
            "\(weekdays[Int(parts.tm_wday)]) \(months[Int(parts.tm_mon)]) \(day) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) \(parts.tm_year + 1900)"
    }

    static func parseAsctime1904(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 5, let month = months.firstIndex(of: String(parts[1])), let day = Int32(parts[2]), let year = Int32(parts[4])
        else { return nil }
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
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}

/// A table with its own TTX converter (the hand-written ones, one file each in `Tables/`):
/// `TTX.converter(for:)` finds it through the registry, so adding one touches its file only.
protocol TTXTable {
    static var ttx: TTX.Converter { get }
}
