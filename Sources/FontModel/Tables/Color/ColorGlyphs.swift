/// Which colour data a glyph has, whichever table holds it: what `glyph.color` says in Lua and
/// what a renderer may draw instead of the outline.
extension Face {
    /// Glyph `id`'s colour forms, in the order FreeType prefers them: "COLR v1 paint" or
    /// "COLR v0, N layers", "CBDT bitmap", "sbix bitmap", "SVG"; empty for a plain glyph.
    public func colorForms(_ id: Int) throws -> [String] {
        var forms: [String] = []
        if let colr = try table(ColrTable.self), let kind = try context("COLR", { try colr.colorKind(id) }) { forms.append(kind) }
        if has("CBLC"), let cblc = try rawTable("CBLC"), try context("CBLC", { try Self.bitmapLocatorCovers(cblc, id) }) {
            forms.append("CBDT bitmap")
        }
        if let sbix = try table(SbixTable.self), sbix.hasImage(id) { forms.append("sbix bitmap") }
        if let svg = try table(SVGTable.self), svg.documents.contains(where: { Int($0.firstGlyph) <= id && id <= Int($0.lastGlyph) }) {
            forms.append("SVG")
        }
        return forms
    }

    /// Which glyphs FreeType draws in colour by itself (COLR version 0 layers, a CBDT or sbix
    /// bitmap), for asking about many glyphs: the tables are read once, not per glyph. A
    /// locator that does not read counts as no bitmap.
    public func colorDrawnByFreeType() throws -> (Int) -> Bool {
        let layered = try table(ColrTable.self).map { try $0.layeredGlyphs() } ?? []
        let cblc = has("CBLC") ? try rawTable("CBLC") : nil
        let sbix = try table(SbixTable.self)
        return { id in
            layered.contains(id) || cblc.map { (try? Self.bitmapLocatorCovers($0, id)) ?? false } == true || sbix?.hasImage(id) == true
        }
    }

    /// Whether a bitmap location table (CBLC, EBLC) has an index subtable whose glyph range holds
    /// `id`, in any strike: read from the locator alone, not the megabytes of images.
    static func bitmapLocatorCovers(_ bytes: [UInt8], _ id: Int) throws -> Bool {
        try bytes.withUnsafeBytes { raw in
            let r = BinaryReader(raw)
            let sizes = Int(try r.u32(at: 4))
            guard sizes <= (r.count - 8) / 48 else { throw r.error("\(sizes) bitmap sizes do not fit the table", at: 4) }
            for k in 0..<sizes {
                let record = 8 + 48 * k
                let arrayOffset = Int(try r.u32(at: record)), count = Int(try r.u32(at: record + 8))
                guard count <= (r.count - min(arrayOffset, r.count)) / 8 else {
                    throw r.error("strike \(k): \(count) index subtables do not fit", at: record + 8)
                }
                for i in 0..<count {
                    let first = Int(try r.u16(at: arrayOffset + 8 * i)), last = Int(try r.u16(at: arrayOffset + 8 * i + 2))
                    if first <= id && id <= last { return true }
                }
            }
            return false
        }
    }
}
