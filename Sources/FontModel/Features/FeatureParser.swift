/// Reads the AFDKO feature-file syntax (as fontTools' feaLib accepts it) and hands each
/// statement to a `FeatureBuilder` as it is read. Glyph names are resolved against the face's
/// glyph order here, so every error names the file, line and column of what is wrong.
final class FeatureParser {
    /// How deep `include` may nest (feaLib's limit): also what stops an include cycle.
    static let maxIncludeDepth = 5

    private var lexers: [FeatureLexer]
    private let readInclude: (String, FeatureLocation) throws -> (bytes: [UInt8], file: String)
    private var peeked: (FeatureToken, FeatureLocation)?
    private(set) var token: FeatureToken = .end
    private(set) var location: FeatureLocation

    let glyphIDs: [String: Int]
    let glyphNames: [String]
    let builder: FeatureBuilder

    private var glyphClasses: [String: GlyphClassSyntax] = [:]
    private var markClasses: [String: MarkClassSyntax] = [:]
    /// Anchors and value records are scoped to the block they are defined in.
    private var anchors: [[String: AnchorSyntax]] = [[:]]
    private var valueRecords: [[String: ValueRecordSyntax]] = [[:]]
    private var lookupNames: Set<String> = []

    init(
        text: [UInt8], file: String, glyphNames: [String], builder: FeatureBuilder,
        readInclude: @escaping (String, FeatureLocation) throws -> (bytes: [UInt8], file: String)
    ) {
        lexers = [FeatureLexer(bytes: text, file: file)]
        location = FeatureLocation(file: file, line: 1, column: 1)
        self.glyphNames = glyphNames
        var ids: [String: Int] = [:]
        for (i, n) in glyphNames.enumerated() where ids[n] == nil { ids[n] = i }
        glyphIDs = ids
        self.builder = builder
        self.readInclude = readInclude
    }

    // MARK: Tokens

    /// The next token, following `include(file)` into the file it names.
    private func lex() throws -> (FeatureToken, FeatureLocation) {
        while true {
            let (t, at) = try lexers[lexers.count - 1].next()
            if case .end = t, lexers.count > 1 {
                lexers.removeLast()
                continue
            }
            if case .name("include") = t {
                let (f, fileAt) = try lexers[lexers.count - 1].next()
                guard case .fileName(let name) = f else { throw FeatureFileError("expected a file name after include", fileAt) }
                guard lexers.count <= Self.maxIncludeDepth else {
                    throw FeatureFileError(
                        "too many nested includes (more than \(Self.maxIncludeDepth)): is '\(name)' including itself?", at)
                }
                let (bytes, file) = try readInclude(name, at)
                lexers.append(FeatureLexer(bytes: bytes, file: file))
                continue
            }
            return (t, at)
        }
    }

    private var next: FeatureToken {
        get throws {
            if peeked == nil { peeked = try lex() }
            return peeked!.0
        }
    }
    private var nextLocation: FeatureLocation {
        get throws {
            if peeked == nil { peeked = try lex() }
            return peeked!.1
        }
    }

    @discardableResult
    private func advance() throws -> FeatureToken {
        if let p = peeked {
            (token, location) = p
            peeked = nil
        } else {
            (token, location) = try lex()
        }
        return token
    }

    private func fail(_ message: String) -> FeatureFileError { FeatureFileError(message, location) }

    private func nextIs(_ keyword: String) throws -> Bool { if case .name(keyword) = try next { return true } else { return false } }
    // Symbols are ASCII: compared as scalars (a Character's asciiValue is a grapheme walk).
    private func nextIs(symbol c: Unicode.Scalar) throws -> Bool {
        if case .symbol(let s) = try next { return UInt32(s) == c.value } else { return false }
    }
    private var nextName: String? { get throws { if case .name(let n) = try next { return n } else { return nil } } }

    private func expect(symbol c: Unicode.Scalar) throws {
        let t = try advance()
        guard case .symbol(let s) = t, UInt32(s) == c.value else { throw fail("expected '\(c)', found \(t.text)") }
    }

    private func expect(keyword: String) throws {
        let t = try advance()
        guard case .name(keyword) = t else { throw fail("expected '\(keyword)', found \(t.text)") }
    }

    private func expectName() throws -> String {
        let t = try advance()
        guard case .name(let n) = t else { throw fail("expected a name, found \(t.text)") }
        return n
    }

    /// A tag of up to four characters, padded with spaces.
    private func expectTag() throws -> String {
        let t = try advance()
        let text: String
        switch t {
        case .name(let n): text = n
        case .cid(let n): text = "\\\(n)"
        default: throw fail("expected a tag, found \(t.text)")
        }
        // `\sub` escapes a keyword; a tag is never escaped otherwise.
        let tag = text.hasPrefix("\\") ? String(text.dropFirst()) : text
        guard tag.utf8.count <= 4 else { throw fail("tags can be at most 4 characters long: '\(tag)'") }
        return tag + String(repeating: " ", count: 4 - tag.utf8.count)
    }

    private func expectScriptTag() throws -> String {
        let tag = try expectTag()
        guard tag != "dflt" else { throw fail("\"dflt\" is not a valid script tag; use \"DFLT\" instead") }
        return tag
    }

    private func expectLanguageTag() throws -> String {
        let tag = try expectTag()
        guard tag != "DFLT" else { throw fail("\"DFLT\" is not a valid language tag; use \"dflt\" instead") }
        return tag
    }

    private func expectNumber() throws -> Int {
        let t = try advance()
        switch t {
        case .number(let n): return n
        case .octal(let text): return Int(text) ?? 0
        case .symbol(UInt8(ascii: "(")): throw fail("a variable scalar ('(wght=200:-10 …)') is not allowed here")
        default: throw fail("expected a number, found \(t.text)")
        }
    }

    /// A number in any notation (hexadecimal, octal read as feaLib reads it).
    private func expectAnyNumber() throws -> Int {
        let t = try advance()
        switch t {
        case .number(let n), .hexadecimal(let n): return n
        case .octal(let text): return Int(text, radix: 8) ?? 0
        default: throw fail("expected a number, found \(t.text)")
        }
    }

    private func expectDecipoint() throws -> Int {
        let t = try advance()
        switch t {
        case .number(let n): return n
        case .octal(let text): return Int(text) ?? 0
        case .float(let d, _): return Int((d * 10).rounded())
        default: throw fail("expected a point size, found \(t.text)")
        }
    }

    /// A number, or a variable scalar `(wght=200:-10 wght=900:-30 …)`: its default value and,
    /// when it varies, its row of deltas in the builder's variation store.
    private func expectNumberOrScalar() throws -> (value: Int, variable: VariableField?) {
        guard try nextIs(symbol: "(") else { return (try expectNumber(), nil) }
        try advance()
        let at = location
        var masters: [ScalarMaster] = []
        var sawDefault = false
        while try !nextIs(symbol: ")") {
            if case .number = try next {
                guard !sawDefault else { throw FeatureFileError("a second value for the default location", try nextLocation) }
                sawDefault = true
                masters.append(ScalarMaster(location: [], value: try expectNumber()))
                continue
            }
            var master = ScalarMaster(location: [], value: 0)
            while true {
                let axisAt = try nextLocation
                guard case .name(let axis) = try advance() else { throw fail("expected an axis name (wght=700:…), found \(token.text)") }
                try expect(symbol: "=")
                master.location.append((axis, try expectDecimal(), axisAt))
                // The lexer reads ':12' as a name.
                if case .name(let n) = try next, n.hasPrefix(":") {
                    try advance()
                    guard let value = Int(n.dropFirst()) else { throw fail("expected a whole number after ':', found '\(n.dropFirst())'") }
                    master.value = value
                    break
                }
                guard try nextIs(symbol: ",") else {
                    throw FeatureFileError("expected ',' or ':VALUE' after an axis value", try nextLocation)
                }
                try advance()
            }
            masters.append(master)
        }
        try advance()
        let (value, row) = try builder.resolveScalar(masters, at: at)
        return (value, VariableField(row: row))
    }

