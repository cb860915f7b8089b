/// `COLR`, colour glyphs. Version 0: base glyphs drawn as layers of other glyphs, each in a
/// palette colour (CPAL). Version 1 adds paint graphs: solid fills, linear, radial and sweep
/// gradients, transforms, composites and clip boxes, any value able to vary through the
/// variation store. Read-only here: typed in TTX both ways (version 0 in fontTools' own
/// `<ColorGlyph>` form, version 1 from this description, as fontTools' otData), Lua
/// (`face.COLR`) and diff; saved as read unless fused.
public final class ColrTable: DecodableTable {
    public static let tableTag: Tag = "COLR"
    public let version: Int
    public var isEdited: Bool { false }
    let bytes: [UInt8]

    init(_ reader: BinaryReader) throws {
        var r = reader
        version = Int(try r.u16())
        guard version <= 1 else { throw r.error("COLR version \(version) is not 0 or 1", at: 0) }
        bytes = Array(reader.bytes)
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> ColrTable { try ColrTable(reader) }
    public func encode() throws -> [UInt8] { bytes }

    /// The table with glyph `target` coloured as `source` is (or plain, when `source` has no
    /// colour); nil when nothing changes. Version 0 layers are copied; version 1 gives the
    /// target the source's layers record, its paint graph and its clip box, and is re-encoded
    /// through its description.
    public func copyingColor(from source: Int, to target: Int) throws -> [UInt8]? {
        guard version == 0 else { return try copyingPaint(from: source, to: target) }
        var glyphs = try bytes.withUnsafeBytes { try Self.layers(BinaryReader($0)) }
        let layers = glyphs.first { $0.glyph == source }?.layers
        let before = glyphs.count
        glyphs.removeAll { $0.glyph == target }
        if let layers { glyphs.append((target, layers)) } else if glyphs.count == before { return nil }
        return try Self.version0(glyphs)
    }

    /// Version 1: each of the glyph-keyed lists (version 0 base glyph records, the paint
    /// records, the clip list's groups) drops `target` and gives it what `source` has.
    func copyingPaint(from source: Int, to target: Int) throws -> [UInt8]? {
        let decoded = try bytes.withUnsafeBytes { try StructureCodec.decode(BinaryReader($0), Self.shape, name: "COLR") }
        guard case .record(var table) = decoded else { return nil }
        /// Records keyed by glyph member `key`, sorted by it: target's replaced by source's.
        func copied(_ list: StructValue?, key: String) -> StructValue? {
            guard case .list(let items)? = list else { return nil }
            func glyph(_ item: StructValue) -> Int64? { item.fields?[key]?.int }
            var out = items.filter { glyph($0) != Int64(target) }
            if let from = items.first(where: { glyph($0) == Int64(source) }), case .record(var fields) = from {
                fields[key] = .int(Int64(target))
                out.append(.record(fields))
            }
            out.sort { (glyph($0) ?? 0) < (glyph($1) ?? 0) }
            return .list(out)
        }
        func edit(_ member: String, _ list: String, key: String) {
            guard case .record(var holder)? = table[member], let new = copied(holder[list], key: key) else { return }
            holder[list] = new
            table[member] = .record(holder)
        }
        edit("BaseGlyphRecordArray", "BaseGlyphRecord", key: "BaseGlyph")
        edit("BaseGlyphList", "BaseGlyphPaintRecord", key: "BaseGlyph")
        if case .list(let groups)? = table["ClipList"] {
            // Groups of glyphs sharing a box: target leaves its group and joins source's.
            table["ClipList"] = .list(
                groups.compactMap { group -> StructValue? in
                    guard case .record(var fields) = group, case .list(let glyphs)? = fields["Glyph"] else { return group }
                    var kept = glyphs.filter { $0.int != Int64(target) }
                    if glyphs.contains(where: { $0.int == Int64(source) }) {
                        kept.append(.int(Int64(target))); kept.sort { ($0.int ?? 0) < ($1.int ?? 0) }
                    }
                    guard !kept.isEmpty else { return nil }
                    fields["Glyph"] = .list(kept)
                    return .record(fields)
                })
        }
        let encoded = try StructureCodec.encode(.record(table), Self.shape, name: "COLR")
        return encoded == bytes ? nil : encoded
    }

    /// How glyph `glyph` is coloured here: "COLR v1 paint" (a BaseGlyphList record), "COLR v0,
    /// N layers", or nil. Both lists are sorted by glyph id: found by binary search.
    public func colorKind(_ glyph: Int) throws -> String? {
        try bytes.withUnsafeBytes { raw in
            let r = BinaryReader(raw)
            func find(count: Int, at offset: Int, size: Int) throws -> Int? {
                var low = 0, high = count - 1
                while low <= high {
                    let mid = (low + high) / 2, g = Int(try r.u16(at: offset + mid * size))
                    if g == glyph { return offset + mid * size }
                    if g < glyph { low = mid + 1 } else { high = mid - 1 }
                }
                return nil
            }
            if version >= 1, r.count >= 34 {
                let listOffset = Int(try r.u32(at: 14))
                if listOffset > 0, try find(count: Int(try r.u32(at: listOffset)), at: listOffset + 4, size: 6) != nil {
                    return "COLR v1 paint"
                }
            }
            let baseCount = Int(try r.u16(at: 2)), baseOffset = Int(try r.u32(at: 4))
            guard baseCount > 0, let at = try find(count: baseCount, at: baseOffset, size: 6) else { return nil }
            return "COLR v0, \(try r.u16(at: at + 4)) layers"
        }
    }

    /// The glyphs coloured by a version 1 paint graph alone (no version 0 layers to fall back
    /// on), ascending: what a renderer without a paint-graph walker draws as plain outlines.
    public func paintOnlyGlyphs() throws -> [Int] {
        guard version >= 1 else { return [] }
        return try bytes.withUnsafeBytes { raw in
            let r = BinaryReader(raw)
            guard r.count >= 34 else { return [] }
            let listOffset = Int(try r.u32(at: 14))
            guard listOffset > 0 else { return [] }
            let count = Int(try r.u32(at: listOffset))
            guard count <= (r.count - listOffset - 4) / 6 else {
                throw r.error("\(count) BaseGlyphPaintRecords do not fit the table", at: listOffset)
            }
            let painted = try (0..<count).map { Int(try r.u16(at: listOffset + 4 + 6 * $0)) }
            let layered = try layeredGlyphs()
            return painted.filter { !layered.contains($0) }
        }
    }

    /// The base glyphs of version 0's layer records (FreeType draws these in colour).
    public func layeredGlyphs() throws -> Set<Int> {
        try bytes.withUnsafeBytes { raw in
            let r = BinaryReader(raw)
            let baseCount = Int(try r.u16(at: 2)), baseOffset = Int(try r.u32(at: 4))
            guard baseCount <= (r.count - min(baseOffset, r.count)) / 6 else {
                throw r.error("\(baseCount) BaseGlyphRecords do not fit the table", at: 2)
            }
            return Set(try (0..<baseCount).map { Int(try r.u16(at: baseOffset + 6 * $0)) })
        }
    }

    /// Version 0's colour glyphs: each base glyph's layers (glyph, palette index), in base
    /// glyph order, as the two record arrays give them.
    public static func layers(_ reader: BinaryReader) throws -> [(glyph: Int, layers: [(glyph: Int, palette: Int)])] {
        var r = reader
        _ = try r.u16()
        let baseCount = Int(try r.u16()), baseOffset = Int(try r.u32()), layerOffset = Int(try r.u32()), layerCount = Int(try r.u16())
        guard baseOffset + 6 * baseCount <= reader.count, layerOffset + 4 * layerCount <= reader.count else {
            throw reader.error(
                "COLR's \(baseCount) base glyph and \(layerCount) layer records do not fit the table (\(reader.count) bytes)", at: 2)
        }
        var layerRecords: [(Int, Int)] = []
        layerRecords.reserveCapacity(layerCount)
        for k in 0..<layerCount {
            layerRecords.append((Int(try reader.u16(at: layerOffset + 4 * k)), Int(try reader.u16(at: layerOffset + 4 * k + 2))))
        }
        return try (0..<baseCount).map { k in
            let at = baseOffset + 6 * k
            let glyph = Int(try reader.u16(at: at)), first = Int(try reader.u16(at: at + 2)), count = Int(try reader.u16(at: at + 4))
            guard first + count <= layerCount else {
                throw reader.error("COLR base glyph record \(k) names layers \(first)..<\(first + count) of \(layerCount)", at: at + 2)
            }
            return (glyph, layerRecords[first..<first + count].map { (glyph: $0.0, palette: $0.1) })
        }
    }

    /// Version 0 from its colour glyphs: base glyph records sorted by glyph id, layers in order.
    public static func version0(_ glyphs: [(glyph: Int, layers: [(glyph: Int, palette: Int)])]) throws -> [UInt8] {
        let sorted = glyphs.sorted { $0.glyph < $1.glyph }
        let layerCount = sorted.reduce(0) { $0 + $1.layers.count }
        var w = BinaryWriter()
        w.u16(0)
        try w.u16(sorted.count, "COLR base glyph count")
        w.u32(sorted.isEmpty ? 0 : 14)
        try w.u32(layerCount == 0 ? 0 : 14 + 6 * sorted.count, "COLR layer records offset")
        try w.u16(layerCount, "COLR layer count")
        var first = 0
        for g in sorted {
            try w.u16(g.glyph, "COLR base glyph"); try w.u16(first, "COLR first layer index"); try w.u16(g.layers.count, "COLR layer count")
            first += g.layers.count
        }
        for g in sorted { for l in g.layers { try w.u16(l.glyph, "COLR layer glyph"); try w.u16(l.palette, "COLR palette index") } }
        return w.bytes
    }
}

/// Both versions follow the description (Lua and diff read them so); in TTX version 0 has
/// fontTools' own `<ColorGlyph>` form instead (FontXML's `COLR+TTX.swift`).
extension ColrTable: ShapeDescribed {
    public static let shape: Shape = .record(COLRShapes.table)
}

/// COLR as fontTools' otData describes it (names are its names, so TTX matches ttx's).
public enum COLRShapes {
    static let varIndexBase = Member("VarIndexBase", .scalar(.uint32), ttx: .varIndex)

