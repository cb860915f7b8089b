/// The DeltaSetIndexMap (fontTools' VarIdxMap) as two custom leaves of the description language
/// (`Shape.indexMap`, `Shape.glyphIndexMap`) over one binary form: a format byte, an entry-format
/// byte (entry size, inner-index bits), a count (16 bits in format 0, 32 in format 1) and packed
/// entries. The value is a list of outer << 16 | inner. They differ in TTX: `IndexMapLeaf` is
/// COLR's and avar 2's map by index, `GlyphIndexMapLeaf` HVAR/VVAR's map by glyph. (The model's
/// fast path for HVAR rows, `DeltaSetIndexMap`, is in ItemVariationStore.swift.)
public enum IndexMapLeaf: CustomLeaf {
    public static func decode(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue {
        let start = reader.offset
        let format = try reader.u8(), entryFormat = try reader.u8()
        guard format <= 1 else { throw reader.error("unknown DeltaSetIndexMap format \(format)", at: start) }
        guard entryFormat & 0xC0 == 0 else {
            throw reader.error("DeltaSetIndexMap entry format 0x\(String(entryFormat, radix: 16)) sets reserved bits", at: start + 1)
        }
        let count = format == 0 ? Int(try reader.u16()) : Int(try reader.u32())
        let size = Int(entryFormat >> 4 & 3) + 1, innerBits = Int(entryFormat & 0xF) + 1
        try context.spend(count, reader)
        guard count <= reader.remaining / size else {
            throw reader.error("DeltaSetIndexMap claims \(count) entries, more than the table holds", at: start + 2)
        }
        var items: [StructValue] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            var v: Int64 = 0
            for _ in 0..<size { v = v << 8 | Int64(try reader.u8()) }
            items.append(.int((v >> innerBits) << 16 | (v & ((1 << innerBits) - 1))))
        }
        return .list(items)
    }

    public static func encode(_ value: StructValue, into w: inout BinaryWriter, _ context: LeafContext) throws {
        guard case .list(let items) = value else { throw FontError("a DeltaSetIndexMap must be a list of outer << 16 | inner") }
        let values = try items.map { item -> Int64 in
            guard case .int(let v) = item, (0...0xFFFF_FFFF).contains(v) else {
                throw FontError("a DeltaSetIndexMap entry must be outer << 16 | inner (0…0xFFFFFFFF)")
            }
            return v
        }
        // fontTools' choice: as few inner bits as the inner indices need, then the narrowest
        // entry that holds outer and inner together.
        let ored = values.reduce(0, |)
        var innerBits = 1
        while innerBits < 16 && (ored & 0xFFFF) >> innerBits != 0 { innerBits += 1 }
        let packedOred = (ored >> (16 - innerBits)) | (ored & ((1 << innerBits) - 1))
        let size = packedOred <= 0xFF ? 1 : packedOred <= 0xFFFF ? 2 : packedOred <= 0xFF_FFFF ? 3 : 4
        let wide = values.count > 0xFFFF
        w.u8(wide ? 1 : 0)
        w.u8(UInt8((size - 1) << 4 | (innerBits - 1)))
        if wide { try w.u32(values.count, "DeltaSetIndexMap count") } else { w.u16(UInt16(values.count)) }
        for v in values {
            let packed = (v >> 16) << innerBits | (v & 0xFFFF)
            for k in (0..<size).reversed() { w.u8(UInt8(truncatingIfNeeded: packed >> (8 * k))) }
        }
    }

    /// As fontTools writes a DeltaSetIndexMap: an entry per index, none as a bare `<Map>`.
    public static func ttx(_ value: StructValue, _ context: LeafContext) -> LeafXML {
        let items = value.listItems.compactMap(\.int)
        return LeafXML(
            "", [("Format", items.count > 0xFFFF ? "1" : "0")],
            children: items.enumerated().map { k, v in
                v == 0xFFFF_FFFF
                    ? LeafXML("Map", [("index", "\(k)")])
                    : LeafXML("Map", [("index", "\(k)"), ("outer", "\(v >> 16)"), ("inner", "\(v & 0xFFFF)")])
            })
    }

