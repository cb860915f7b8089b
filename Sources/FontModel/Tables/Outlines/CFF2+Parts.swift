/// The parts of a CFF2 table as TTX dumps write them (FontXML's `CFF2+TTX.swift`), and
/// `CFF2Builder`, which lays a table out from them (what fusing a `<CFF2>` element builds).
extension CFF2Table {
    /// The variation store's description (an ItemVariationStore, as GDEF's), for TTX.
    public static let storeShape: Shape = .record(GDEFTable.variationStore)
    public var majorVersion: Int { Int(data.bytes[data.bytes.startIndex]) }
    public var minorVersion: Int { Int(data.bytes[data.bytes.startIndex + 1]) }
    public var topDictEntries: [CFFDictEntry] { CFFTable.entries(topDict) }
    public var fontDictEntries: [[CFFDictEntry]] { fontDicts.map(CFFTable.entries) }
    /// One per font DICT, blends as written (a `blend` entry, op 23, before the key it feeds).
    public var privateDictEntries: [[CFFDictEntry]] { privates.map { CFFTable.entries($0.dict) } }
    public var localSubrBytes: [[[UInt8]]] { privates.map { p in p.localSubrs.map { $0.items.map { Array(data.bytes[$0]) } } ?? [] } }
    public var globalSubrBytes: [[UInt8]] { globalSubrs.items.map { Array(data.bytes[$0]) } }
    public func charString(_ id: Int) throws -> [UInt8] {
        guard id >= 0, id < glyphCount else { throw FontError("glyph id \(id) out of range (0..<\(glyphCount))", table: "CFF2") }
        return charStringOverrides[id] ?? Array(data.bytes[charStrings.items[id]])
    }
    public func fdIndex(_ id: Int) -> Int { id < fdSelect.count ? Int(fdSelect[id]) : 0 }
    /// Whether glyphs choose their font DICT (an FDSelect), and its format.
    public var fdSelectFormat: Int? { fdSelectRange.map { Int(data.bytes[$0.lowerBound]) } }
    /// Each font DICT's default vsindex (0 unless its Private DICT names one).
    public func defaultVSIndex(_ fd: Int) -> Int { fd < privates.count ? privates[fd].dict.int(Self.privateVSIndex) ?? 0 : 0 }
    /// The variation store's bytes (after its 16-bit length), for TTX.
    public var storeBytes: [UInt8]? {
        guard let offset = topDict.int(Self.topVStore), offset >= 0, offset + 2 <= data.count, let length = try? data.u16(at: offset),
            offset + 2 + Int(length) <= data.count
        else { return nil }
        return Array(data.bytes[(data.bytes.startIndex + offset + 2)..<(data.bytes.startIndex + offset + 2 + Int(length))])
    }
}

/// A CFF2 table written from its parts: the Top DICT's own keys (FontMatrix, maxstack), the
/// charstrings and subroutines, one Private DICT per font DICT (blends as op 23 entries), the
/// FDSelect, and the variation store's bytes. Laid out as fontTools does: header, Top DICT,
/// global subroutines, store, FDSelect, CharStrings, FDArray, Private DICTs each followed by
/// its subroutines.
public struct CFF2Builder {
    public var top: [CFFDictEntry] = []
    public var charStrings: [[UInt8]] = []
    public var globalSubrs: [[UInt8]] = []
    public var privates: [(dict: [CFFDictEntry], subrs: [[UInt8]])] = []
    /// Each glyph's font DICT, or nil for no FDSelect (one font DICT).
    public var fdSelect: [Int]?
    public var fdSelectFormat = 3
    public var store: [UInt8]?

    public init() {}

