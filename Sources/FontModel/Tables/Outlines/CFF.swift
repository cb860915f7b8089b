/// A CFF INDEX: item ranges (relative to the start of the CFF table) and where the INDEX ends.
struct CFFIndex {
    var items: [Range<Int>]
    var range: Range<Int>

    /// `wideCount`: CFF2's INDEX, whose count is 32 bits.
    static func read(_ cff: BinaryReader, at start: Int, wideCount: Bool = false) throws -> CFFIndex {
        var r = cff
        try r.seek(start)
        let count = wideCount ? Int(try r.u32()) : Int(try r.u16())
        guard count > 0 else { return CFFIndex(items: [], range: start..<start + (wideCount ? 4 : 2)) }
        let offSize = Int(try r.u8())
        guard (1...4).contains(offSize) else { throw r.error("CFF INDEX offSize \(offSize) is not 1–4", at: r.offset - 1) }
        guard count + 1 <= r.remaining / offSize else { throw r.error("CFF INDEX claims \(count) items, more than the table holds") }
        let dataStart = r.offset + (count + 1) * offSize - 1
        var items: [Range<Int>] = []
        items.reserveCapacity(count)
        var previous = try r.offsetValue(size: offSize)
        guard previous == 1 else { throw r.error("CFF INDEX first offset is \(previous), not 1", at: r.offset - offSize) }
        for _ in 0..<count {
            let next = try r.offsetValue(size: offSize)
            guard next >= previous, dataStart + next <= cff.count else {
                throw r.error("CFF INDEX offset \(next) runs backwards or past the table end", at: r.offset - offSize)
            }
            items.append(dataStart + previous..<dataStart + next)
            previous = next
        }
        return CFFIndex(items: items, range: start..<dataStart + previous)
    }

    static func encode(_ items: [[UInt8]], into w: inout BinaryWriter, wideCount: Bool = false) throws {
        if wideCount { try w.u32(items.count, "CFF2 INDEX count") } else { try w.u16(items.count, "CFF INDEX count") }
        guard !items.isEmpty else { return }
        let total = items.reduce(0) { $0 + $1.count } + 1
        let offSize = total <= 0xFF ? 1 : total <= 0xFFFF ? 2 : total <= 0xFF_FFFF ? 3 : 4
        w.u8(UInt8(offSize))
        var offset = 1
        w.offsetValue(offset, size: offSize)
        for item in items { offset += item.count; w.offsetValue(offset, size: offSize) }
        for item in items { w.append(item) }
    }

    static func encodedSize(_ items: [[UInt8]], wideCount: Bool = false) -> Int {
        let countSize = wideCount ? 4 : 2
        guard !items.isEmpty else { return countSize }
        let total = items.reduce(0) { $0 + $1.count } + 1
        let offSize = total <= 0xFF ? 1 : total <= 0xFFFF ? 2 : total <= 0xFF_FFFF ? 3 : 4
        return countSize + 1 + (items.count + 1) * offSize + total - 1
    }
}

/// A CFF DICT operand: integers decoded, reals kept as their nibble bytes so they round-trip.
enum CFFOperand: Equatable {
    case int(Int)
    case real([UInt8])

    var intValue: Int? { if case .int(let v) = self { v } else { nil } }
}

/// The most operands CFF2 lets a DICT or a charstring's stack hold (CFF 1 allows 48; reading
/// accepts CFF2's limit for both).
let cffMaximumStack = 513

/// A CFF DICT as an ordered list of (operator, operands). Two-byte operators are 1200 + second byte.
struct CFFDict {
    var entries: [(op: Int, operands: [CFFOperand])]

    static let offsetOperators: Set<Int> = [15, 16, 17, 18, 19, 1236, 1237]

