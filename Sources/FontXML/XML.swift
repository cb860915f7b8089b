import FontModel

/// A parsed XML element with the line and column where it starts, for error messages.
public final class XMLElement {
    public let name: String
    /// Attributes in document order (elements have few; a list is faster than a dictionary).
    public let attributeList: [(key: String, value: String)]
    public internal(set) var children: [XMLElement] = []
    /// Character data directly inside the element (whitespace included).
    public internal(set) var text = ""
    /// `text` without the literal whitespace around it; whitespace written as a character
    /// reference (&#10;) is kept, so a name ending in a newline survives.
    public internal(set) var trimmedText = ""
    public let line: Int
    public let column: Int

    init(name: String, attributes: [(key: String, value: String)], line: Int, column: Int) {
        self.name = name
        self.attributeList = attributes
        self.line = line
        self.column = column
    }

    /// The value of an attribute, or nil.
    public func value(_ key: String) -> String? {
        attributeList.first { $0.key == key }?.value
    }

    public func attribute(_ key: String) throws -> String {
        guard let v = value(key) else { throw XMLError("<\(name)> needs the attribute '\(key)'", line: line, column: column) }
        return v
    }
}

/// A problem in an XML file, with its position.
public struct XMLError: ToolError {
    public let message: String
    public let line: Int
    public let column: Int
    public var file: String?

    public init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String { "\(file.map { $0 + ":" } ?? "")\(line):\(column): \(message)" }
}