    public func build() throws -> [UInt8] {
        let n = charStrings.count
        guard n > 0 else { throw FontError("CFF2 needs at least one charstring", table: "CFF2") }
        guard !privates.isEmpty else { throw FontError("CFF2 needs a font DICT", table: "CFF2") }
        if let fdSelect {
            guard fdSelect.count == n, fdSelect.allSatisfy({ (0..<privates.count).contains($0) }), privates.count <= 256 else {
                throw FontError("CFF2 FDSelect must give each of the \(n) glyphs a font DICT below \(privates.count)", table: "CFF2")
            }
        } else if privates.count > 1 {
            throw FontError("CFF2 with \(privates.count) font DICTs needs an FDSelect", table: "CFF2")
        }
        if let store, store.count > 0xFFFF {
            throw FontError("CFF2 variation store of \(store.count) bytes does not fit its 16-bit length", table: "CFF2")
        }
        var fdSelectBytes = BinaryWriter()
        if let fdSelect {
            do { fdSelectBytes.append(try CFFBuilder.fdSelectBytes(fdSelect, format: fdSelectFormat)) } catch let e as FontError {
                throw FontError(e.message, table: "CFF2")
            }
        }
        // Private DICTs: their Subrs offset counts from the DICT's start (a 5-byte integer).
        let privateBytes: [[UInt8]] = try privates.map { p in
            var dict = CFFBuilder.dict(p.dict.filter { $0.op != CFFTable.privateSubrs })
            if !p.subrs.isEmpty {
                dict.entries.append((CFFTable.privateSubrs, [.int(0)]))
                dict.set(CFFTable.privateSubrs, [.int(dict.encode().count)])
            }
            var w = BinaryWriter()
            w.append(dict.encode())
            if !p.subrs.isEmpty { try CFFIndex.encode(p.subrs, into: &w, wideCount: true) }
            return w.bytes
        }
        let privateSizes: [Int] = privates.map { p in
            var dict = CFFBuilder.dict(p.dict.filter { $0.op != CFFTable.privateSubrs })
            if !p.subrs.isEmpty { dict.entries.append((CFFTable.privateSubrs, [.int(0)])) }
            return dict.encode().count
        }
        func fontDictItems(_ privateAt: [Int]) -> [[UInt8]] {
            privateSizes.indices.map {
                CFFDict(entries: [(CFFTable.topPrivate, [.int(privateSizes[$0]), .int(privateAt.isEmpty ? 0 : privateAt[$0])])]).encode()
            }
        }
        // The Top DICT's offsets are 5-byte integers (VarStore's too, written with op 29), so
        // its size is known before they are.
        let top = CFFBuilder.dict(
            top.filter { ![CFF2Table.topCharStrings, CFF2Table.topFDArray, CFF2Table.topFDSelect, CFF2Table.topVStore].contains($0.op) })
        func place(_ charStringsAt: Int, _ fdArrayAt: Int, _ fdSelectAt: Int, _ storeAt: Int) -> [UInt8] {
            var t = top
            t.set(CFF2Table.topCharStrings, [.int(charStringsAt)]); t.set(CFF2Table.topFDArray, [.int(fdArrayAt)])
            if fdSelect != nil { t.set(CFF2Table.topFDSelect, [.int(fdSelectAt)]) }
            var bytes = t.encode()
            if store != nil {
                // VarStore is not one of CFFDict's offset operators: its 5-byte form written here.
                bytes.append(29); bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: storeAt >> $0) };
                bytes.append(UInt8(CFF2Table.topVStore))
            }
            return bytes
        }
        let topSize = place(0, 0, 0, 0).count
        guard topSize <= 0xFFFF else { throw FontError("CFF2 Top DICT of \(topSize) bytes does not fit its 16-bit length", table: "CFF2") }
        var position = 5 + topSize + CFFIndex.encodedSize(globalSubrs, wideCount: true)
        let storeAt = position; position += store.map { 2 + $0.count } ?? 0
        let fdSelectAt = position; position += fdSelectBytes.bytes.count
        let charStringsAt = position; position += CFFIndex.encodedSize(charStrings, wideCount: true)
        let fdArrayAt = position; position += CFFIndex.encodedSize(fontDictItems([]), wideCount: true)
        var privateAt: [Int] = []
        for p in privateBytes { privateAt.append(position); position += p.count }

        var w = BinaryWriter(capacity: position)
        w.u8(2); w.u8(0); w.u8(5); w.u16(UInt16(topSize))
        w.append(place(charStringsAt, fdArrayAt, fdSelectAt, storeAt))
        try CFFIndex.encode(globalSubrs, into: &w, wideCount: true)
        if let store { w.u16(UInt16(store.count)); w.append(store) }
        w.append(fdSelectBytes.bytes)
        try CFFIndex.encode(charStrings, into: &w, wideCount: true)
        try CFFIndex.encode(fontDictItems(privateAt), into: &w, wideCount: true)
        for p in privateBytes { w.append(p) }
        guard w.bytes.count == position else {
            throw FontError("CFF2 layout mismatch: planned \(position) bytes, built \(w.bytes.count)", table: "CFF2")
        }
        return w.bytes
    }
}
