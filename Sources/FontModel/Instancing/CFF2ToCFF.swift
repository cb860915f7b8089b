/// A static CFF2 table (an instance: no blends, no vsindex, no subroutines) written as CFF
/// version 1, for software that reads only CFF (`--downgrade-cff2`, as fontTools names it).
///
/// - Charstrings: the same operators, with `endchar` appended and the glyph's advance as the
///   first operand when it differs from the Private DICT's defaultWidthX (stored relative to
///   nominalWidthX). CFF allows 48 operands where CFF2 allows 513: a charstring that needs
///   more is refused rather than written wrong.
/// - One Font DICT gives a name-keyed font (glyph names in the charset, post format 3, as
///   fontTools converts it); several give a CID-keyed one (ROS Adobe-Identity-0, CID = glyph
///   id, FDSelect format 3, glyphs named cid00001…, again as fontTools does).
/// - defaultWidthX is the most common advance; nominalWidthX the value that stores the others
///   in the fewest bytes (fontTools searches both jointly, so its pair can differ; the advances
///   the charstrings give are the same).
/// - The Name INDEX holds the instance's PostScript name (fontTools writes "CFF2Font") and the
///   Top DICT a FontBBox from the outlines (fontTools leaves 0 0 0 0).
extension CFF2Table {
    static let charStringEndChar: UInt8 = 14
    static let topCharset = 15, topFontBBox = 5, topFontMatrix = 1207, topCIDCount = 1234
    static let privateDefaultWidthX = 20, privateNominalWidthX = 21
    static let cffOperandLimit = 48