/// A small, strict XML reader for TTX files: elements, attributes, text, comments, the XML
/// declaration, CDATA and the predefined and numeric character references. No DTDs.
/// Only UTF-8 is read (invalid bytes, NUL and other encodings are refused with their position),
/// and what could grow without bound is limited (see docs/reliability.md).
struct XMLReader {
    /// Deepest nesting of elements (TTX needs about 6); the reader recurses once per level.
    static let maximumDepth = 256
    /// Most attributes on one element (TTX uses at most about 10).
    static let maximumAttributes = 256

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ text: String) throws -> XMLElement {
        try parse(bytes: Array(text.utf8))
    }

    static func parse(bytes: [UInt8]) throws -> XMLElement {
        try checkCharacters(bytes)
        var reader = XMLReader(bytes)
        return try reader.document()
    }

    /// Refuses bytes that are not UTF-8, and NUL (which XML does not allow and C strings would
    /// cut at), naming the line and column instead of silently replacing them.
    static func checkCharacters(_ bytes: [UInt8]) throws {
        var line = 1, column = 1, offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value == 0 { throw XMLError("NUL character (XML does not allow it)", line: line, column: column) }
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
                offset += UTF8.width(scalar)
            case .emptyInput:
                return
            case .error:
                throw XMLError("invalid UTF-8 at byte \(offset) (TTX files are UTF-8)", line: line, column: column)
            }
        }
    }

    private var atEnd: Bool { i >= bytes.count }
    private func peek(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

    private mutating func advance() {
        if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
        i += 1
    }

    private func error(_ message: String) -> XMLError { XMLError(message, line: line, column: column) }

    /// Whether the input continues with `s` (compared in place: this runs at every '<').
    private func starts(with s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return s.withUTF8Buffer { u in
            for k in 0..<n where bytes[i + k] != u[k] { return false }
            return true
        }
    }

    private mutating func skip(_ s: StaticString) { for _ in 0..<s.utf8CodeUnitCount { advance() } }

    private mutating func skipWhitespace() {
        while let c = peek(), c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { advance() }
    }

    private mutating func skipUntil(_ end: StaticString, what: String) throws {
        while !atEnd && !starts(with: end) { advance() }
        guard !atEnd else { throw error("unterminated \(what)") }
        skip(end)
    }

    private mutating func skipMisc() throws {
        while true {
            skipWhitespace()
            if starts(with: "<?xml") {
                try declaration()
            } else if starts(with: "<?") {
                try skipUntil("?>", what: "processing instruction")
            } else if starts(with: "<!--") {
                try skipUntil("-->", what: "comment")
            } else if starts(with: "<!DOCTYPE") {
                try skipUntil(">", what: "DOCTYPE")
            } else {
                return
            }
        }
    }

    /// `<?xml version="1.0" encoding="…"?>`: any encoding but UTF-8 is refused, not misread.
    private mutating func declaration() throws {
        let (l, c) = (line, column)
        let start = i
        try skipUntil("?>", what: "XML declaration")
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let range = text.firstRange(of: "encoding=") else { return }
        let rest = text[range.upperBound...].dropFirst()
        let name = rest.prefix { $0 != "\"" && $0 != "'" }
        guard ["utf-8", "utf8"].contains(name.lowercased()) else {
            throw XMLError(
                "encoding \"\(name)\" is not supported: TTX files are read as UTF-8 (convert it, e.g. iconv -t UTF-8)", line: l, column: c)
        }
    }

    mutating func document() throws -> XMLElement {
        if starts(with: "\u{FEFF}") { skip("\u{FEFF}") }
        try skipMisc()
        guard peek() == UInt8(ascii: "<") else { throw error(atEnd ? "the file is empty" : "expected an element") }
        let root = try element()
        try skipMisc()
        guard atEnd else { throw error("content after the root element") }
        return root
    }

    private mutating func name() throws -> String {
        let start = i
        while let c = peek(),
            !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">") || c == UInt8(ascii: "/")
                || c == UInt8(ascii: "="))
        {
            advance()
        }
        guard i > start else { throw error("expected a name") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func element() throws -> XMLElement {
        let (startLine, startColumn) = (line, column)
        depth += 1
        defer { depth -= 1 }
        guard depth <= XMLReader.maximumDepth else { throw error("elements nested deeper than \(XMLReader.maximumDepth) levels") }
        advance()   // <
        let tag = try name()
        var attributes: [(key: String, value: String)] = []
        while true {
            skipWhitespace()
            guard let c = peek() else { throw error("unterminated <\(tag)>") }
            if c == UInt8(ascii: "/") {
                advance()
                guard peek() == UInt8(ascii: ">") else { throw error("expected '>' after '/' in <\(tag)>") }
                advance()
                return XMLElement(name: tag, attributes: attributes, line: startLine, column: startColumn)
            }
            if c == UInt8(ascii: ">") { advance(); break }
            let key = try name()
            skipWhitespace()
            guard peek() == UInt8(ascii: "=") else { throw error("expected '=' after attribute '\(key)'") }
            advance()
            skipWhitespace()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("attribute '\(key)' needs a quoted value")
            }
            advance()
            var value = ""
            while let c = peek(), c != quote {
                if c == UInt8(ascii: "<") { throw error("'<' inside the value of attribute '\(key)'") }
                if c == UInt8(ascii: "&") { value += try reference(); continue }
                // A run of plain characters, decoded at once.
                let s = i
                while let d = peek(), d != quote, d != UInt8(ascii: "&"), d != UInt8(ascii: "<") { advance() }
                if value.isEmpty {
                    value = String(decoding: bytes[s..<i], as: UTF8.self)
                } else {
                    value += String(decoding: bytes[s..<i], as: UTF8.self)
                }
            }
            guard peek() == quote else { throw error("unterminated value of attribute '\(key)'") }
            advance()
            guard !attributes.contains(where: { $0.key == key }) else { throw error("attribute '\(key)' repeated in <\(tag)>") }
            guard attributes.count < XMLReader.maximumAttributes else {
                throw error("<\(tag)> has more than \(XMLReader.maximumAttributes) attributes")
            }
            attributes.append((key, value))
        }
        let node = XMLElement(name: tag, attributes: attributes, line: startLine, column: startColumn)
        var text: [UInt8] = []
        // Bounds of the significant text: everything but literal whitespace at the ends.
        var firstSignificant: Int?
        var endSignificant = 0
        func significant(_ range: Range<Int>) {
            if firstSignificant == nil { firstSignificant = range.lowerBound }
            endSignificant = range.upperBound
        }
        while true {
            guard let c = peek() else { throw XMLError("<\(tag)> is never closed", line: startLine, column: startColumn) }
            if c == UInt8(ascii: "<") {
                if starts(with: "</") {
                    let (closeLine, closeColumn) = (line, column)
                    skip("</")
                    let closing = try name()
                    guard closing == tag else {
                        throw XMLError(
                            "</\(closing)> closes <\(tag)> opened at \(startLine):\(startColumn)", line: closeLine, column: closeColumn)
                    }
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ">") else { throw error("expected '>' in </\(closing)>") }
                    advance()
                    node.text = String(decoding: text, as: UTF8.self)
                    if let first = firstSignificant { node.trimmedText = String(decoding: text[first..<endSignificant], as: UTF8.self) }
                    return node
                } else if starts(with: "<!--") {
                    try skipUntil("-->", what: "comment")
                } else if starts(with: "<![CDATA[") {
                    skip("<![CDATA[")
                    let s = i
                    while !atEnd && !starts(with: "]]>") { advance() }
                    guard !atEnd else { throw error("unterminated CDATA") }
                    let before = text.count
                    text += bytes[s..<i]
                    if text.count > before { significant(before..<text.count) }
                    skip("]]>")
                } else if starts(with: "<?") {
                    try skipUntil("?>", what: "processing instruction")
                } else {
                    node.children.append(try element())
                }
            } else if c == UInt8(ascii: "&") {
                let before = text.count
                text += Array(try reference().utf8)
                significant(before..<text.count)
            } else {
                // A run of character data up to the next markup, appended at once.
                let s = i, before = text.count
                var lastSignificant = -1
                while let d = peek(), d != UInt8(ascii: "<"), d != UInt8(ascii: "&") {
                    if !(d == 0x20 || d == 0x09 || d == 0x0A || d == 0x0D) {
                        if lastSignificant < 0 { significant(before + i - s..<before + i - s + 1) }
                        lastSignificant = i - s
                    }
                    advance()
                }
                text += bytes[s..<i]
                if lastSignificant >= 0 { endSignificant = before + lastSignificant + 1 }
            }
        }
    }

    private mutating func reference() throws -> String {
        let (l, c) = (line, column)
        advance()   // &
        let s = i
        while let d = peek(), d != UInt8(ascii: ";") { guard i - s < 12 else { break }; advance() }
        guard peek() == UInt8(ascii: ";") else { throw XMLError("malformed character reference", line: l, column: c) }
        let body = String(decoding: bytes[s..<i], as: UTF8.self)
        advance()
        switch body {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number: UInt32?
            if body.hasPrefix("#x") {
                number = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                number = UInt32(body.dropFirst())
            } else {
                number = nil
            }
            guard let n = number, let scalar = Unicode.Scalar(n) else { throw XMLError("unknown entity '&\(body);'", line: l, column: c) }
            // XML 1.0 allows no references to NUL or the C0 controls other than tab, LF and CR.
            guard n >= 0x20 || n == 0x09 || n == 0x0A || n == 0x0D else {
                throw XMLError("&\(body); is not a character XML allows", line: l, column: c)
            }
            return String(Character(scalar))
        }
    }
}

/// Escapes text for XML content and attribute values.
func xmlEscaped(_ s: String) -> String {
    // Most names and values have nothing to escape.
    if !s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 < 0x20 }) { return s }
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for ch in s.unicodeScalars {
        switch ch {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default:
            if ch.value < 0x20 && ch != "\n" && ch != "\t" { out += "&#\(ch.value);" } else { out.unicodeScalars.append(ch) }
        }
    }
    return out
}

/// Escapes text whose leading and trailing whitespace matters: those characters become character
/// references, which readers that trim literal whitespace keep (ours does; fontTools trims them too).
func xmlEscapedKeepingEdges(_ s: String) -> String {
    let scalars = Array(s.unicodeScalars)
    var start = 0, end = scalars.count
    while start < end && scalars[start].properties.isWhitespace { start += 1 }
    while end > start && scalars[end - 1].properties.isWhitespace { end -= 1 }
    func references(_ part: ArraySlice<Unicode.Scalar>) -> String { part.map { "&#\($0.value);" }.joined() }
    var middle = String.UnicodeScalarView()
    middle.append(contentsOf: scalars[start..<end])
    return references(scalars[0..<start]) + xmlEscaped(String(middle)) + references(scalars[end...])
}