    static func read(_ r: BinaryReader) throws -> CFFDict {
        var r = r
        var entries: [(op: Int, operands: [CFFOperand])] = []
        var operands: [CFFOperand] = []
        while r.remaining > 0 {
            let b0 = Int(try r.u8())
            switch b0 {
            case 0...27:   // 22–24 are CFF2's vsindex, blend and vstore
                let op = b0 == 12 ? 1200 + Int(try r.u8()) : b0
                entries.append((op, operands)); operands = []
            case 28: operands.append(.int(Int(try r.i16())))
            case 29: operands.append(.int(Int(try r.i32())))
            case 30:
                var raw: [UInt8] = [30]
                while true {
                    let b = try r.u8(); raw.append(b)
                    if b & 0x0F == 0x0F || b >> 4 == 0x0F { break }
                }
                operands.append(.real(raw))
            case 32...246: operands.append(.int(b0 - 139))
            case 247...250: operands.append(.int((b0 - 247) * 256 + Int(try r.u8()) + 108))
            case 251...254: operands.append(.int(-(b0 - 251) * 256 - Int(try r.u8()) - 108))
            default: throw r.error("invalid CFF DICT byte \(b0)", at: r.offset - 1)
            }
            guard operands.count <= cffMaximumStack else { throw r.error("CFF DICT has more than \(cffMaximumStack) operands") }
        }
        return CFFDict(entries: entries)
    }

    func operands(_ op: Int) -> [CFFOperand]? { entries.first { $0.op == op }?.operands }
    func int(_ op: Int, _ index: Int = 0) -> Int? {
        guard let o = operands(op), index < o.count else { return nil }
        return o[index].intValue
    }

    mutating func set(_ op: Int, _ operands: [CFFOperand]) {
        if let i = entries.firstIndex(where: { $0.op == op }) { entries[i].operands = operands } else { entries.append((op, operands)) }
    }

    /// Offsets are always written as 5-byte integers, so the DICT's size does not depend on them.
    func encode() -> [UInt8] {
        var w = BinaryWriter()
        for (op, operands) in entries {
            for (i, operand) in operands.enumerated() {
                switch operand {
                case .real(let raw): w.append(raw)
                case .int(let v):
                    let isOffset = CFFDict.offsetOperators.contains(op) && (op != 18 || i == 1)
                    if isOffset { w.u8(29); w.i32(Int32(truncatingIfNeeded: v)) } else { CFFDict.encodeInt(v, &w) }
                }
            }
            if op >= 1200 { w.u8(12); w.u8(UInt8(op - 1200)) } else { w.u8(UInt8(op)) }
        }
        return w.bytes
    }

    static func encodeInt(_ v: Int, _ w: inout BinaryWriter) {
        switch v {
        case -107...107: w.u8(UInt8(v + 139))
        case 108...1131: let u = v - 108; w.u8(UInt8(u / 256 + 247)); w.u8(UInt8(u % 256))
        case -1131 ... -108: let u = -v - 108; w.u8(UInt8(u / 256 + 251)); w.u8(UInt8(u % 256))
        case -32768...32767: w.u8(28); w.i16(Int16(v))
        default: w.u8(29); w.i32(Int32(truncatingIfNeeded: v))
        }
    }
}

/// `CFF ` — PostScript (Type 2 charstring) outlines. Parsed structurally: header, Name, Top DICT,
/// String and Global Subr INDEXes, charset, FDArray/FDSelect, Private DICTs and local Subrs.
/// Unedited, the table is written back as read; after a rename or a charstring copy it is
/// re-serialized with every offset recomputed.
public final class CFFTable: DecodableTable {
    public static let tableTag: Tag = "CFF "
    static let topFullName = 2, topFamilyName = 3, topCharset = 15, topEncoding = 16, topCharStrings = 17
    static let topPrivate = 18, privateSubrs = 19, topROS = 1230, topFDArray = 1236, topFDSelect = 1237, fdFontName = 1238
    static let defaultWidthX = 20, nominalWidthX = 21

    struct Private {
        var dict: CFFDict
        var localSubrs: CFFIndex?
    }