    /// A decimal number (an axis coordinate).
    private func expectDecimal() throws -> Double {
        let t = try advance()
        switch t {
        case .number(let n): return Double(n)
        case .float(let d, _): return d
        default: throw fail("expected a number, found \(t.text)")
        }
    }

    private func expectString() throws -> String {
        let t = try advance()
        guard case .string(let s) = t else { throw fail("expected a string, found \(t.text)") }
        return s
    }

    // MARK: Glyphs

    private func glyphID(_ name: String, at: FeatureLocation) throws -> Int {
        if let id = glyphIDs[name] { return id }
        var message = "glyph '\(name)' is not in the font"
        if let near = closestName(to: name, in: glyphNames) { message += " (did you mean '\(near)'?)" }
        throw FeatureFileError(message, at)
    }

    /// A glyph name or CID token's name, with a keyword's escaping backslash removed.
    private func expectGlyphName() throws -> String {
        let t = try advance()
        switch t {
        case .name(let n):
            guard n.utf8.count <= 63 else { throw fail("glyph names are at most 63 characters long") }
            return n.hasPrefix("\\") ? String(n.dropFirst()) : n
        case .cid(let n): return Self.cidName(n)
        default: throw fail("expected a glyph name, found \(t.text)")
        }
    }

    static func cidName(_ n: Int) -> String {
        let digits = String(n)
        return "cid" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    /// A glyph class: `[...]`, `@name`, or (when allowed) a single glyph or `NULL`.
    func parseGlyphClass(acceptGlyph: Bool, acceptNull: Bool = false) throws -> GlyphClassSyntax {
        let t = try next
        if acceptGlyph {
            switch t {
            case .name(let n):
                if acceptNull, n == "NULL" {
                    try advance()
                    return GlyphClassSyntax(glyphs: [], isSingleGlyph: true, isNull: true)
                }
                let name = try expectGlyphName()
                return GlyphClassSyntax(glyphs: [try glyphID(name, at: location)], isSingleGlyph: true)
            case .cid:
                let name = try expectGlyphName()
                return GlyphClassSyntax(glyphs: [try glyphID(name, at: location)], isSingleGlyph: true)
            default: break
            }
        }
        if case .glyphClass = t { return try namedClass() }
        try expect(symbol: "[")
        var glyphs: [Int] = []
        while try !nextIs(symbol: "]") {
            switch try next {
            case .name:
                let name = try expectGlyphName()
                let at = location
                if name.contains("-"), glyphIDs[name] == nil {
                    let (start, limit) = try splitRange(name, at: at)
                    glyphs += try glyphRange(start, limit, at: at)
                } else if try nextIs(symbol: "-") {
                    try advance()
                    let limit = try expectGlyphName()
                    _ = try glyphID(name, at: at)
                    glyphs += try glyphRange(name, limit, at: at)
                } else {
                    glyphs.append(try glyphID(name, at: at))
                }
            case .cid(let first):
                try advance()
                let at = location
                if try nextIs(symbol: "-") {
                    try advance()
                    guard case .cid(let last) = try advance() else { throw fail("expected a CID after '-'") }
                    guard first <= last else { throw FeatureFileError("bad range: \\\(first) is after \\\(last)", at) }
                    guard last - first < 65536 else { throw FeatureFileError("the CID range is too large", at) }
                    for c in first...last { glyphs.append(try glyphID(Self.cidName(c), at: at)) }
                } else {
                    glyphs.append(try glyphID(Self.cidName(first), at: at))
                }
            case .glyphClass:
                glyphs += try namedClass().glyphs
            case .end: throw FeatureFileError("expected ']' to end the glyph class", try nextLocation)
            default:
                throw FeatureFileError("expected a glyph name, a glyph range or a glyph class, found \(try next.text)", try nextLocation)
            }
        }
        try expect(symbol: "]")
        return GlyphClassSyntax(glyphs: glyphs)
    }

    private func namedClass() throws -> GlyphClassSyntax {
        guard case .glyphClass(let name) = try advance() else { throw fail("expected a glyph class") }
        if let mark = markClasses[name] { return GlyphClassSyntax(glyphs: mark.glyphs, markClass: mark) }
        guard let c = glyphClasses[name] else {
            var message = "unknown glyph class @\(name)"
            if let near = closestName(to: name, in: Array(glyphClasses.keys) + Array(markClasses.keys)) {
                message += " (did you mean @\(near)?)"
            }
            throw fail(message)
        }
        return GlyphClassSyntax(glyphs: c.glyphs)
    }

    /// `a-b-c` that is no glyph: the one split into two known glyphs, or an error.
    private func splitRange(_ name: String, at: FeatureLocation) throws -> (String, String) {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        var solutions: [(String, String)] = []
        for i in 1..<parts.count {
            let start = parts[0..<i].joined(separator: "-"), limit = parts[i...].joined(separator: "-")
            if glyphIDs[start] != nil, glyphIDs[limit] != nil { solutions.append((start, limit)) }
        }
        if solutions.count == 1 { return solutions[0] }
        if solutions.isEmpty {
            throw FeatureFileError("'\(name)' is not a glyph in the font, and it cannot be split into a range of known glyphs", at)
        }
        let options = solutions.map { "\"\($0.0) - \($0.1)\"" }.joined(separator: " or ")
        throw FeatureFileError("ambiguous glyph range '\(name)'; write \(options) to say which", at)
    }

    /// `a.sc - d.sc`, `A - Z`, `one.001 - one.012`: names differing in one letter or number run.
    private func glyphRange(_ start: String, _ limit: String, at: FeatureLocation) throws -> [Int] {
        let s = Array(start.utf8), l = Array(limit.utf8)
        guard s.count == l.count else { throw FeatureFileError("bad range: '\(start)' and '\(limit)' should have the same length", at) }
        var p = 0
        while p < s.count, s[p] == l[p] { p += 1 }
        var q = 0
        while q < s.count - p, s[s.count - 1 - q] == l[l.count - 1 - q] { q += 1 }
        let a = Array(s[p..<(s.count - q)]), b = Array(l[p..<(l.count - q)])
        let prefix = String(decoding: s[0..<p], as: UTF8.self), suffix = String(decoding: s[(s.count - q)...], as: UTF8.self)
        guard a.lexicographicallyPrecedes(b) else { throw FeatureFileError("the start of the range must come before its end", at) }
        var names: [String] = []
        func isUpper(_ x: [UInt8]) -> Bool { x.count == 1 && (0x41...0x5A).contains(x[0]) }
        func isLower(_ x: [UInt8]) -> Bool { x.count == 1 && (0x61...0x7A).contains(x[0]) }
        if (isUpper(a) && isUpper(b)) || (isLower(a) && isLower(b)) {
            for c in a[0]...b[0] { names.append(prefix + String(UnicodeScalar(c)) + suffix) }
        } else if (1...3).contains(a.count), a.allSatisfy(FeatureLexer.isDigit), b.allSatisfy(FeatureLexer.isDigit),
            let x = Int(String(decoding: a, as: UTF8.self)), let y = Int(String(decoding: b, as: UTF8.self))
        {
            for i in x...y {
                let digits = String(i)
                names.append(prefix + String(repeating: "0", count: max(0, a.count - digits.count)) + digits + suffix)
            }
        } else {
            throw FeatureFileError("bad range: '\(start)-\(limit)'", at)
        }
        return try names.map { try glyphID($0, at: at) }
    }

    // MARK: Values

    private func parseDevice() throws -> [Int]? {
        try expect(symbol: "<")
        try expect(keyword: "device")
        var out: [Int]?
        if try nextIs("NULL") {
            try advance()
        } else {
            var pairs = [try expectNumber(), try expectNumber()]
            while try nextIs(symbol: ",") {
                try advance()
                pairs += [try expectNumber(), try expectNumber()]
            }
            out = pairs
        }
        try expect(symbol: ">")
        return out
    }

    private var nextIsValue: Bool {
        get throws {
            switch try next {
            case .number: return true
            case .symbol(let c): return c == UInt8(ascii: "<") || c == UInt8(ascii: "(")
            default: return false
            }
        }
    }

    func parseValueRecord(vertical: Bool) throws -> ValueRecordSyntax {
        var v = ValueRecordSyntax(vertical: vertical)
        var bare = try nextIs(symbol: "(")
        if case .number = try next { bare = true }
        if bare {
            let (n, variable) = try expectNumberOrScalar()
            if vertical { v.yAdvance = n } else { v.xAdvance = n }
            v.variations[vertical ? 3 : 2] = variable
            return v
        }
        try expect(symbol: "<")
        if let name = try nextName {
            try advance()
            if name == "NULL" {
                try expect(symbol: ">")
                return ValueRecordSyntax(vertical: vertical, isNull: true)
            }
            guard let named = valueRecords.reversed().lazy.compactMap({ $0[name] }).first else {
                throw fail("unknown valueRecordDef '\(name)'")
            }
            v.xPlacement = named.xPlacement; v.yPlacement = named.yPlacement
            v.xAdvance = named.xAdvance; v.yAdvance = named.yAdvance
            // As feaLib: the numbers (variable scalars included), not the device tables.
            v.variations = named.variations
        } else {
            (v.xPlacement, v.variations[0]) = try expectNumberOrScalar()
            (v.yPlacement, v.variations[1]) = try expectNumberOrScalar()
            (v.xAdvance, v.variations[2]) = try expectNumberOrScalar()
            (v.yAdvance, v.variations[3]) = try expectNumberOrScalar()
        }
        if try nextIs(symbol: "<") {
            for i in 0..<4 { v.devices[i] = try parseDevice() }
            let deltas = v.devices.compactMap { $0 }.flatMap { d in stride(from: 1, to: d.count, by: 2).map { d[$0] } }
            if deltas.contains(where: { !(-128...127).contains($0) }) { throw fail("device value out of range (-128…127)") }
            if zip(v.devices, v.variations).contains(where: { $0 != nil && $1 != nil }) {
                throw fail("a value is given both as a variable scalar and with a device table")
            }
        }
        try expect(symbol: ">")
        return v
    }

    /// An anchor, or nil for `<anchor NULL>`.
    func parseAnchor() throws -> AnchorSyntax? {
        try expect(symbol: "<")
        try expect(keyword: "anchor")
        if try nextIs("NULL") {
            try advance()
            try expect(symbol: ">")
            return nil
        }
        if let name = try nextName {
            try advance()
            guard let a = anchors.reversed().lazy.compactMap({ $0[name] }).first else { throw fail("unknown anchor '\(name)'") }
            try expect(symbol: ">")
            return a
        }
        let x = try expectNumberOrScalar(), y = try expectNumberOrScalar()
        var a = AnchorSyntax(x: x.value, y: y.value, xVariation: x.variable?.row, yVariation: y.variable?.row)
        if try nextIs("contourpoint") {
            try advance()
            a.contourPoint = try expectNumber()
            if x.variable != nil || y.variable != nil {
                throw fail("an anchor on a contour point cannot also have variable coordinates")
            }
        }
        if try nextIs(symbol: "<") {
            a.xDevice = try parseDevice()
            a.yDevice = try parseDevice()
            if (a.xDevice != nil && a.xVariation != nil) || (a.yDevice != nil && a.yVariation != nil) {
                throw fail("an anchor coordinate is given both as a variable scalar and with a device table")
            }
        }
        try expect(symbol: ">")
        return a
    }

    /// `<anchor> mark @CLASS …`
    private func parseAnchorMarks() throws -> [(AnchorSyntax?, MarkClassSyntax)] {
        var out: [(AnchorSyntax?, MarkClassSyntax)] = []
        while try nextIs(symbol: "<") {
            let anchor = try parseAnchor()
            if anchor == nil, try !nextIs("mark") { continue }
            try expect(keyword: "mark")
            guard case .glyphClass(let name) = try advance() else { throw fail("expected a mark class") }
            guard let mark = markClasses[name] else { throw fail("unknown mark class @\(name)") }
            out.append((anchor, mark))
        }
        return out
    }

    // MARK: Statements

    func parse() throws {
        while true {
            let t = try advance()
            switch t {
            case .end: return
            case .symbol(UInt8(ascii: ";")): continue
            case .glyphClass(let name): try parseGlyphClassDefinition(name)
            case .name("languagesystem"):
                let at = location
                let script = try expectScriptTag(), language = try expectLanguageTag()
                try expect(symbol: ";")
                try builder.addLanguageSystem(script, language, at: at)
            case .name("lookup"): try parseLookup(vertical: false)
            case .name("feature"): try parseFeatureBlock()
            case .name("markClass"): try parseMarkClass()
            case .name("anchorDef"): try parseAnchorDefinition()
            case .name("valueRecordDef"): try parseValueRecordDefinition(vertical: false)
            case .name("table"): try parseTable()
            case .name("anon"), .name("anonymous"):
                let tag = try expectTag()
                _ = try lexers[lexers.count - 1].anonymousBlock(tag.trimmingSpaces)
                try expect(symbol: "}")
                guard try expectTag() == tag else { throw fail("expected '\(tag.trimmingSpaces)'") }
                try expect(symbol: ";")
            case .name("conditionset"): try parseConditionSet()
            case .name("variation"): try parseVariationBlock()
            default:
                throw fail("expected feature, languagesystem, lookup, markClass, table or a glyph class definition, found \(t.text)")
            }
        }
    }

    /// `conditionset NAME { AXIS MIN MAX; … } NAME;`
    private func parseConditionSet() throws {
        let at = location
        let name = try expectName()
        try expect(symbol: "{")
        var conditions: [(axis: String, minimum: Double, maximum: Double, at: FeatureLocation)] = []
        while try !nextIs(symbol: "}") {
            let axisAt = try nextLocation
            guard case .name(let axis) = try advance() else { throw fail("expected an axis name, found \(token.text)") }
            guard !conditions.contains(where: { $0.axis == axis }) else { throw fail("a second condition for axis '\(axis)'") }
            let low = try expectDecimal(), high = try expectDecimal()
            try expect(symbol: ";")
            conditions.append((axis, low, high, axisAt))
        }
        try expect(symbol: "}")
        guard try expectName() == name else { throw fail("expected '\(name)' to close conditionset \(name)") }
        try expect(symbol: ";")
        try builder.addConditionSet(name, conditions, at: at)
    }

    /// `variation TAG CONDITIONSET [useExtension] { … } TAG;`
    private func parseVariationBlock() throws {
        let at = location
        let tag = try expectTag()
        let conditionSet = try expectName()
        var useExtension = false
        if try nextIs("useExtension") {
            try advance()
            useExtension = true
        }
        try builder.startVariation(tag, conditionSet: conditionSet, useExtension: useExtension, at: at)
        try parseBlock(name: tag.trimmingSpaces, vertical: ["vkrn", "vpal", "vhal", "valt"].contains(tag), feature: tag)
        builder.endVariation()
    }

    private func parseGlyphClassDefinition(_ name: String) throws {
        try expect(symbol: "=")
        let c = try parseGlyphClass(acceptGlyph: false)
        try expect(symbol: ";")
        glyphClasses[name] = GlyphClassSyntax(glyphs: c.glyphs)
    }

    private func parseMarkClass() throws {
        let at = location
        let glyphs = try parseGlyphClass(acceptGlyph: true)
        guard !glyphs.glyphs.isEmpty else { throw FeatureFileError("empty glyph class in a mark class definition", at) }
        guard let anchor = try parseAnchor() else { throw fail("a mark class needs an anchor, not NULL") }
        guard case .glyphClass(let name) = try advance() else { throw fail("expected a mark class name (@NAME)") }
        try expect(symbol: ";")
        let mark = markClasses[name] ?? MarkClassSyntax(name: name)
        markClasses[name] = mark
        for g in glyphs.glyphs {
            if mark.anchors[g] != nil { throw FeatureFileError("glyph \(glyphNames[g]) is already in @\(name)", at) }
            mark.glyphs.append(g)
            mark.anchors[g] = anchor
        }
        try builder.noteMarkClass(mark, glyphs: glyphs.glyphs, at: at)
    }

    private func parseAnchorDefinition() throws {
        var a = AnchorSyntax(x: try expectNumber(), y: try expectNumber())
        if try nextIs("contourpoint") {
            try advance()
            a.contourPoint = try expectNumber()
        }
        let name = try expectName()
        try expect(symbol: ";")
        anchors[anchors.count - 1][name] = a
    }

    private func parseValueRecordDefinition(vertical: Bool) throws {
        let v = try parseValueRecord(vertical: vertical)
        let name = try expectName()
        try expect(symbol: ";")
        valueRecords[valueRecords.count - 1][name] = v
    }

    private func parseLookup(vertical: Bool) throws {
        let at = location
        let name = try expectName()
        if try nextIs(symbol: ";") {
            try advance()
            guard lookupNames.contains(name) else {
                var message = "unknown lookup '\(name)'"
                if let near = closestName(to: name, in: Array(lookupNames)) { message += " (did you mean '\(near)'?)" }
                throw FeatureFileError(message, at)
            }
            try builder.addLookupCall(name, at: at)
            return
        }
        var useExtension = false
        if try nextIs("useExtension") {
            try advance()
            useExtension = true
        }
        guard !lookupNames.contains(name) else { throw FeatureFileError("lookup '\(name)' is already defined", at) }
        try builder.startLookupBlock(name, useExtension: useExtension, at: at)
        try parseBlock(name: name, vertical: vertical, feature: nil)
        builder.endLookupBlock()
        lookupNames.insert(name)
    }

    private func parseFeatureBlock() throws {
        let at = location
        let tag = try expectTag()
        let vertical = ["vkrn", "vpal", "vhal", "valt"].contains(tag)
        var useExtension = false
        if try nextIs("useExtension") {
            try advance()
            useExtension = true
        }
        try builder.startFeature(tag, useExtension: useExtension, at: at)
        try parseBlock(name: tag.trimmingSpaces, vertical: vertical, feature: tag)
        builder.endFeature()
    }

    /// `{ statements } NAME;` of a feature or lookup block.
    private func parseBlock(name: String, vertical: Bool, feature: String?) throws {
        try expect(symbol: "{")
        anchors.append([:]); valueRecords.append([:])
        defer { anchors.removeLast(); valueRecords.removeLast() }
        let tag = feature ?? ""
        while try !nextIs(symbol: "}") {
            let t = try advance()
            switch t {
            case .symbol(UInt8(ascii: ";")): continue
            case .glyphClass(let n): try parseGlyphClassDefinition(n)
            case .name("anchorDef"): try parseAnchorDefinition()
            case .name("valueRecordDef"): try parseValueRecordDefinition(vertical: vertical)
            case .name("enum"), .name("enumerate"):
                let word = try advance()
                guard case .name(let w) = word, w == "pos" || w == "position" else { throw fail("expected 'pos' after '\(t.text)'") }
                try parsePosition(enumerated: true, vertical: vertical)
            case .name("feature"):
                let at = location
                let referenced = try expectTag()
                try expect(symbol: ";")
                try builder.addFeatureReference(referenced, at: at)
            case .name("ignore"): try parseIgnore()
            case .name("language"): try parseLanguage()
            case .name("script"):
                let at = location
                let script = try expectScriptTag()
                try expect(symbol: ";")
                try builder.setScript(script, at: at)
            case .name("lookup"): try parseLookup(vertical: vertical)
            case .name("lookupflag"): try parseLookupFlag()
            case .name("markClass"): try parseMarkClass()
            case .name("pos"), .name("position"): try parsePosition(enumerated: false, vertical: vertical)
            case .name("sub"), .name("substitute"), .name("rsub"), .name("reversesub"):
                try parseSubstitute(reverse: t == .name("rsub") || t == .name("reversesub"))
            case .name("subtable"):
                let at = location
                try expect(symbol: ";")
                builder.addSubtableBreak(at: at)
            case .name("featureNames") where tag.hasPrefix("ss") && Int(tag.dropFirst(2)).map({ (1...20).contains($0) }) == true:
                try parseFeatureNames(tag)
            case .name("cvParameters") where tag.hasPrefix("cv") && Int(tag.dropFirst(2)).map({ (1...99).contains($0) }) == true:
                try parseCVParameters(tag)
            case .name("parameters") where tag == "size":
                let at = location
                let designSize = try expectDecipoint()
                let subfamily = try expectNumber()
                var rangeStart = 0, rangeEnd = 0
                switch try next {
                case .number, .float, .octal:
                    rangeStart = try expectDecipoint(); rangeEnd = try expectDecipoint()
                default:
                    if subfamily != 0 { rangeStart = try expectDecipoint(); rangeEnd = try expectDecipoint() }
                }
                try expect(symbol: ";")
                try builder.setSizeParameters(designSize, subfamily, rangeStart, rangeEnd, at: at)
            case .name("sizemenuname") where tag == "size":
                let record = try parseNameRecord()
                builder.addFeatureName("size", record)
            default:
                throw fail("expected a glyph class definition or a statement, found \(t.text)")
            }
        }
        try expect(symbol: "}")
        let end = try advance()
        let endName: String
        switch end {
        case .name(let n): endName = n.hasPrefix("\\") ? String(n.dropFirst()) : n
        default: throw fail("expected '\(name)' after '}', found \(end.text)")
        }
        guard endName == name else { throw fail("expected '\(name)' after '}', found '\(endName)'") }
        try expect(symbol: ";")
    }

    private func parseLanguage() throws {
        let at = location
        var languages = [try expectLanguageTag()]
        let statementWords: Set<String> = [
            "exclude_dflt", "include_dflt", "required", "anchorDef", "cvParameters", "enum", "enumerate", "feature", "featureNames",
            "ignore", "language", "lookup", "lookupflag", "markClass", "parameters", "pos", "position", "reversesub", "rsub", "script",
            "sizemenuname", "sub", "substitute", "subtable", "valueRecordDef",
        ]
        while let n = try nextName, !statementWords.contains(n) { languages.append(try expectLanguageTag()) }
        if languages.count > 1, languages.contains("dflt") {
            throw FeatureFileError("\"dflt\" must be the only tag in a language statement", at)
        }
        var includeDefault = true, required = false
        if let n = try nextName, n == "exclude_dflt" || n == "include_dflt" {
            try advance()
            includeDefault = n == "include_dflt"
        }
        if try nextIs("required") {
            try advance()
            required = true
        }
        try expect(symbol: ";")
        try builder.setLanguage(languages, includeDefault: includeDefault, required: required, at: at)
    }

    private func parseLookupFlag() throws {
        let at = location
        if case .number = try next {
            let value = try expectNumber()
            try expect(symbol: ";")
            try builder.setLookupFlag(value, markAttachment: nil, markFilteringSet: nil, at: at)
            return
        }
        let flags = ["RightToLeft": 1, "IgnoreBaseGlyphs": 2, "IgnoreLigatures": 4, "IgnoreMarks": 8]
        var value = 0, seen: Set<String> = [], anyValue = false
        var markAttachment: [Int]?, markFilter: [Int]?
        while try !nextIs(symbol: ";") {
            let word = try expectName()
            guard seen.insert(word).inserted else { throw fail("\(word) can be given only once") }
            switch word {
            case "MarkAttachmentType": markAttachment = try parseGlyphClass(acceptGlyph: false).glyphs
            case "UseMarkFilteringSet": markFilter = try parseGlyphClass(acceptGlyph: false).glyphs
            default:
                guard let bit = flags[word] else {
                    var message = "'\(word)' is not a lookup flag"
                    if let near = closestName(to: word, in: Array(flags.keys) + ["MarkAttachmentType", "UseMarkFilteringSet"]) {
                        message += " (did you mean '\(near)'?)"
                    }
                    throw fail(message)
                }
                value |= bit
                anyValue = true
            }
        }
        try expect(symbol: ";")
        guard anyValue || markAttachment != nil || markFilter != nil else { throw FeatureFileError("lookupflag must have a value", at) }
        try builder.setLookupFlag(value, markAttachment: markAttachment, markFilteringSet: markFilter, at: at)
    }

    /// A rule's glyphs: backtrack, marked input (with lookups and values), lookahead.
    struct Pattern {
        var prefix: [GlyphClassSyntax] = []
        var glyphs: [GlyphClassSyntax] = []
        var suffix: [GlyphClassSyntax] = []
        var lookups: [[String]?] = []
        var values: [ValueRecordSyntax?] = []
        var hasMarks = false
    }

    private func parseGlyphPattern(vertical: Bool) throws -> Pattern {
        var p = Pattern()
        var values: [ValueRecordSyntax?] = []
        while true {
            if let n = try nextName, n == "by" || n == "from" { break }
            if try nextIs(symbol: ";") || nextIs(symbol: ",") { break }
            if case .end = try next { throw FeatureFileError("the rule does not end", try nextLocation) }
            let gc = try parseGlyphClass(acceptGlyph: true)
            var marked = false
            if try nextIs(symbol: "'") {
                try advance()
                marked = true
                p.hasMarks = true
            }
            if marked {
                guard p.suffix.isEmpty else { throw fail("only one run of marked (') glyphs is allowed in a rule") }
                p.glyphs.append(gc)
            } else if !p.glyphs.isEmpty {
                p.suffix.append(gc)
            } else {
                p.prefix.append(gc)
            }
            values.append(try nextIsValue ? try parseValueRecord(vertical: vertical) : nil)
            var lookups: [String]?
            while try nextIs("lookup") {
                try advance()
                guard marked else { throw fail("lookups can only follow marked glyphs") }
                let name = try expectName()
                guard lookupNames.contains(name) else { throw fail("unknown lookup '\(name)'") }
                lookups = (lookups ?? []) + [name]
            }
            if marked { p.lookups.append(lookups) }
        }
        if p.glyphs.isEmpty, p.suffix.isEmpty {
            p.glyphs = p.prefix
            p.prefix = []
            p.lookups = Array(repeating: nil, count: p.glyphs.count)
            p.values = values
            return p
        }
        let misplaced =
            "positioning values are allowed only in the marked glyph sequence, or after the final glyph node when only one glyph node is marked"
        if values[..<p.prefix.count].contains(where: { $0 != nil }) {
            throw fail("positioning cannot be applied in the backtrack glyph sequence, before the marked glyph sequence")
        }
        let marked = Array(values[p.prefix.count..<(p.prefix.count + p.glyphs.count)])
        if marked.contains(where: { $0 != nil }) {
            if values[(p.prefix.count + p.glyphs.count)...].contains(where: { $0 != nil }) { throw fail(misplaced) }
            p.values = marked
        } else if let last = values.last, last != nil {
            if p.glyphs.count > 1 || values.dropLast().contains(where: { $0 != nil }) { throw fail(misplaced) }
            p.values = [last]
        } else {
            p.values = marked
        }
        return p
    }

    private func parseIgnore() throws {
        let at = location
        let word = try expectName()
        let isSub: Bool
        switch word {
        case "sub", "substitute": isSub = true
        case "pos", "position": isSub = false
        default: throw fail("expected 'substitute' or 'position' after 'ignore'")
        }
        var contexts: [Pattern] = []
        repeat {
            if !contexts.isEmpty { try advance() }
            var p = try parseGlyphPattern(vertical: false)
            if p.lookups.contains(where: { $0 != nil }) { throw FeatureFileError("no lookups can be given in 'ignore \(word)'", at) }
            if !p.hasMarks {
                // Without a mark the first glyph is the input (feaLib warns and does the same).
                p.suffix = Array(p.glyphs.dropFirst())
                p.glyphs = Array(p.glyphs.prefix(1))
            }
            contexts.append(p)
        } while try nextIs(symbol: ",")
        try expect(symbol: ";")
        for p in contexts {
            try builder.addChainContext(
                isSub ? "GSUB" : "GPOS", prefix: p.prefix.map(\.glyphs), glyphs: p.glyphs.map(\.glyphs), suffix: p.suffix.map(\.glyphs),
                lookups: Array(repeating: nil, count: p.glyphs.count), at: at)
        }
    }

    private func parseSubstitute(reverse: Bool) throws {
        let at = location
        let p = try parseGlyphPattern(vertical: false)
        if p.values.contains(where: { $0 != nil }) { throw FeatureFileError("substitution statements cannot contain values", at) }
        var new: [GlyphClassSyntax] = []
        var isFrom = false
        if try nextIs("by") {
            try advance()
            while try !nextIs(symbol: ";") {
                if case .end = try next { throw FeatureFileError("the rule does not end", try nextLocation) }
                new.append(try parseGlyphClass(acceptGlyph: true, acceptNull: true))
            }
        } else if try nextIs("from") {
            try advance()
            isFrom = true
            new = [try parseGlyphClass(acceptGlyph: false)]
        }
        try expect(symbol: ";")
        let old = p.glyphs
        let lookupCount = p.lookups.compactMap { $0 }.count
        var isDeletion = false
        if new.count == 1, new[0].isNull {
            new = []
            isDeletion = true
        }
        let prefix = p.prefix.map(\.glyphs), suffix = p.suffix.map(\.glyphs)
        if !reverse, old.count == 1, new.count == 1, lookupCount == 0, isFrom {
            guard old[0].glyphs.count == 1 else { throw FeatureFileError("expected a single glyph before 'from'", at) }
            try builder.addAlternate(prefix: prefix, glyph: old[0].glyphs[0], suffix: suffix, alternates: new[0].glyphs, at: at)
            return
        }
        if !reverse, old.count == 1, new.count == 1, lookupCount == 0 {
            var replacements = new[0].glyphs
            if replacements.count == 1 { replacements = Array(repeating: replacements[0], count: old[0].glyphs.count) }
            guard old[0].glyphs.count == replacements.count else {
                throw FeatureFileError(
                    "expected a glyph class with \(old[0].glyphs.count) elements after 'by', but found one with \(replacements.count)", at)
            }
            try builder.addSingle(prefix: prefix, suffix: suffix, from: old[0].glyphs, to: replacements, forceChain: p.hasMarks, at: at)
            return
        }
        if isDeletion, old.count == 1, lookupCount == 0 {
            for g in old[0].glyphs {
                try builder.addMultiple(prefix: prefix, glyph: g, suffix: suffix, replacement: [], forceChain: p.hasMarks, at: at)
            }
            return
        }
        if !reverse, old.count == 1, new.count > 1, lookupCount == 0 {
            let count = old[0].glyphs.count
            for n in new {
                guard !n.glyphs.isEmpty else { throw FeatureFileError("empty class in the replacement", at) }
                guard n.glyphs.count == 1 || n.glyphs.count == count else {
                    throw FeatureFileError(
                        "expected a glyph class with 1 or \(count) elements after 'by', but found one with \(n.glyphs.count)", at)
                }
            }
            for (i, g) in old[0].glyphs.enumerated() {
                let replacement = new.map { $0.glyphs.count == 1 ? $0.glyphs[0] : $0.glyphs[i] }
                try builder.addMultiple(prefix: prefix, glyph: g, suffix: suffix, replacement: replacement, forceChain: p.hasMarks, at: at)
            }
            return
        }
        if !reverse, old.count > 1, new.count == 1, new[0].glyphs.count == 1, lookupCount == 0 {
            try builder.addLigature(
                prefix: prefix, glyphs: old.map(\.glyphs), suffix: suffix, replacement: new[0].glyphs[0], forceChain: p.hasMarks, at: at)
            return
        }
        if reverse {
            guard old.count == 1 else {
                throw FeatureFileError("in reverse chaining single substitutions, only one glyph or class can be replaced", at)
            }
            guard new.count == 1 else {
                throw FeatureFileError("in reverse chaining single substitutions, the replacement must be one glyph or class", at)
            }
            var replacements = new[0].glyphs
            if replacements.count == 1 { replacements = Array(repeating: replacements[0], count: old[0].glyphs.count) }
            guard old[0].glyphs.count == replacements.count else {
                throw FeatureFileError(
                    "expected a glyph class with \(old[0].glyphs.count) elements after 'by', but found one with \(replacements.count)", at)
            }
            try builder.addReverseChain(prefix: prefix, suffix: suffix, from: old[0].glyphs, to: replacements, at: at)
            return
        }
        if old.count > 1, new.count > 1 { throw FeatureFileError("substituting several glyphs by several glyphs is not supported", at) }
        if !new.isEmpty || isDeletion { throw FeatureFileError("invalid substitution statement", at) }
        try builder.addChainContext("GSUB", prefix: prefix, glyphs: old.map(\.glyphs), suffix: suffix, lookups: p.lookups, at: at)
    }

    private func parsePosition(enumerated: Bool, vertical: Bool) throws {
        let at = location
        if let word = try nextName, ["cursive", "base", "ligature", "mark"].contains(word) {
            try advance()
            if enumerated { throw FeatureFileError("'enumerate' is not allowed with \(word) attachment positioning", at) }
            let glyphs = try parseGlyphClass(acceptGlyph: true)
            switch word {
            case "cursive":
                let entry = try parseAnchor(), exit = try parseAnchor()
                try expect(symbol: ";")
                try builder.addCursive(glyphs.glyphs, entry: entry, exit: exit, at: at)
            case "ligature":
                var components = [try parseAnchorMarks()]
                while try nextIs("ligComponent") {
                    try advance()
                    components.append(try parseAnchorMarks())
                }
                try expect(symbol: ";")
                try builder.addMarkToLigature(glyphs.glyphs, components: components, at: at)
            default:
                let marks = try parseAnchorMarks()
                try expect(symbol: ";")
                try builder.addMarkAttachment(word == "base" ? .markToBase : .markToMark, glyphs.glyphs, marks: marks, at: at)
            }
            return
        }
        var p = try parseGlyphPattern(vertical: vertical)
        try expect(symbol: ";")
        if p.lookups.contains(where: { $0 != nil }) {
            if p.values.contains(where: { $0 != nil }) { throw FeatureFileError("a rule with 'lookup' cannot also give values", at) }
            try builder.addChainContext(
                "GPOS", prefix: p.prefix.map(\.glyphs), glyphs: p.glyphs.map(\.glyphs), suffix: p.suffix.map(\.glyphs), lookups: p.lookups,
                at: at)
            return
        }
        if p.prefix.isEmpty, p.suffix.isEmpty, p.glyphs.count == 2, !p.hasMarks {
            if p.values.count == 2, p.values[0] == nil { p.values.reverse() }
            let v1 = p.values.first ?? nil, v2 = p.values.count > 1 ? p.values[1] : nil
            let first = p.glyphs[0], second = p.glyphs[1]
            if enumerated {
                guard !first.glyphs.isEmpty, !second.glyphs.isEmpty else {
                    throw FeatureFileError("empty glyph class in a positioning rule", at)
                }
                for a in first.glyphs {
                    for b in second.glyphs { try builder.addGlyphPair(a, v1, b, v2, at: at) }
                }
            } else if first.isSingleGlyph, second.isSingleGlyph {
                try builder.addGlyphPair(first.glyphs[0], v1, second.glyphs[0], v2, at: at)
            } else {
                try builder.addClassPair(first.glyphs, v1, second.glyphs, v2, at: at)
            }
            return
        }
        if enumerated { throw FeatureFileError("'enumerate' is only allowed with pair positioning", at) }
        try builder.addSinglePos(
            prefix: p.prefix.map(\.glyphs), suffix: p.suffix.map(\.glyphs), positions: zip(p.glyphs, p.values).map { ($0.0.glyphs, $0.1) },
            forceChain: p.hasMarks, at: at)
    }

    // MARK: Names and tables

    /// `name [platform [encoding language]] "text";`, encoded for its platform: Windows text
    /// as UTF-16 with `\XXXX` escapes as code units, Macintosh text as bytes with `\XX`
    /// escapes as bytes (other characters Mac Roman for script 0, ASCII for the others).
    private func parseNameRecord() throws -> FeatureNameRecord {
        var platform = 3, encoding = 1, language = 0x409
        if case .string = try next {
        } else {
            platform = try expectAnyNumber()
            guard platform == 1 || platform == 3 else { throw fail("expected platform id 1 or 3") }
            if platform == 1 { encoding = 0; language = 0 }
            if case .string = try next {
            } else {
                encoding = try expectAnyNumber()
                language = try expectAnyNumber()
            }
        }
        let text = try expectString()
        let at = location
        try expect(symbol: ";")
        guard let bytes = Self.nameBytes(text, platform: platform, encoding: encoding) else {
            throw FeatureFileError(
                "the name cannot be written for platform \(platform) encoding \(encoding): write other characters as \\XX byte escapes", at)
        }
        return FeatureNameRecord(platformID: platform, encodingID: encoding, languageID: language, bytes: bytes)
    }

    static func nameBytes(_ s: String, platform: Int, encoding: Int) -> [UInt8]? {
        let chars = Array(s.unicodeScalars)
        let width = platform == 1 ? 2 : 4
        var units: [UInt16] = []
        var bytes: [UInt8] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "\\", i + width < chars.count,
                let v = UInt16(String(String.UnicodeScalarView(chars[(i + 1)...(i + width)])), radix: 16)
            {
                if platform == 1 { bytes.append(UInt8(v)) } else { units.append(v) }
                i += 1 + width
                continue
            }
            if platform == 1 {
                if chars[i].isASCII {
                    bytes.append(UInt8(chars[i].value))
                } else if encoding == 0, let b = try? NameRecord.encode(String(chars[i]), platformID: 1, encodingID: 0) {
                    bytes += b
                } else {
                    return nil
                }
            } else {
                units += Array(String(chars[i]).utf16)
            }
            i += 1
        }
        return platform == 1 ? bytes : units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    private func parseFeatureNames(_ tag: String) throws {
        try expect(symbol: "{")
        while try !nextIs(symbol: "}") {
            let t = try advance()
            if t == .symbol(UInt8(ascii: ";")) { continue }
            guard t == .name("name") else { throw fail("expected 'name'") }
            builder.addFeatureName(tag, try parseNameRecord())
        }
        try expect(symbol: "}")
        try expect(symbol: ";")
    }

    private func parseCVParameters(_ tag: String) throws {
        try expect(symbol: "{")
        builder.startCVParameters(tag)
        while try !nextIs(symbol: "}") {
            let t = try advance()
            switch t {
            case .symbol(UInt8(ascii: ";")): continue
            case .name("FeatUILabelNameID"), .name("FeatUITooltipTextNameID"), .name("SampleTextNameID"), .name("ParamUILabelNameID"):
                guard case .name(let block) = t else { continue }
                try expect(symbol: "{")
                var records: [FeatureNameRecord] = []
                while try !nextIs(symbol: "}") {
                    let u = try advance()
                    if u == .symbol(UInt8(ascii: ";")) { continue }
                    guard u == .name("name") else { throw fail("expected 'name'") }
                    records.append(try parseNameRecord())
                }
                try expect(symbol: "}")
                try expect(symbol: ";")
                builder.addCVNames(tag, block: block, records)
            case .name("Character"):
                let at = location
                let c = try expectAnyNumber()
                try expect(symbol: ";")
                guard (0...0xFF_FFFF).contains(c) else { throw FeatureFileError("a character value is between 0x0 and 0xffffff", at) }
                builder.addCVCharacter(tag, c)
            default: throw fail("expected a cvParameters statement, found \(t.text)")
            }
        }
        try expect(symbol: "}")
        try expect(symbol: ";")
    }

    private func parseTable() throws {
        let at = location
        let tag = try expectTag()
        try expect(symbol: "{")
        switch tag {
        case "GDEF": try parseGDEF()
        case "head", "hhea", "vhea", "OS/2": try parseFieldTable(tag)
        case "name": try parseNameTable()
        case "BASE": try parseBASE()
        case "STAT": try parseSTAT()
        case "vmtx": try parseVmtx()
        default: throw FeatureFileError("'table \(tag.trimmingSpaces)' is not supported yet", at)
        }
        try expect(symbol: "}")
        guard try expectTag() == tag else { throw fail("expected '\(tag.trimmingSpaces)'") }
        try expect(symbol: ";")
    }

    /// `table STAT { ElidedFallbackName { name …; }; ElidedFallbackNameID N; DesignAxis TAG
    /// ORDER { name …; }; AxisValue { location TAG VALUE…; name …; flag …; }; } STAT;`
    private func parseSTAT() throws {
        var designAxes: [String] = []
        /// `{ name …; … }`: at least one name record.
        func names(_ what: String) throws -> [FeatureNameRecord] {
            try expect(symbol: "{")
            var out: [FeatureNameRecord] = []
            while try !nextIs(symbol: "}") {
                let t = try advance()
                if case .symbol(UInt8(ascii: ";")) = t { continue }
                guard case .name("name") = t else { throw fail("expected \"name\" in \(what), found \(t.text)") }
                out.append(try parseNameRecord())
            }
            try expect(symbol: "}")
            guard !out.isEmpty else { throw fail("\(what) needs a name") }
            return out
        }
        while try !nextIs(symbol: "}") {
            let t = try advance()
            let at = location
            switch t {
            case .symbol(UInt8(ascii: ";")): continue
            case .name("ElidedFallbackName"):
                try builder.stat.setElidedFallback(.names(try names("ElidedFallbackName")), at: at)
                try expect(symbol: ";")
            case .name("ElidedFallbackNameID"):
                let id = try expectNumber()
                try expect(symbol: ";")
                try builder.stat.setElidedFallback(.id(id), at: at)
            case .name("DesignAxis"):
                let tag = try expectTag(), ordering = try expectNumber()
                let axisNames = try names("DesignAxis \(tag.trimmingSpaces)")
                try expect(symbol: ";")
                try builder.stat.addAxis(STATSyntax.Axis(tag: tag, ordering: ordering, names: axisNames), at: at)
                designAxes.append(tag)
            case .name("AxisValue"):
                try expect(symbol: "{")
                var value = STATSyntax.Value(names: [], locations: [], flags: 0)
                while try !nextIs(symbol: "}") {
                    let word = try advance()
                    switch word {
                    case .symbol(UInt8(ascii: ";")): continue
                    case .name("name"): value.names.append(try parseNameRecord())
                    case .name("location"):
                        let tagAt = try nextLocation
                        let tag = try expectTag()
                        guard !tag.hasSuffix(" ") else {
                            throw FeatureFileError("axis tag '\(tag.trimmingSpaces)' must be 4 characters", tagAt)
                        }
                        guard designAxes.contains(tag) else {
                            throw FeatureFileError("no DesignAxis \(tag) is defined before this AxisValue", tagAt)
                        }
                        var numbers: [Double] = []
                        while try !nextIs(symbol: ";") { numbers.append(try expectDecimal()) }
                        guard (1...3).contains(numbers.count) else {
                            throw FeatureFileError("expected 1, 2 or 3 values for axis \(tag), found \(numbers.count)", tagAt)
                        }
                        if numbers.count == 3, !(numbers[1]...numbers[2]).contains(numbers[0]) {
                            throw FeatureFileError(
                                "the nominal value \(numbers[0]) is outside the range \(numbers[1])–\(numbers[2])", tagAt)
                        }
                        try advance()
                        value.locations.append((tag, numbers))
                    case .name("flag"):
                        value.flags = 0
                        while try !nextIs(symbol: ";") {
                            let flag = try expectName()
                            guard let bit = STATSyntax.flags[flag] else {
                                throw fail("unknown STAT flag '\(flag)' (OlderSiblingFontAttribute, ElidableAxisValueName)")
                            }
                            value.flags |= bit
                        }
                        try advance()
                    default: throw fail("expected location, name or flag in AxisValue, found \(word.text)")
                    }
                }
                try expect(symbol: "}")
                guard !value.names.isEmpty else { throw fail("an AxisValue needs a name") }
                guard !value.locations.isEmpty else { throw fail("an AxisValue needs a location") }
                if value.locations.count > 1 {
                    if let l = value.locations.first(where: { $0.values.count > 1 }) {
                        throw fail("an AxisValue with several locations takes one value for each; \(l.tag) has \(l.values.count)")
                    }
                    let tags = value.locations.map(\.tag)
                    if Set(tags).count < tags.count { throw fail("an AxisValue gives a location for one axis twice") }
                }
                try expect(symbol: ";")
                try builder.stat.addValue(value, at: at)
            default: throw fail("expected ElidedFallbackName, ElidedFallbackNameID, DesignAxis or AxisValue, found \(t.text)")
            }
        }
    }

    /// The fields feature files may set, by table: statement name → (field, how it is read).
    static let tableFields: [String: [String: (field: String, kind: FieldStatementKind)]] = [
        "head": ["FontRevision": ("fontRevision", .float)],
        "hhea": [
            "CaretOffset": ("caretOffset", .number), "Ascender": ("ascender", .number), "Descender": ("descender", .number),
            "LineGap": ("lineGap", .number),
        ],
        "vhea": [
            "VertTypoAscender": ("ascent", .number), "VertTypoDescender": ("descent", .number), "VertTypoLineGap": ("lineGap", .number),
        ],
        "OS/2": [
            "FSType": ("fsType", .number), "TypoAscender": ("sTypoAscender", .number), "TypoDescender": ("sTypoDescender", .number),
            "TypoLineGap": ("sTypoLineGap", .number), "winAscent": ("usWinAscent", .number), "winDescent": ("usWinDescent", .number),
            "XHeight": ("sxHeight", .number), "CapHeight": ("sCapHeight", .number), "WeightClass": ("usWeightClass", .number),
            "WidthClass": ("usWidthClass", .number), "LowerOpSize": ("usLowerOpticalPointSize", .number),
            "UpperOpSize": ("usUpperOpticalPointSize", .number), "Panose": ("panose", .numbers(10)),
            "UnicodeRange": ("unicodeRange", .list), "CodePageRange": ("codePageRange", .list), "Vendor": ("achVendID", .string),
        ],
    ]

    enum FieldStatementKind {
        case number, float, string, list
        case numbers(Int)
    }

    /// `table head|hhea|vhea|OS/2 { Statement value; … }`.
    private func parseFieldTable(_ tag: String) throws {
        let known = Self.tableFields[tag] ?? [:]
        while try !nextIs(symbol: "}") {
            let t = try advance()
            if t == .symbol(UInt8(ascii: ";")) { continue }
            let at = location
            guard case .name(let word) = t, let (field, kind) = known[word] else {
                var message = "expected one of \(known.keys.sorted().joined(separator: ", ")) in table \(tag), found \(t.text)"
                if case .name(let w) = t, let near = closestName(to: w, in: Array(known.keys)) { message += " (did you mean '\(near)'?)" }
                throw fail(message)
            }
            var value: [Int] = []
            var text: String?
            var float: Double?
            switch kind {
            case .number: value = [try expectNumber()]
            case .numbers(let n): for _ in 0..<n { value.append(try expectNumber()) }
            case .list: while try !nextIs(symbol: ";") { value.append(try expectNumber()) }
            case .string: text = try expectString()
            case .float:
                switch try advance() {
                case .float(let d, _): float = d
                case .number(let n): float = Double(n)
                default: throw fail("expected a number like 1.100")
                }
                guard float! > 0 else { throw FeatureFileError("font revision numbers must be positive", at) }
            }
            if field == "unicodeRange", let bad = value.first(where: { !(0...127).contains($0) }) {
                throw FeatureFileError("UnicodeRange bits are 0…127, got \(bad)", at)
            }
            if field == "achVendID", let text, !text.unicodeScalars.allSatisfy({ $0.isASCII }) || text.utf8.count > 4 {
                throw FeatureFileError("a vendor ID is up to 4 ASCII characters", at)
            }
            guard try nextIs(symbol: ";") else { throw FeatureFileError("incomplete statement: expected ';'", try nextLocation) }
            builder.setTableField(tag, field, numbers: value, text: text, float: float, at: at)
        }
    }

    /// `table BASE { HorizAxis.BaseTagList …; HorizAxis.BaseScriptList …; HorizAxis.MinMax …; }`
    /// and the same for VertAxis.
    private func parseBASE() throws {
        var tags: [Bool: [String]] = [:]
        var lastAxis: Bool?
        while try !nextIs(symbol: "}") {
            let t = try advance()
            if t == .symbol(UInt8(ascii: ";")) { continue }
            guard case .name(let word) = t, let dot = word.firstIndex(of: "."),
                ["HorizAxis", "VertAxis"].contains(String(word[..<dot]))
            else { throw fail("expected HorizAxis.* or VertAxis.* in table BASE, found \(t.text)") }
            let vertical = word.hasPrefix("Vert"), what = String(word[word.index(after: dot)...])
            switch what {
            case "BaseTagList":
                var list: [String] = []
                while try !nextIs(symbol: ";") { list.append(try expectScriptTag()) }
                try expect(symbol: ";")
                tags[vertical] = list
            case "BaseScriptList":
                guard let list = tags[vertical] else { throw fail("BaseScriptList must come after BaseTagList") }
                var records: [(String, String, [Int])] = []
                repeat {
                    if !records.isEmpty { try advance() }
                    let script = try expectScriptTag(), baseline = try expectScriptTag()
                    guard list.contains(baseline) else {
                        throw fail("default baseline '\(baseline.trimmingSpaces)' is not in the BaseTagList")
                    }
                    records.append((script, baseline, try list.map { _ in try expectNumber() }))
                } while try nextIs(symbol: ",")
                try expect(symbol: ";")
                builder.setBaseAxis(vertical: vertical, tags: list, scripts: records)
                lastAxis = vertical
            case "MinMax":
                guard lastAxis == vertical else { throw fail("\(word) must come after that axis's BaseScriptList") }
                let script = try expectScriptTag(), language = try expectLanguageTag()
                let low = try expectNumber()
                try expect(symbol: ",")
                let high = try expectNumber()
                if try nextIs(symbol: ",") { throw fail("feature tags in BASE MinMax are not supported") }
                try expect(symbol: ";")
                builder.addBaseMinMax(vertical: vertical, script: script, language: language, low, high)
            default: throw fail("'\(word)' is not a BASE statement")
            }
        }
    }

    /// `table vmtx { VertOriginY GLYPH Y; VertAdvanceY GLYPH HEIGHT; … }` (glyph classes allowed).
    private func parseVmtx() throws {
        while try !nextIs(symbol: "}") {
            let t = try advance()
            let at = location
            switch t {
            case .symbol(UInt8(ascii: ";")): continue
            case .name("VertOriginY"), .name("VertAdvanceY"):
                let glyphs = try parseGlyphClass(acceptGlyph: true).glyphs
                let value = try expectNumber()
                try expect(symbol: ";")
                if t == .name("VertOriginY") {
                    guard (-32768...32767).contains(value) else { throw FeatureFileError("VertOriginY \(value) does not fit 16 bits", at) }
                    for g in glyphs { builder.verticalOrigins.append((g, value, at)) }
                } else {
                    guard (0...65535).contains(value) else { throw FeatureFileError("VertAdvanceY \(value) is not 0…65535", at) }
                    for g in glyphs { builder.verticalAdvances.append((g, value, at)) }
                }
            default: throw fail("expected VertOriginY or VertAdvanceY, found \(t.text)")
            }
        }
    }

    /// `table name { nameid ID [platform [encoding language]] "text"; … }`.
    private func parseNameTable() throws {
        while try !nextIs(symbol: "}") {
            let t = try advance()
            if t == .symbol(UInt8(ascii: ";")) { continue }
            guard t == .name("nameid") else { throw fail("expected nameid, found \(t.text)") }
            let id = try expectAnyNumber()
            guard (0...32767).contains(id) else { throw fail("a name id is at most 32767") }
            builder.addNameRecord(id, try parseNameRecord())
        }
    }

    private func parseGDEF() throws {
        while try !nextIs(symbol: "}") {
            let t = try advance()
            let at = location
            switch t {
            case .symbol(UInt8(ascii: ";")): continue
            case .name("Attach"):
                let glyphs = try parseGlyphClass(acceptGlyph: true)
                var points = [try expectNumber()]
                while try !nextIs(symbol: ";") { points.append(try expectNumber()) }
                try expect(symbol: ";")
                builder.addAttachPoints(glyphs.glyphs, points)
            case .name("GlyphClassDef"):
                var classes: [[Int]?] = []
                for i in 0..<4 {
                    if try nextIs(symbol: ",") || (i == 3 && nextIs(symbol: ";")) {
                        classes.append(nil)
                    } else {
                        classes.append(try parseGlyphClass(acceptGlyph: false).glyphs)
                    }
                    try expect(symbol: i == 3 ? ";" : ",")
                }
                try builder.setGlyphClassDef(base: classes[0], ligature: classes[1], mark: classes[2], component: classes[3], at: at)
            case .name("LigatureCaretByIndex"):
                let glyphs = try parseGlyphClass(acceptGlyph: true)
                var points = [try expectNumber()]
                while try !nextIs(symbol: ";") { points.append(try expectNumber()) }
                try expect(symbol: ";")
                builder.addLigatureCaretPoints(glyphs.glyphs, points)
            case .name("LigatureCaretByPos"):
                let glyphs = try parseGlyphClass(acceptGlyph: true)
                var carets = [try expectNumberOrScalar()]
                while try !nextIs(symbol: ";") { carets.append(try expectNumberOrScalar()) }
                try expect(symbol: ";")
                builder.addLigatureCaretPositions(glyphs.glyphs, carets.map { ($0.value, $0.variable?.row) })
            default: throw fail("expected Attach, LigatureCaretByIndex, LigatureCaretByPos or GlyphClassDef, found \(t.text)")
            }
        }
    }
}

/// A name record a feature file adds (featureNames, cvParameters, sizemenuname).
struct FeatureNameRecord: Hashable {
    var platformID: Int, encodingID: Int, languageID: Int
    /// Encoded for the platform.
    var bytes: [UInt8]
}