    static func fixedRecord(_ name: String, _ members: [Member], varying: Bool) -> Record {
        Record(name, members + (varying ? [varIndexBase] : []))
    }

    // swift-format-ignore
    static let table = Record("COLR", [
        Member("Version", .scalar(.uint16)),
        Member("BaseGlyphRecordCount", .scalar(.uint16)),
        Member("BaseGlyphRecordArray", .offset32(.record(Record("BaseGlyphRecordArray", [
            Member("BaseGlyphRecord", .record(Record("BaseGlyphRecord", [
                Member("BaseGlyph", .glyph), Member("FirstLayerIndex", .scalar(.uint16)), Member("NumLayers", .scalar(.uint16)),
            ])), count: "BaseGlyphRecordCount"),
        ])))),
        Member("LayerRecordArray", .offset32(.record(Record("LayerRecordArray", [
            Member("LayerRecord", .record(Record("LayerRecord", [Member("LayerGlyph", .glyph), Member("PaletteIndex", .scalar(.uint16))])),
                   count: "LayerRecordCount"),
        ]))), deferred: true),
        Member("LayerRecordCount", .scalar(.uint16)),
        Member("BaseGlyphList", .offset32(.record(Record("BaseGlyphList", [
            Member("BaseGlyphCount", .scalar(.uint32)),
            Member("BaseGlyphPaintRecord", .record(Record("BaseGlyphPaintRecord", [Member("BaseGlyph", .glyph), Member("Paint", .offset32(paint))])),
                   count: "BaseGlyphCount"),
        ]))), since: 1),
        Member("LayerList", .offset32(.record(Record("LayerList", [
            Member("LayerCount", .scalar(.uint32)),
            Member("Paint", .offset32(paint), count: "LayerCount"),
        ]))), since: 1),
        Member("ClipList", .offset32(.clipList), since: 1),
        Member("VarIndexMap", .offset32(.indexMap), since: 1),
        Member("VarStore", .offset32(.record(GDEFTable.variationStore)), since: 1),
    ])