    /// Points into `sourceBytes`, which this table keeps alive.
    let data: BinaryReader
    var sourceBytes: FontBytes?
    public func keepSource(_ bytes: FontBytes) { sourceBytes = bytes }
    let headerSize: Int
    public private(set) var fontNames: [String]
    var topDict: CFFDict
    /// The file's String INDEX: its items decoded when every string is asked for (opening a font
    /// and editing outlines need none), and written back as it is while no string was added.
    private let fileStrings: CFFIndex
    private var decodedStrings: [String]?
    /// The strings after the standard ones: the file's, then any added by `sid(for:)`.
    public var strings: [String] {
        if let decodedStrings { return decodedStrings }
        let decoded = fileStrings.items.map { String(decoding: data.bytes[$0], as: UTF8.self) }
        decodedStrings = decoded
        return decoded
    }
    let globalSubrs: CFFIndex
    let charStrings: CFFIndex
    let charsetRange: Range<Int>?
    let encodingRange: Range<Int>?
    let fdSelectRange: Range<Int>?
    /// FD index of each glyph (empty unless CID-keyed).
    let fdSelect: [UInt8]
    var fontDicts: [CFFDict]
    var privates: [Private]
    /// Edited charstrings by glyph id: empty until the first edit, then a slot per glyph (read
    /// for every glyph when bounds are recomputed and the table written: no hashing).
    private var charStringOverrides: [[UInt8]?] = []
    private func editedCharString(_ id: Int) -> [UInt8]? { id < charStringOverrides.count ? charStringOverrides[id] : nil }
    public private(set) var isEdited = false
    private var cachedNames: [String]?

    public var isCIDKeyed: Bool { topDict.operands(Self.topROS) != nil }
    public var glyphCount: Int { charStrings.items.count }

