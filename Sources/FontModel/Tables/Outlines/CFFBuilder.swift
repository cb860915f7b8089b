/// A CFF table written from its parts (what a TTX `<CFF>` element says): one font, its Top DICT
/// keys, strings, charset, encoding, charstrings, subroutines, Private DICTs and, for CID-keyed
/// fonts, the FDArray and FDSelect. Offsets are laid out here; DICT offsets are 5-byte integers,
/// so every size is known before any offset.
public struct CFFBuilder {
    public enum Encoding { case standard, expert, custom([(code: Int, glyph: Int)]) }

    public var major = 1, minor = 0
    public var fontName: [UInt8] = []
    /// Top DICT keys other than the offsets this builder fills (charset, Encoding, CharStrings,
    /// Private, FDArray, FDSelect).
    public var top: [CFFDictEntry] = []
    /// Glyph 1 onwards: string ids (name-keyed) or CIDs (CID-keyed).
    public var charset: [Int] = []
    public var encoding: Encoding = .standard
    public var charStrings: [[UInt8]] = []
    public var globalSubrs: [[UInt8]] = []
    /// One per font DICT (CID-keyed), or the Top DICT's alone.
    public var privates: [(dict: [CFFDictEntry], subrs: [[UInt8]])] = []
    /// CID-keyed: the FDArray's font DICTs (without their Private offsets) and each glyph's FD.
    public var fontDicts: [[CFFDictEntry]] = []
    public var fdSelect: [Int] = []
    public var fdSelectFormat = 3
    private(set) var strings: [[UInt8]] = []
    /// Each added string's id, so a charset of 65,535 names is not searched quadratically.
    private var stringIDs: [[UInt8]: Int] = [:]

    public init() {}

    /// The string id of a string, adding it to the String INDEX when it is not a standard one.
    public mutating func sid(_ bytes: [UInt8]) -> Int {
        if let s = String(validating: bytes, as: UTF8.self), let i = Self.standardIndex[s] { return i }
        if let i = stringIDs[bytes] { return i }
        strings.append(bytes)
        let id = cffStandardStrings.count + strings.count - 1
        stringIDs[bytes] = id
        return id
    }