    // swift-format-ignore
    static func box(_ varying: Bool) -> Record {
        fixedRecord("ClipBoxFormat\(varying ? 2 : 1)", ["xMin", "yMin", "xMax", "yMax"].map { Member($0, .scalar(.int16)) }, varying: varying)
    }
    public static let clipBox: Shape = .formats8(name: "ClipBox", [1: box(false), 2: box(true)])

    // swift-format-ignore
    static func colorLine(_ varying: Bool) -> Shape {
        let stop = fixedRecord(varying ? "VarColorStop" : "ColorStop", [
            Member("StopOffset", .scalar(.f2dot14)), Member("PaletteIndex", .scalar(.uint16)), Member("Alpha", .scalar(.f2dot14)),
        ], varying: varying)
        return .offset24(.record(Record(varying ? "VarColorLine" : "ColorLine", [
            Member("Extend", .scalar(.uint8), ttx: .names(["pad", "repeat", "reflect"])),
            Member("StopCount", .scalar(.uint16)),
            Member("ColorStop", .record(stop), count: "StopCount"),
        ])))
    }

    // swift-format-ignore
    static func affine(_ varying: Bool) -> Shape {
        .offset24(.record(fixedRecord(varying ? "VarAffine2x3" : "Affine2x3", ["xx", "yx", "xy", "yy", "dx", "dy"].map { Member($0, .scalar(.fixed)) }, varying: varying)))
    }