    init(reader: BinaryReader) throws {
        data = reader
        var r = reader
        let major = try r.u8(); _ = try r.u8()
        guard major == 1 else { throw r.error("CFF major version \(major) is not 1", at: 0) }
        headerSize = Int(try r.u8())
        guard headerSize >= 4 else { throw r.error("CFF header size \(headerSize) is below 4", at: 2) }
        let nameIndex = try CFFIndex.read(reader, at: headerSize)
        fontNames = nameIndex.items.map { String(decoding: reader.bytes[$0], as: UTF8.self) }
        let topIndex = try CFFIndex.read(reader, at: nameIndex.range.upperBound)
        guard let topRange = topIndex.items.first else { throw r.error("CFF has no Top DICT", at: topIndex.range.lowerBound) }
        topDict = try CFFDict.read(reader.sub(topRange.lowerBound, topRange.count))
        let stringIndex = try CFFIndex.read(reader, at: topIndex.range.upperBound)
        fileStrings = stringIndex
        globalSubrs = try CFFIndex.read(reader, at: stringIndex.range.upperBound)

        guard let charStringsOffset = topDict.int(Self.topCharStrings) else { throw r.error("CFF Top DICT has no CharStrings") }
        charStrings = try CFFIndex.read(reader, at: charStringsOffset)
        let n = charStrings.items.count

        if let o = topDict.int(Self.topCharset), o > 2 {
            charsetRange = o..<o + (try Self.charsetLength(reader, at: o, glyphCount: n))
        } else {
            charsetRange = nil
        }
        if let o = topDict.int(Self.topEncoding), o > 1 {
            encodingRange = o..<o + (try Self.encodingLength(reader, at: o))
        } else {
            encodingRange = nil
        }

        if let fdArrayOffset = topDict.int(Self.topFDArray) {
            let fdIndex = try CFFIndex.read(reader, at: fdArrayOffset)
            fontDicts = try fdIndex.items.map { try CFFDict.read(reader.sub($0.lowerBound, $0.count)) }
            guard let fdSelectOffset = topDict.int(Self.topFDSelect) else { throw r.error("CID-keyed CFF has no FDSelect") }
            let (select, length) = try Self.readFDSelect(reader, at: fdSelectOffset, glyphCount: n, fdCount: fontDicts.count)
            fdSelect = select
            fdSelectRange = fdSelectOffset..<fdSelectOffset + length
            privates = try fontDicts.map { try Self.readPrivate(reader, $0) }
        } else {
            fontDicts = []; fdSelect = []; fdSelectRange = nil
            privates = [try Self.readPrivate(reader, topDict)]
        }
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> CFFTable {
        let table = try CFFTable(reader: reader)
        table.origin = (face.path, face.faceLabel)
        return table
    }

    /// File and face, for errors raised when charstrings are run later.
    var origin: (path: String?, face: Int?) = (nil, nil)

    func located<T>(_ body: () throws -> T) throws -> T {
        try withContext(path: origin.path, face: origin.face, table: "CFF ", body)
    }

    /// `wideCount`: CFF2, whose local Subrs INDEX has a 32-bit count.
    static func readPrivate(_ cff: BinaryReader, _ dict: CFFDict, wideCount: Bool = false) throws -> Private {
        guard let size = dict.int(topPrivate, 0), let offset = dict.int(topPrivate, 1) else {
            return Private(dict: CFFDict(entries: []), localSubrs: nil)
        }
        let privateDict = try CFFDict.read(cff.sub(offset, size))
        var subrs: CFFIndex?
        if let s = privateDict.int(privateSubrs) { subrs = try CFFIndex.read(cff, at: offset + s, wideCount: wideCount) }
        return Private(dict: privateDict, localSubrs: subrs)
    }

    static func charsetLength(_ cff: BinaryReader, at offset: Int, glyphCount: Int) throws -> Int {
        var r = try cff.sub(from: offset)
        let format = try r.u8()
        switch format {
        case 0: try r.skip(2 * max(glyphCount - 1, 0))
        case 1, 2:
            var covered = 1
            while covered < glyphCount {
                _ = try r.u16()
                covered += (format == 1 ? Int(try r.u8()) : Int(try r.u16())) + 1
            }
        default: throw r.error("unknown CFF charset format \(format)", at: 0)
        }
        return r.offset
    }

    static func encodingLength(_ cff: BinaryReader, at offset: Int) throws -> Int {
        var r = try cff.sub(from: offset)
        let format = try r.u8()
        switch format & 0x7F {
        case 0: try r.skip(Int(try r.u8()))
        case 1: try r.skip(2 * Int(try r.u8()))
        default: throw r.error("unknown CFF encoding format \(format)", at: 0)
        }
        if format & 0x80 != 0 { try r.skip(3 * Int(try r.u8())) }
        return r.offset
    }

    static func readFDSelect(_ cff: BinaryReader, at offset: Int, glyphCount: Int, fdCount: Int) throws -> ([UInt8], Int) {
        var r = try cff.sub(from: offset)
        let format = try r.u8()
        var select = [UInt8](repeating: 0, count: glyphCount)
        switch format {
        case 0:
            for i in 0..<glyphCount { select[i] = try r.u8() }
        case 3:
            let ranges = Int(try r.u16())
            var first = Int(try r.u16())
            for _ in 0..<ranges {
                let fd = try r.u8()
                let next = Int(try r.u16())
                guard first <= next, next <= glyphCount else {
                    throw r.error("FDSelect range \(first)..<\(next) is out of order or past the glyphs")
                }
                for g in first..<next { select[g] = fd }
                first = next
            }
        default: throw r.error("unknown FDSelect format \(format)", at: 0)
        }
        if let bad = select.first(where: { Int($0) >= fdCount }) {
            throw r.error("FDSelect names font DICT \(bad), but there are \(fdCount)")
        }
        return (select, r.offset)
    }

    // MARK: strings and names

    /// A string by id (nil for an id that names none: a DICT operand can be any number, even negative).
    public func string(sid: Int) -> String? {
        guard sid >= 0 else { return nil }
        if sid < cffStandardStrings.count { return cffStandardStrings[sid] }
        let i = sid - cffStandardStrings.count
        if let decodedStrings { return i < decodedStrings.count ? decodedStrings[i] : nil }
        return i < fileStrings.items.count ? String(decoding: data.bytes[fileStrings.items[i]], as: UTF8.self) : nil
    }

    func sid(for s: String) -> Int {
        var all = strings
        defer { decodedStrings = all }
        return Self.sid(for: s, strings: &all)
    }

    /// The string id of `s`: a standard string's index, else its place after them in
    /// `strings` (appended when new).
    static func sid(for s: String, strings: inout [String]) -> Int {
        if let i = cffStandardStrings.firstIndex(of: s) { return i }
        if let i = strings.firstIndex(of: s) { return cffStandardStrings.count + i }
        strings.append(s)
        return cffStandardStrings.count + strings.count - 1
    }

    public var fullName: String? { topDict.int(Self.topFullName).flatMap { string(sid: $0) } }
    public var familyName: String? { topDict.int(Self.topFamilyName).flatMap { string(sid: $0) } }

    /// Rewrites the PostScript FontName (Name INDEX) and Top DICT FullName/FamilyName.
    public func rename(fontName: String, fullName: String?, familyName: String?) {
        if fontNames.first != fontName { fontNames = [fontName] + fontNames.dropFirst(); isEdited = true }
        if let fullName, self.fullName != fullName { topDict.set(Self.topFullName, [.int(sid(for: fullName))]); isEdited = true }
        if let familyName, self.familyName != familyName { topDict.set(Self.topFamilyName, [.int(sid(for: familyName))]); isEdited = true }
    }

    /// Glyph names from the charset: SID strings, or `cidNNNNN` for CID-keyed fonts (as fontTools names them).
    public func glyphNames() throws -> [String] {
        if let cachedNames { return cachedNames }
        let n = glyphCount
        var ids = [Int](repeating: 0, count: n)
        if let range = charsetRange {
            var r = try data.sub(range.lowerBound, range.count)
            let format = try r.u8()
            var g = 1
            if format == 0 {
                while g < n { ids[g] = Int(try r.u16()); g += 1 }
            } else {
                while g < n {
                    let first = Int(try r.u16())
                    let left = format == 1 ? Int(try r.u8()) : Int(try r.u16())
                    for k in 0...left where g < n { ids[g] = first + k; g += 1 }
                }
            }
        } else {
            // Predefined charsets (ISOAdobe etc.) map glyph i to SID i for the first glyphs.
            for g in 0..<n { ids[g] = g }
        }
        let names: [String] =
            isCIDKeyed
            ? ids.enumerated().map { $0.offset == 0 ? ".notdef" : "cid" + zeroPadded5($0.element) }
            : ids.map { string(sid: $0) ?? "sid\($0)" }
        cachedNames = names
        return names
    }

    // MARK: charstrings

    func checkID(_ id: Int) throws {
        guard id >= 0, id < glyphCount else { throw FontError("glyph id \(id) out of range (0..<\(glyphCount))", table: "CFF ") }
    }

    public func charString(_ id: Int) throws -> [UInt8] {
        try checkID(id)
        if let o = editedCharString(id) { return o }
        return Array(data.bytes[charStrings.items[id]])
    }

    /// Glyph `id`'s charstring as a reader, without copying it: based at its file offset, or at
    /// 0 once an edit replaced it.
    func withCharString<T>(_ id: Int, _ body: (BinaryReader) throws -> T) throws -> T {
        try checkID(id)
        if let edited = editedCharString(id) { return try edited.withUnsafeBytes { try body(BinaryReader($0)) } }
        let range = charStrings.items[id]
        return try body(data.sub(range.lowerBound, range.count))
    }

    /// The font DICT index of a glyph (0 for non-CID fonts).
    public func fdIndex(_ id: Int) -> Int { id < fdSelect.count ? Int(fdSelect[id]) : 0 }

    func privateFor(_ id: Int) -> Private { privates[min(fdIndex(id), privates.count - 1)] }

    /// Copies glyph `source`'s charstring onto glyph `target`. Across font DICTs whose subroutines or
    /// widths differ the copy would draw differently, so it is refused with a clear error.
    public func copyCharString(from source: Int, to target: Int) throws {
        try checkID(source); try checkID(target)
        let bytes = try charString(source)
        let fdS = fdIndex(source), fdT = fdIndex(target)
        if fdS != fdT {
            let ps = privates[fdS], pt = privates[fdT]
            let sameWidths =
                ps.dict.operands(Self.defaultWidthX) == pt.dict.operands(Self.defaultWidthX)
                && ps.dict.operands(Self.nominalWidthX) == pt.dict.operands(Self.nominalWidthX)
            let usesLocal = try CharStringInterpreter.run(cff: self, glyph: source).usesLocalSubrs
            let sameSubrs = ps.localSubrs?.range == pt.localSubrs?.range
            if !sameWidths || (usesLocal && !sameSubrs) {
                throw FontError(
                    "cannot copy glyph \(source) onto glyph \(target): they use different font DICTs (\(fdS) and \(fdT)) "
                        + (usesLocal && !sameSubrs ? "with different local subroutines" : "with different width defaults")
                        + "; copying without subroutines is not supported yet", table: "CFF ")
            }
        }
        if try charString(target) != bytes {
            if charStringOverrides.isEmpty { charStringOverrides = Array(repeating: nil, count: glyphCount) }
            charStringOverrides[target] = bytes
            isEdited = true
            outlinesEdited = true
            cachedBounds = nil
        }
    }

    /// True once a charstring changed (bounds must be recomputed), not for a rename alone.
    public private(set) var outlinesEdited = false

    /// Glyph bounds from interpreting the charstring; nil for an empty glyph.
    public func bounds(_ id: Int) throws -> GlyphBounds? {
        try located { try CharStringInterpreter.run(cff: self, glyph: id).bounds }
    }

    /// Bounds of every glyph, computed once per edit state (faces sharing the table share the
    /// work), on every core: saving an edited CFF font needs them all (head, hhea, OS/2), and
    /// interpreting every charstring was most of such a save.
    public func allBounds() throws -> [GlyphBounds?] {
        if let cachedBounds { return cachedBounds }
        let all = try ParallelWork.map(glyphCount, minimumPerChunk: 128) { range in try range.map { try bounds($0) } }
        cachedBounds = all
        return all
    }
    private var cachedBounds: [GlyphBounds?]?

    /// The glyph's outline as path commands.
    public func path(_ id: Int) throws -> [PathCommand] {
        try located { try CharStringInterpreter.run(cff: self, glyph: id, recordPath: true).path }
    }

    // MARK: writing

    public func encode() throws -> [UInt8] {
        var out: [UInt8] = []
        for chunk in try encodeChunks() { chunk.withBytes { out.append(contentsOf: $0) } }
        return out
    }

    /// The re-serialized table: the small structures rebuilt with fresh offsets, everything else
    /// (charstrings, subroutines, charset, FDSelect) borrowed from the file in large runs.
    public func encodeChunks() throws -> [ByteChunk] {
        func raw(_ range: Range<Int>) -> ByteChunk { .borrowed(UnsafeRawBufferPointer(rebasing: data.bytes[range])) }
        let nameItems = fontNames.map { Array($0.utf8) }
        // Strings are only ever added (`sid(for:)`): as many as the file had means the file's.
        let stringsUnchanged = (decodedStrings?.count ?? fileStrings.items.count) == fileStrings.items.count
        let stringItems = stringsUnchanged ? [] : strings.map { Array($0.utf8) }
        let stringsSize = stringsUnchanged ? fileStrings.range.count : CFFIndex.encodedSize(stringItems)
        let privateBytes: [[UInt8]] = privates.map { p in
            var dict = p.dict
            if p.localSubrs != nil { dict.set(Self.privateSubrs, [.int(0)]) }   // placeholder, fixed size
            let size = dict.encode().count
            if p.localSubrs != nil { dict.set(Self.privateSubrs, [.int(size)]) }
            return dict.encode()
        }
        let charStringsChunks = try encodeCharStrings()
        let charStringsSize = charStringsChunks.reduce(0) { $0 + $1.count }

        // Layout: DICT sizes do not depend on offset values (offsets are 5-byte integers).
        var top = topDict
        for op in [Self.topCharStrings, Self.topFDArray, Self.topFDSelect] where top.operands(op) != nil { top.set(op, [.int(0)]) }
        if charsetRange != nil { top.set(Self.topCharset, [.int(0)]) }
        if encodingRange != nil { top.set(Self.topEncoding, [.int(0)]) }
        if fontDicts.isEmpty, top.operands(Self.topPrivate) != nil { top.set(Self.topPrivate, [.int(privateBytes[0].count), .int(0)]) }
        let topSize = top.encode().count
        var position =
            headerSize + CFFIndex.encodedSize(nameItems) + CFFIndex.encodedSize([[UInt8](repeating: 0, count: topSize)])
            + stringsSize + globalSubrs.range.count
        let charsetAt = position; position += charsetRange?.count ?? 0
        let encodingAt = position; position += encodingRange?.count ?? 0
        let fdSelectAt = position; position += fdSelectRange?.count ?? 0
        let charStringsAt = position; position += charStringsSize
        let fdArrayAt = position
        func fontDictItems(_ privateAt: [Int]) -> [[UInt8]] {
            fontDicts.enumerated().map { i, d in
                var d = d
                if d.operands(Self.topPrivate) != nil {
                    d.set(Self.topPrivate, [.int(privateBytes[i].count), .int(privateAt.isEmpty ? 0 : privateAt[i])])
                }
                return d.encode()
            }
        }
        if !fontDicts.isEmpty { position += CFFIndex.encodedSize(fontDictItems([])) }
        var privateAt: [Int] = []
        for (i, p) in privates.enumerated() {
            privateAt.append(position)
            position += privateBytes[i].count + (p.localSubrs?.range.count ?? 0)
        }
        if charsetRange != nil { top.set(Self.topCharset, [.int(charsetAt)]) }
        if encodingRange != nil { top.set(Self.topEncoding, [.int(encodingAt)]) }
        top.set(Self.topCharStrings, [.int(charStringsAt)])
        if !fontDicts.isEmpty {
            top.set(Self.topFDArray, [.int(fdArrayAt)])
            top.set(Self.topFDSelect, [.int(fdSelectAt)])
        } else if top.operands(Self.topPrivate) != nil {
            top.set(Self.topPrivate, [.int(privateBytes[0].count), .int(privateAt[0])])
        }

        var front = BinaryWriter(capacity: 4096)
        front.append(UnsafeRawBufferPointer(rebasing: data.bytes[0..<headerSize]))
        try CFFIndex.encode(nameItems, into: &front)
        try CFFIndex.encode([top.encode()], into: &front)
        if !stringsUnchanged { try CFFIndex.encode(stringItems, into: &front) }
        var chunks: [ByteChunk] = [.owned(front.bytes)]
        if stringsUnchanged { chunks.append(raw(fileStrings.range)) }
        chunks.append(raw(globalSubrs.range))
        for r in [charsetRange, encodingRange, fdSelectRange].compactMap({ $0 }) { chunks.append(raw(r)) }
        chunks += charStringsChunks
        if !fontDicts.isEmpty {
            var w = BinaryWriter()
            try CFFIndex.encode(fontDictItems(privateAt), into: &w)
            chunks.append(.owned(w.bytes))
        }
        for (i, p) in privates.enumerated() {
            chunks.append(.owned(privateBytes[i]))
            if let s = p.localSubrs { chunks.append(raw(s.range)) }
        }
        let written = chunks.reduce(0) { $0 + $1.count }
        guard written == position else {
            throw FontError("CFF layout mismatch: planned \(position) bytes, built \(written)", table: "CFF ")
        }
        return chunks
    }

    /// The CharStrings INDEX: header and offsets rebuilt, unchanged charstrings borrowed in runs.
    private func encodeCharStrings() throws -> [ByteChunk] {
        let n = glyphCount
        var lengths = [Int](repeating: 0, count: n)
        var total = 0
        for i in 0..<n {
            lengths[i] = editedCharString(i)?.count ?? charStrings.items[i].count
            total += lengths[i]
        }
        let offSize = total + 1 <= 0xFF ? 1 : total + 1 <= 0xFFFF ? 2 : total + 1 <= 0xFF_FFFF ? 3 : 4
        var head = BinaryWriter(capacity: 3 + (n + 1) * offSize)
        try head.u16(n, "CFF glyph count")
        guard n > 0 else { return [.owned(head.bytes)] }
        head.u8(UInt8(offSize))
        var offset = 1
        head.offsetValue(offset, size: offSize)
        for length in lengths { offset += length; head.offsetValue(offset, size: offSize) }
        var chunks: [ByteChunk] = [.owned(head.bytes)]
        var runStart: Int?
        var runEnd = 0
        for i in 0..<n {
            if let o = editedCharString(i) {
                if let s = runStart { chunks.append(.borrowed(UnsafeRawBufferPointer(rebasing: data.bytes[s..<runEnd]))); runStart = nil }
                chunks.append(.owned(o))
            } else {
                let r = charStrings.items[i]
                if runStart == nil || r.lowerBound != runEnd {
                    if let s = runStart { chunks.append(.borrowed(UnsafeRawBufferPointer(rebasing: data.bytes[s..<runEnd]))) }
                    runStart = r.lowerBound
                }
                runEnd = r.upperBound
            }
        }
        if let s = runStart { chunks.append(.borrowed(UnsafeRawBufferPointer(rebasing: data.bytes[s..<runEnd]))) }
        return chunks
    }
}

extension CFFTable: GlyphDataTable {}
