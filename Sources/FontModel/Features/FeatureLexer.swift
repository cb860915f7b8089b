/// Where a token of a feature file is: file, line and column (1-based, in bytes).
public struct FeatureLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var description: String { "\(file):\(line):\(column)" }
}

/// A feature file that cannot be compiled: what is wrong and where.
public struct FeatureFileError: ToolError, Equatable, Sendable {
    public var message: String
    public var location: FeatureLocation?
    public init(_ message: String, _ location: FeatureLocation?) {
        self.message = message
        self.location = location
    }
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}

/// A token of the AFDKO feature-file syntax, as feaLib's lexer splits the text.
enum FeatureToken: Equatable {
    case name(String)
    /// `@name`
    case glyphClass(String)
    /// `\123`
    case cid(Int)
    case number(Int)
    /// `0x1F`: a number that can only be a plain number (not a glyph).
    case hexadecimal(Int)
    /// `017`: leading zero, read as octal where feaLib does (nameIDs); elsewhere decimal.
    case octal(text: String)
    case float(Double, text: String)
    case string(String)
    case symbol(UInt8)
    /// The text between the parentheses of `include(...)`.
    case fileName(String)
    case end

    var text: String {
        switch self {
        case .name(let s): s
        case .glyphClass(let s): "@" + s
        case .cid(let n): "\\\(n)"
        case .number(let n), .hexadecimal(let n): String(n)
        case .octal(let t), .float(_, let t): t
        case .string(let s): "\"\(s)\""
        case .symbol(let c): String(UnicodeScalar(c))
        case .fileName(let f): "(\(f))"
        case .end: "the end of the file"
        }
    }
}

/// Splits feature-file text into tokens. Comments and whitespace are skipped; a name right
/// after `include` switches to reading a parenthesised file name.
struct FeatureLexer {
    let bytes: [UInt8]
    let file: String
    private(set) var position = 0
    private var line = 1
    private var lineStart = 0
    private var expectFileName = false

    init(bytes: [UInt8], file: String) {
        // A byte-order mark is not part of the text.
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        self.file = file
    }

    var location: FeatureLocation { FeatureLocation(file: file, line: line, column: position - lineStart + 1) }

    static func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isNameStart(_ c: UInt8) -> Bool { byteClass[Int(c)] & nameStart != 0 }
    static func isNameContinuation(_ c: UInt8) -> Bool { byteClass[Int(c)] & nameContinuation != 0 }
    static func isSymbol(_ c: UInt8) -> Bool { byteClass[Int(c)] & symbol != 0 }