    static let compositeModes = [
        "clear", "src", "dest", "src_over", "dest_over", "src_in", "dest_in", "src_out", "dest_out", "src_atop",
        "dest_atop", "xor", "plus", "screen", "overlay", "darken", "lighten", "color_dodge", "color_burn",
        "hard_light", "soft_light", "difference", "exclusion", "multiply", "hsl_hue", "hsl_saturation",
        "hsl_color", "hsl_luminosity",
    ]

    /// A Paint: a recursive shape (its formats point at other Paints), made on first use.
    static let paint: Shape = .recursive(name: "Paint") { paintFormats }

    // swift-format-ignore
    static let paintFormats: Shape = {
        let child = Member("Paint", .offset24(paint))
        func int16(_ names: String...) -> [Member] { names.map { Member($0, .scalar(.int16)) } }
        func f2dot14(_ names: String...) -> [Member] { names.map { Member($0, .scalar(.f2dot14)) } }
        func angles(_ names: String..., biased: Bool = false) -> [Member] { names.map { Member($0, .scalar(.f2dot14), ttx: biased ? .biasedAngle : .angle) } }
        // Each transform comes plain and varying (the next format, with VarIndexBase).
        var formats: [Int: Record] = [
            1: Record("PaintColrLayers", [Member("NumLayers", .scalar(.uint8)), Member("FirstLayerIndex", .scalar(.uint32))]),
            10: Record("PaintGlyph", [child, Member("Glyph", .glyph)]),
            11: Record("PaintColrGlyph", [Member("Glyph", .glyph)]),
            32: Record("PaintComposite", [Member("SourcePaint", .offset24(paint)), Member("CompositeMode", .scalar(.uint8), ttx: .names(compositeModes)),
                                          Member("BackdropPaint", .offset24(paint))]),
        ]
        let pairs: [(Int, String, [Member])] = [
            (2, "Solid", [Member("PaletteIndex", .scalar(.uint16))] + f2dot14("Alpha")),
            (4, "LinearGradient", int16("x0", "y0", "x1", "y1", "x2", "y2")),
            (6, "RadialGradient", [Member("x0", .scalar(.int16)), Member("y0", .scalar(.int16)), Member("r0", .scalar(.uint16)),
                                   Member("x1", .scalar(.int16)), Member("y1", .scalar(.int16)), Member("r1", .scalar(.uint16))]),
            (8, "SweepGradient", int16("centerX", "centerY") + angles("startAngle", "endAngle", biased: true)),
            (14, "Translate", [child] + int16("dx", "dy")),
            (16, "Scale", [child] + f2dot14("scaleX", "scaleY")),
            (18, "ScaleAroundCenter", [child] + f2dot14("scaleX", "scaleY") + int16("centerX", "centerY")),
            (20, "ScaleUniform", [child] + f2dot14("scale")),
            (22, "ScaleUniformAroundCenter", [child] + f2dot14("scale") + int16("centerX", "centerY")),
            (24, "Rotate", [child] + angles("angle")),
            (26, "RotateAroundCenter", [child] + angles("angle") + int16("centerX", "centerY")),
            (28, "Skew", [child] + angles("xSkewAngle", "ySkewAngle")),
            (30, "SkewAroundCenter", [child] + angles("xSkewAngle", "ySkewAngle") + int16("centerX", "centerY")),
        ]
        for (format, name, members) in pairs {
            let gradient = (4...9).contains(format)
            formats[format] = Record("Paint\(name)", (gradient ? [Member("ColorLine", colorLine(false))] : []) + members)
            formats[format + 1] = Record("PaintVar\(name)", (gradient ? [Member("ColorLine", colorLine(true))] : []) + members + [varIndexBase])
        }
        formats[12] = Record("PaintTransform", [child, Member("Transform", affine(false))])
        formats[13] = Record("PaintVarTransform", [child, Member("Transform", affine(true))])
        return .formats8(name: "Paint", formats)
    }()
}