    public static func value(fromTTX e: LeafXML, _ context: LeafContext) throws -> StructValue {
        var entries: [Int: Int64] = [:]
        for m in e.children {
            guard m.name == "Map" else { throw m.problem("<\(m.name)> in <\(e.name)>: expected <Map index= outer= inner=/>") }
            let k = Int(try m.integer("index", 0...0xFFFF_FFFF))
            guard entries[k] == nil else { throw m.problem("a second <Map index=\"\(k)\">") }
            if m.value("outer") == nil && m.value("inner") == nil { entries[k] = 0xFFFF_FFFF; continue }
            entries[k] = try outerInner(m)
        }
        guard entries.keys.sorted() == Array(0..<entries.count) else {
            throw e.problem("the maps' indices must run 0, 1, 2 … without gaps")
        }
        return .list((0..<entries.count).map { .int(entries[$0] ?? 0xFFFF_FFFF) })
    }

    static func outerInner(_ m: LeafXML) throws -> Int64 {
        guard let outer = m.value("outer").flatMap({ Int64($0) }), (0...0xFFFF).contains(outer),
            let inner = m.value("inner").flatMap({ Int64($0) }), (0...0xFFFF).contains(inner)
        else { throw m.problem("outer and inner must be 0…65535") }
        return outer << 16 | inner
    }
}

/// HVAR/VVAR's map from glyph to delta-set index: a DeltaSetIndexMap with one entry per glyph
/// from the first, the last repeating for the glyphs after it. In TTX, as fontTools writes it,
/// a `<Map glyph= outer= inner=/>` for every glyph, sorted by glyph name.
public enum GlyphIndexMapLeaf: CustomLeaf {
    public static func decode(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue {
        try IndexMapLeaf.decode(&reader, &context)
    }

    public static func encode(_ value: StructValue, into w: inout BinaryWriter, _ context: LeafContext) throws {
        try IndexMapLeaf.encode(value, into: &w, context)
    }

    public static func ttx(_ value: StructValue, _ context: LeafContext) -> LeafXML {
        let values = value.listItems.compactMap(\.int)
        guard let last = values.last, let count = context.glyphCount else { return LeafXML("") }
        let names = (0..<count).map(context.glyphName)
        let order = names.indices.sorted { names[$0].unicodeScalars.lexicographicallyPrecedes(names[$1].unicodeScalars) }
        return LeafXML(
            "", [],
            children: order.map { g in
                let v = g < values.count ? values[g] : last
                return LeafXML("Map", [("glyph", names[g]), ("outer", "\(v >> 16)"), ("inner", "\(v & 0xFFFF)")])
            })
    }

    public static func value(fromTTX e: LeafXML, _ context: LeafContext) throws -> StructValue {
        let count = context.glyphCount ?? 0
        var values = [Int64?](repeating: nil, count: count)
        for m in e.children {
            guard m.name == "Map" else { throw m.problem("<\(m.name)> in <\(e.name)>: expected <Map glyph=… outer=… inner=…/>") }
            let g: Int
            if m.value("glyph") != nil {
                g = try context.glyph(m, "glyph")
            } else {
                guard let k = m.value("index").flatMap({ Int($0) }), (0..<count).contains(k) else {
                    throw m.problem("<Map> needs glyph= or an index below \(count)")
                }
                g = k
            }
            guard g < count else { throw m.problem("glyph \(g) is past the font's \(count) glyphs") }
            values[g] = try IndexMapLeaf.outerInner(m)
        }
        if let missing = values.firstIndex(where: { $0 == nil }), !e.children.isEmpty {
            throw e.problem("<\(e.name)> has no <Map> for glyph \(missing); every glyph needs one")
        }
        // As fontTools, the entries that repeat the last one at the end are left out.
        var list = values.compactMap { $0 }
        while list.count > 1 && list[list.count - 2] == list[list.count - 1] { list.removeLast() }
        return .list(list.map { .int($0) })
    }
}