    /// The CFF table. `advances` are hmtx's, one per glyph; `glyphNames` the font's glyph order;
    /// `fontBBox` the outlines' box (head's, which the instancer has just computed).
    func downgradedToCFF(fontName: String, glyphNames: [String], advances: [Int], fontBBox: [Int]) throws -> [UInt8] {
        guard store == nil, globalSubrs.items.isEmpty, privates.allSatisfy({ $0.localSubrs == nil }) else {
            throw FontError(
                "only a static CFF2 table (an instance, without variation data or subroutines) can be written as CFF", table: "CFF2")
        }
        let n = glyphCount
        guard n > 0, advances.count >= n, glyphNames.count >= n else {
            throw FontError("CFF2 has \(n) glyphs but hmtx or the glyph names have fewer", table: "CFF2")
        }
        // CFF counts glyphs, string ids and Font DICT indexes in 16 and 8 bits where CFF2 has more.
        guard n <= 0xFFFF, fontDicts.count <= 0xFF else {
            throw FontError("\(n) glyphs and \(fontDicts.count) Font DICTs do not fit CFF (65,535 and 255 at most)", table: "CFF2")
        }
        let cid = fontDicts.count > 1
        let fdOf = (0..<n).map { $0 < fdSelect.count ? Int(fdSelect[$0]) : 0 }

        // Widths per Font DICT: the most common is free, the others relative to the nominal.
        var widthPairs: [(defaultWidth: Int, nominalWidth: Int)] = []
        for fd in fontDicts.indices {
            widthPairs.append(Self.widthDefaults((0..<n).filter { fdOf[$0] == fd }.map { advances[$0] }))
        }

        var charStringItems: [[UInt8]] = []
        charStringItems.reserveCapacity(n)
        for id in 0..<n {
            let code = Array(data.bytes[charStrings.items[id]])
            let counts = try Self.operandCounts(code, glyph: id)
            let pair = widthPairs[fdOf[id]]
            var item = BinaryWriter(capacity: code.count + 4)
            if advances[id] != pair.defaultWidth {
                guard (counts.first ?? 0) < Self.cffOperandLimit else {
                    throw FontError(
                        "glyph \(id): its first operator already has \(Self.cffOperandLimit) operands, so the width does not fit (CFF allows \(Self.cffOperandLimit)); writing it as CFF is not done",
                        table: "CFF2")
                }
                let width = advances[id] - pair.nominalWidth
                guard (-32768...32767).contains(width) else {
                    throw FontError("glyph \(id): advance \(advances[id]) does not fit a charstring", table: "CFF2")
                }
                CFFDict.encodeInt(width, &item)
            }
            item.append(code)
            item.u8(Self.charStringEndChar)
            charStringItems.append(item.bytes)
        }

        // Strings: glyph names (name-keyed) or the ROS registry and ordering (CID-keyed).
        var strings: [String] = []
        func sid(_ s: String) -> Int { CFFTable.sid(for: s, strings: &strings) }
        var charset = BinaryWriter(capacity: 1 + 2 * n)
        charset.u8(0)
        for id in 1..<max(n, 1) {
            let value = cid ? id : sid(glyphNames[id])
            guard value <= 0xFFFF else { throw FontError("too many glyph names for CFF's 16-bit string ids", table: "CFF2") }
            charset.u16(UInt16(value))
        }
        var top = CFFDict(entries: [])
        if cid { top.set(CFFTable.topROS, [.int(sid("Adobe")), .int(sid("Identity")), .int(0)]) }
        if let matrix = topDict.operands(Self.topFontMatrix) { top.set(Self.topFontMatrix, matrix) }
        top.set(Self.topFontBBox, fontBBox.map { .int($0) })
        if cid { top.set(Self.topCIDCount, [.int(n)]) }

        let privateBytes: [[UInt8]] = privates.enumerated().map { fd, p in
            var dict = p.dict
            dict.entries.removeAll { $0.op == Self.privateDefaultWidthX || $0.op == Self.privateNominalWidthX }
            let pair = widthPairs[fd]
            if pair.defaultWidth != 0 { dict.entries.append((Self.privateDefaultWidthX, [.int(pair.defaultWidth)])) }
            if pair.nominalWidth != 0 { dict.entries.append((Self.privateNominalWidthX, [.int(pair.nominalWidth)])) }
            return dict.encode()
        }
        var fdSelectBytes: [UInt8] = []
        if cid {
            // Format 3: ranges of glyphs sharing a Font DICT, then a sentinel.
            var ranges: [(first: Int, fd: Int)] = []
            for id in 0..<n where ranges.last?.fd != fdOf[id] { ranges.append((id, fdOf[id])) }
            var w = BinaryWriter()
            w.u8(3); w.u16(UInt16(ranges.count))
            for r in ranges { w.u16(UInt16(r.first)); w.u8(UInt8(r.fd)) }
            w.u16(UInt16(n))
            fdSelectBytes = w.bytes
        }

        // Layout: header, Name, Top DICT, String and Global Subr INDEXes, charset, FDSelect,
        // CharStrings, FDArray, Private DICTs. Offsets in DICTs are 5-byte integers, so the
        // sizes are known before the offsets are.
        for op in [Self.topCharset, Self.topCharStrings] { top.set(op, [.int(0)]) }
        if cid {
            top.set(Self.topFDArray, [.int(0)]); top.set(Self.topFDSelect, [.int(0)])
        } else {
            top.set(CFFTable.topPrivate, [.int(privateBytes[0].count), .int(0)])
        }
        func fontDictItems(_ privateAt: [Int]) -> [[UInt8]] {
            fontDicts.enumerated().map { i, d in
                var d = d
                d.set(CFFTable.topPrivate, [.int(privateBytes[i].count), .int(privateAt.isEmpty ? 0 : privateAt[i])])
                return d.encode()
            }
        }
        let nameItems = [Array(fontName.utf8)]
        var position =
            4 + CFFIndex.encodedSize(nameItems) + CFFIndex.encodedSize([top.encode()])
            + CFFIndex.encodedSize(strings.map { Array($0.utf8) }) + CFFIndex.encodedSize([])
        let charsetAt = position; position += charset.bytes.count
        let fdSelectAt = position; position += fdSelectBytes.count
        let charStringsAt = position; position += CFFIndex.encodedSize(charStringItems)
        let fdArrayAt = position; if cid { position += CFFIndex.encodedSize(fontDictItems([])) }
        var privateAt: [Int] = []
        for p in privateBytes { privateAt.append(position); position += p.count }
        top.set(Self.topCharset, [.int(charsetAt)]); top.set(Self.topCharStrings, [.int(charStringsAt)])
        if cid {
            top.set(Self.topFDArray, [.int(fdArrayAt)]); top.set(Self.topFDSelect, [.int(fdSelectAt)])
        } else {
            top.set(CFFTable.topPrivate, [.int(privateBytes[0].count), .int(privateAt[0])])
        }

        var w = BinaryWriter(capacity: position)
        w.u8(1); w.u8(0); w.u8(4); w.u8(4)
        try CFFIndex.encode(nameItems, into: &w)
        try CFFIndex.encode([top.encode()], into: &w)
        try CFFIndex.encode(strings.map { Array($0.utf8) }, into: &w)
        try CFFIndex.encode([], into: &w)
        w.append(charset.bytes)
        w.append(fdSelectBytes)
        try CFFIndex.encode(charStringItems, into: &w)
        if cid { try CFFIndex.encode(fontDictItems(privateAt), into: &w) }
        for p in privateBytes { w.append(p) }
        guard w.bytes.count == position else {
            throw FontError("CFF layout mismatch: planned \(position) bytes, built \(w.bytes.count)", table: "CFF ")
        }
        return w.bytes
    }