    static let standardIndex: [String: Int] = Dictionary(cffStandardStrings.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })

    static func dict(_ entries: [CFFDictEntry]) -> CFFDict {
        CFFDict(
            entries: entries.map { e in
                (
                    e.op,
                    e.operands.map { n in
                        switch n {
                        case .int(let v): .int(v)
                        case .real(let v): .real(realBytes(v))
                        }
                    }
                )
            })
    }

    /// A DICT real as nibbles: the number's decimal digits, point, exponent and sign.
    static func realBytes(_ v: Double) -> [UInt8] {
        var text = "\(v)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        var nibbles: [UInt8] = []
        var chars = Array(text.uppercased().utf8)[...]
        while let c = chars.popFirst() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(c - UInt8(ascii: "0"))
            case UInt8(ascii: "."): nibbles.append(0xA)
            case UInt8(ascii: "-"): nibbles.append(0xE)
            case UInt8(ascii: "E"):
                if chars.first == UInt8(ascii: "-") { chars.removeFirst(); nibbles.append(0xC) } else { nibbles.append(0xB) }
                if chars.first == UInt8(ascii: "+") { chars.removeFirst() }
            default: break
            }
        }
        nibbles.append(0xF)
        if nibbles.count % 2 == 1 { nibbles.append(0xF) }
        var out: [UInt8] = [30]
        for k in stride(from: 0, to: nibbles.count, by: 2) { out.append(nibbles[k] << 4 | nibbles[k + 1]) }
        return out
    }

    /// An FDSelect: format 0 (a font DICT per glyph), 3 (ranges) or, in CFF2, 4 (32-bit ranges).
    /// The font DICT indices are already checked to be below the FDArray's count (≤ 256).
    static func fdSelectBytes(_ fdSelect: [Int], format: Int) throws -> [UInt8] {
        var w = BinaryWriter()
        let n = fdSelect.count
        if format == 0 {
            w.u8(0)
            for fd in fdSelect { try w.u8(fd, "FDSelect font DICT index") }
            return w.bytes
        }
        var ranges: [(first: Int, fd: Int)] = []
        for (g, fd) in fdSelect.enumerated() where ranges.last?.fd != fd { ranges.append((g, fd)) }
        if format == 4 {
            w.u8(4); try w.u32(ranges.count, "FDSelect range count")
            for r in ranges { try w.u32(r.first, "FDSelect first glyph"); try w.u16(r.fd, "FDSelect font DICT index") }
            try w.u32(n, "FDSelect glyph count")
        } else {
            guard n <= 0xFFFF else { throw FontError("FDSelect format 3 holds 65,535 glyphs; use format 4", table: "CFF") }
            w.u8(3); try w.u16(ranges.count, "FDSelect range count")
            for r in ranges { try w.u16(r.first, "FDSelect first glyph"); try w.u8(r.fd, "FDSelect font DICT index") }
            try w.u16(n, "FDSelect glyph count")
        }
        return w.bytes
    }

    public func build() throws -> [UInt8] {
        let n = charStrings.count
        guard n > 0, n <= 0xFFFF else { throw FontError("CFF needs 1 to 65,535 charstrings, got \(n)", table: "CFF ") }
        guard charset.count == n - 1 else {
            throw FontError("CFF charset names \(charset.count + 1) glyphs for \(n) charstrings", table: "CFF ")
        }
        let cid = !fontDicts.isEmpty
        guard privates.count == (cid ? fontDicts.count : 1) else {
            throw FontError("CFF has \(privates.count) Private DICTs for \(cid ? fontDicts.count : 1) font DICTs", table: "CFF ")
        }
        if cid {
            guard fdSelect.count == n, fdSelect.allSatisfy({ (0..<fontDicts.count).contains($0) }) else {
                throw FontError("CFF FDSelect must give each of the \(n) glyphs a font DICT below \(fontDicts.count)", table: "CFF ")
            }
        }
        var charsetBytes = BinaryWriter(capacity: 1 + 2 * n)
        charsetBytes.u8(0)
        for s in charset { try charsetBytes.u16(s, "CFF charset string id") }
        var encodingBytes = BinaryWriter()
        if case .custom(let pairs) = encoding {
            // Format 0: a code per glyph from glyph 1 until the last encoded one (0 for the rest).
            var codeOf: [Int: Int] = [:]
            for (code, glyph) in pairs where (0...255).contains(code) { codeOf[glyph] = code }
            let last = codeOf.keys.filter { $0 > 0 }.max() ?? 0
            encodingBytes.u8(0)
            try encodingBytes.u8(last, "CFF encoded glyph count (format 0 holds 255)")
            for g in stride(from: 1, through: last, by: 1) { encodingBytes.u8(UInt8(codeOf[g] ?? 0)) }
        }
        var fdSelectBytes = BinaryWriter()
        if cid { fdSelectBytes.append(try Self.fdSelectBytes(fdSelect, format: fdSelectFormat == 0 ? 0 : 3)) }
        let privateBytes: [[UInt8]] = try privates.map { p in
            var dict = Self.dict(p.dict.filter { $0.op != CFFTable.privateSubrs })
            if !p.subrs.isEmpty {
                dict.set(CFFTable.privateSubrs, [.int(0)])
                dict.set(CFFTable.privateSubrs, [.int(dict.encode().count)])
            }
            var w = BinaryWriter()
            w.append(dict.encode())
            if !p.subrs.isEmpty { try CFFIndex.encode(p.subrs, into: &w) }
            return w.bytes
        }
        let privateDictSizes: [Int] = privates.map { p in
            var dict = Self.dict(p.dict.filter { $0.op != CFFTable.privateSubrs })
            if !p.subrs.isEmpty { dict.set(CFFTable.privateSubrs, [.int(0)]) }
            return dict.encode().count
        }
        var top = Self.dict(top.filter { ![15, 16, 17, 18, 1236, 1237].contains($0.op) })
        func placeOffsets(_ charsetAt: Int, _ encodingAt: Int, _ fdSelectAt: Int, _ charStringsAt: Int, _ fdArrayAt: Int, _ privateAt: Int)
        {
            top.set(CFFTable.topCharset, [.int(charsetAt)])
            switch encoding {
            case .standard: break
            case .expert: top.set(CFFTable.topEncoding, [.int(1)])
            case .custom: top.set(CFFTable.topEncoding, [.int(encodingAt)])
            }
            top.set(CFFTable.topCharStrings, [.int(charStringsAt)])
            if cid {
                top.set(CFFTable.topFDSelect, [.int(fdSelectAt)]); top.set(CFFTable.topFDArray, [.int(fdArrayAt)])
            } else {
                top.set(CFFTable.topPrivate, [.int(privateDictSizes[0]), .int(privateAt)])
            }
        }
        func fontDictItems(_ privateAt: [Int]) -> [[UInt8]] {
            fontDicts.enumerated().map { i, d in
                var d = Self.dict(d.filter { $0.op != CFFTable.topPrivate })
                d.set(CFFTable.topPrivate, [.int(privateDictSizes[i]), .int(privateAt.isEmpty ? 0 : privateAt[i])])
                return d.encode()
            }
        }
        placeOffsets(0, 0, 0, 0, 0, 0)
        let nameItems = [fontName]
        var position =
            4 + CFFIndex.encodedSize(nameItems) + CFFIndex.encodedSize([top.encode()])
            + CFFIndex.encodedSize(strings) + CFFIndex.encodedSize(globalSubrs)
        let charsetAt = position; position += charsetBytes.bytes.count
        let encodingAt = position; position += encodingBytes.bytes.count
        let fdSelectAt = position; position += fdSelectBytes.bytes.count
        let charStringsAt = position; position += CFFIndex.encodedSize(charStrings)
        let fdArrayAt = position; if cid { position += CFFIndex.encodedSize(fontDictItems([])) }
        var privateAt: [Int] = []
        for p in privateBytes { privateAt.append(position); position += p.count }
        placeOffsets(charsetAt, encodingAt, fdSelectAt, charStringsAt, fdArrayAt, privateAt[0])

        var w = BinaryWriter(capacity: position)
        w.u8(UInt8(truncatingIfNeeded: major)); w.u8(UInt8(truncatingIfNeeded: minor)); w.u8(4); w.u8(4)
        try CFFIndex.encode(nameItems, into: &w)
        try CFFIndex.encode([top.encode()], into: &w)
        try CFFIndex.encode(strings, into: &w)
        try CFFIndex.encode(globalSubrs, into: &w)
        w.append(charsetBytes.bytes)
        w.append(encodingBytes.bytes)
        w.append(fdSelectBytes.bytes)
        try CFFIndex.encode(charStrings, into: &w)
        if cid { try CFFIndex.encode(fontDictItems(privateAt), into: &w) }
        for p in privateBytes { w.append(p) }
        guard w.bytes.count == position else {
            throw FontError("CFF layout mismatch: planned \(position) bytes, built \(w.bytes.count)", table: "CFF ")
        }
        return w.bytes
    }
}