    // What each byte can be, looked up once per byte rather than searched for in a string.
    private static let nameStart: UInt8 = 1, nameContinuation: UInt8 = 2, symbol: UInt8 = 4
    private static let byteClass: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for c in 0..<256 where isLetter(UInt8(c)) { table[c] |= nameStart | nameContinuation }
        for c in 0x30...0x39 { table[c] |= nameContinuation }
        for c in "_+*:.^~!\\".utf8 { table[Int(c)] |= nameStart }
        for c in "_.+*:^~!/-".utf8 { table[Int(c)] |= nameContinuation }
        for c in ",;:-+'{}[]<>()=".utf8 { table[Int(c)] |= symbol }
        return table
    }()

    private func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }

    private mutating func scan(while keep: (UInt8) -> Bool) {
        while position < bytes.count, keep(bytes[position]) { position += 1 }
    }

    /// Skips whitespace and comments, counting lines.
    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09: position += 1
            case 0x0A:
                position += 1; line += 1; lineStart = position
            case 0x0D:
                position += position + 1 < bytes.count && bytes[position + 1] == 0x0A ? 2 : 1
                line += 1; lineStart = position
            case 0x23: scan { $0 != 0x0A && $0 != 0x0D }
            default: return
            }
        }
    }

    /// The next token and where it starts.
    mutating func next() throws -> (FeatureToken, FeatureLocation) {
        skipSpace()
        let here = location
        guard position < bytes.count else { return (.end, here) }
        let start = position
        let c = bytes[position]
        let after: UInt8? = position + 1 < bytes.count ? bytes[position + 1] : nil
        if expectFileName {
            expectFileName = false
            guard c == 0x28 else { throw FeatureFileError("expected '(' before the file name", here) }
            position += 1
            scan { $0 != 0x29 && $0 != 0x0A && $0 != 0x0D }
            guard position < bytes.count, bytes[position] == 0x29 else { throw FeatureFileError("expected ')' after the file name", here) }
            position += 1
            return (.fileName(text(start + 1, position - 1).trimmingSpaces), here)
        }
        if c == 0x5C, let after, Self.isDigit(after) {
            position += 1
            scan(while: Self.isDigit)
            guard let n = Int(text(start + 1, position)), n <= 65535 else {
                throw FeatureFileError("CID \(text(start, position)) is out of range", here)
            }
            return (.cid(n), here)
        }
        if c == 0x40 {
            position += 1
            scan(while: Self.isNameContinuation)
            let name = text(start + 1, position)
            guard !name.isEmpty else { throw FeatureFileError("expected a glyph class name after '@'", here) }
            guard name.utf8.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) || "_.-".utf8.contains($0) }) else {
                throw FeatureFileError("glyph class names are letters, digits, '_', '.' and '-': '@\(name)'", here)
            }
            return (.glyphClass(name), here)
        }
        if Self.isNameStart(c) {
            position += 1
            scan(while: Self.isNameContinuation)
            let name = text(start, position)
            if name == "include" { expectFileName = true }
            return (.name(name), here)
        }
        if c == 0x30, let after, after == 0x78 || after == 0x58 {
            position += 2
            scan { Self.isDigit($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
            guard position - start > 2, position - start <= 18, let n = Int(text(start + 2, position), radix: 16) else {
                throw FeatureFileError("'\(text(start, position))' is not a hexadecimal number that fits", here)
            }
            return (.hexadecimal(n), here)
        }
        if c == 0x30, let after, Self.isDigit(after) {
            scan(while: Self.isDigit)
            return (.octal(text: text(start, position)), here)
        }
        if Self.isDigit(c) || (c == 0x2D && after.map(Self.isDigit) == true) {
            position += 1
            scan(while: Self.isDigit)
            if position < bytes.count, bytes[position] == 0x2E {
                position += 1
                scan(while: Self.isDigit)
                let t = text(start, position)
                guard let d = Double(t) else { throw FeatureFileError("'\(t)' is not a number", here) }
                return (.float(d, text: t), here)
            }
            let t = text(start, position)
            guard let n = Int(t), abs(n) <= 0x7FFF_FFFF else { throw FeatureFileError("the number \(t) is too large", here) }
            return (.number(n), here)
        }
        if Self.isSymbol(c) {
            position += 1
            return (.symbol(c), here)
        }
        if c == 0x22 {
            position += 1
            while position < bytes.count, bytes[position] != 0x22 {
                if bytes[position] == 0x0A { line += 1; lineStart = position + 1 }
                position += 1
            }
            guard position < bytes.count else { throw FeatureFileError("expected '\"' to end the string", here) }
            position += 1
            let raw = bytes[(start + 1)..<(position - 1)].filter { $0 != 0x0A && $0 != 0x0D }
            guard let s = String(validating: raw, as: UTF8.self) else { throw FeatureFileError("the string is not valid UTF-8", here) }
            return (.string(s), here)
        }
        let shown = c < 0x80 && c >= 0x20 ? "'\(UnicodeScalar(c))'" : "byte 0x" + String(c, radix: 16, uppercase: true)
        throw FeatureFileError("unexpected character \(shown)", here)
    }

    /// The raw text of an `anonymous` block up to `} TAG;`, which the lexer then skips.
    mutating func anonymousBlock(_ tag: String) throws -> String {
        let here = location
        scan { $0 != 0x0A && $0 != 0x0D }
        var p = position
        while p < bytes.count {
            if bytes[p] == 0x7D {
                var q = p + 1
                while q < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[q]) { q += 1 }
                if bytes[q...].starts(with: Array(tag.utf8)) {
                    var r = q + tag.utf8.count
                    while r < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[r]) { r += 1 }
                    if r < bytes.count, bytes[r] == 0x3B {
                        let body = text(position, p)
                        for i in position..<p where bytes[i] == 0x0A {
                            line += 1; lineStart = i + 1
                        }
                        position = p
                        return body
                    }
                }
            }
            p += 1
        }
        throw FeatureFileError("expected '} \(tag);' to end the anonymous block", here)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