    /// The operand count before each operator of a charstring without subroutine calls,
    /// refusing any over CFF's limit.
    static func operandCounts(_ code: [UInt8], glyph: Int) throws -> [Int] {
        var counts: [Int] = []
        var operands = 0, stems = 0, i = 0
        while i < code.count {
            let b = code[i]
            switch b {
            case 28: operands += 1; i += 3
            case 32...246: operands += 1; i += 1
            case 247...254: operands += 1; i += 2
            case 255: operands += 1; i += 5
            default:
                guard operands <= cffOperandLimit else {
                    throw FontError(
                        "glyph \(glyph): an operator with \(operands) operands (CFF allows \(cffOperandLimit)); writing it as CFF is not done",
                        table: "CFF2")
                }
                counts.append(operands)
                switch b {
                case 1, 3, 18, 23: stems += operands / 2   // hstem(hm), vstem(hm)
                case 19, 20: stems += operands / 2; i += (stems + 7) / 8   // hintmask, cntrmask: implicit vstems, then the mask
                default: break
                }
                i += b == 12 ? 2 : 1
                operands = 0
            }
        }
        return counts
    }

    /// defaultWidthX (the most common advance, the smallest on ties) and nominalWidthX (the
    /// value storing the other advances in the fewest bytes; the default itself on ties, else
    /// the smallest).
    static func widthDefaults(_ widths: [Int]) -> (defaultWidth: Int, nominalWidth: Int) {
        guard !widths.isEmpty else { return (0, 0) }
        var counts: [Int: Int] = [:]
        for w in widths { counts[w, default: 0] += 1 }
        let defaultWidth = counts.min { a, b in a.value != b.value ? a.value > b.value : a.key < b.key }!.key
        let others = widths.filter { $0 != defaultWidth }
        guard let lo = others.min(), let hi = others.max() else { return (defaultWidth, defaultWidth) }
        // Bytes of an operand v: 1 for |v| ≤ 107, 2 for ≤ 1131, 3 otherwise. With prefix sums
        // over the widths' histogram, each candidate's cost is O(1).
        var prefix = [Int](repeating: 0, count: hi - lo + 2)
        for w in others { prefix[w - lo + 1] += 1 }
        for k in 1..<prefix.count { prefix[k] += prefix[k - 1] }
        func within(_ center: Int, _ radius: Int) -> Int {
            let a = max(center - radius, lo), b = min(center + radius, hi)
            return a > b ? 0 : prefix[b - lo + 1] - prefix[a - lo]
        }
        func cost(_ nominal: Int) -> Int { 3 * others.count - within(nominal, 1131) - within(nominal, 107) }
        var best = (nominal: defaultWidth, cost: cost(defaultWidth))
        for nominal in (lo - 107)...(hi + 107) {
            let c = cost(nominal)
            if c < best.cost { best = (nominal, c) }
        }
        return (defaultWidth, best.nominal)
    }
}
