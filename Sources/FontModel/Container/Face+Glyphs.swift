/// Glyphs by id, name and character, and the outline edits font scripts make.
extension Face {
    /// Glyph names as fontTools gives them, so XML and scripts interoperate: the CFF charset,
    /// else `post` (in both, duplicates become `name.1`, `name.2`), else synthesized from the Unicode cmaps
    /// (`.notdef`, the AGL name or `uniXXXX`/`uXXXXX` of the lowest code point, repeats
    /// `name.alt1`, unmapped glyphs `glyphNNNNN`).
    public func glyphNames() throws -> [String] {
        if let cachedGlyphNames { return cachedGlyphNames }
        let count = try glyphCount
        var names: [String]
        if let cff = try cff {
            // Repeated charset names are made unique as fontTools does (`name.1`).
            names = Face.uniquePostNames(try cff.glyphNames())
        } else if let fromPost = try post?.glyphNames(count: count), fromPost.count >= count {
            names = Face.uniquePostNames(Array(fromPost.prefix(count)))
        } else {
            names = synthesizedGlyphNames(count)
        }
        cachedGlyphNames = names
        return names
    }

    static func uniquePostNames(_ input: [String]) -> [String] {
        var names = input
        let existing = Set(input)
        var uses: [String: Int] = [:]
        for i in names.indices {
            var name = names[i].isEmpty ? "glyph" + zeroPadded5(i) : names[i]
            if let n = uses[name] {
                var k = n
                while existing.contains("\(name).\(k)") { k += 1 }
                uses[name] = k + 1
                name = "\(name).\(k)"
            }
            uses[name] = 1
            names[i] = name
        }
        return names
    }

    /// Names from the cmap subtables that can be read; a broken cmap (its error shows where the
    /// cmap is used) leaves `glyphNNNNN` names, so the names are still made once and cached,
    /// not attempted again on every lookup.
    private func synthesizedGlyphNames(_ count: Int) -> [String] {
        var names = (0..<count).map { "glyph" + zeroPadded5($0) }
        if count > 0 { names[0] = ".notdef" }
        var lowest: [Int: UInt32] = [:]
        let records = ((try? cmap) ?? nil)?.records ?? []
        for record in records where record.platformID == 0 || (record.platformID == 3 && [0, 1, 10].contains(record.encodingID)) {
            guard let mapping = try? record.subtable.mapping() else { continue }
            for (char, glyph) in mapping { lowest[glyph] = min(lowest[glyph] ?? char, char) }
        }
        var uses: [String: Int] = [:]
        for i in 1..<max(count, 1) {
            guard let char = lowest[i] else { continue }
            let hex = String(char, radix: 16, uppercase: true)
            var name = aglNames[char] ?? (char <= 0xFFFF ? "uni" + String(repeating: "0", count: 4 - hex.count) + hex : "u" + hex)
            let n = (uses[name] ?? 0) + 1
            uses[name] = n
            if n > 1 { name += ".alt\(n - 1)" }
            names[i] = name
        }
        return names
    }

    /// A glyph's contours as points: TrueType's as stored; CFF's with each cubic curve as two
    /// off-curve control points before its on-curve end point. A composite glyph has none of
    /// its own (its components are in `glyf`).
    public func outlinePoints(_ id: Int) throws -> [[GlyphPoint]] {
        if let glyf = try glyf { return try glyf.glyph(id).contours }
        if let cff = try cff { return Self.points(try cff.path(id)) }
        if let cff2 = try cff2 { return Self.points(try context("CFF2") { try cff2.outline(id).path }) }
        return []
    }

    /// A glyph's contours with their geometry (areas, crossings, extremes): cubic for CFF and
    /// CFF2 outlines, quadratic for glyf.
    public func outlineGeometry(_ id: Int) throws -> OutlineGeometry {
        let cubic = try glyf == nil && (try cff != nil || (try cff2) != nil)
        return OutlineGeometry(try outlinePoints(id), cubic: cubic)
    }

    /// Path commands as contours of points, each cubic curve as two off-curve control points
    /// before its on-curve end (coordinates rounded to units).
    static func points(_ path: [PathCommand]) -> [[GlyphPoint]] {
        func p(_ x: Double, _ y: Double, _ on: Bool) -> GlyphPoint { GlyphPoint(x: Int(x.rounded()), y: Int(y.rounded()), onCurve: on) }
        var contours: [[GlyphPoint]] = []
        for command in path {
            switch command {
            case .moveTo(let x, let y): contours.append([p(x, y, true)])
            case .lineTo(let x, let y) where !contours.isEmpty: contours[contours.count - 1].append(p(x, y, true))
            case .curveTo(let a, let b, let c, let d, let x, let y) where !contours.isEmpty:
                contours[contours.count - 1] += [p(a, b, false), p(c, d, false), p(x, y, true)]
            default: break
            }
        }
        return contours
    }

    public func glyphName(_ id: Int) throws -> String {
        let names = try glyphNames()
        guard names.indices.contains(id) else {
            throw FontError("glyph id \(id) out of range (0..<\(names.count))", path: path, face: faceLabel)
        }
        return names[id]
    }

    public func glyphID(named name: String) throws -> Int? {
        if cachedNameToID == nil {
            var map: [String: Int] = [:]
            for (i, n) in try glyphNames().enumerated() where map[n] == nil { map[n] = i }
            cachedNameToID = map
        }
        return cachedNameToID?[name]
    }

    /// The glyph the best Unicode cmap maps `char` to.
    public func glyphID(for char: Unicode.Scalar) throws -> Int? {
        try cmap?.glyph(for: char.value)
    }

    /// Whether glyphs have outlines (glyf, CFF or CFF2), not colour bitmaps alone.
    public var hasOutlines: Bool { has("glyf") || has("CFF ") || has("CFF2") }

    /// Glyph bounds from glyf or from the CFF charstring; nil for an empty glyph.
    public func glyphBounds(_ id: Int) throws -> GlyphBounds? {
        if let glyf = try glyf { return try context("glyf") { try glyf.bounds(id) } }
        if let cff = try cff { return try context("CFF ") { try cff.bounds(id) } }
        if let cff2 = try cff2 { return try context("CFF2") { try cff2.outline(id).bounds } }
        throw FontError("the face has neither glyf nor CFF outlines", path: path, face: faceLabel)
    }

    /// Gives glyph `target` the outline of glyph `source` (simple or composite, instructions
    /// included; CFF or CFF2 charstrings in CFF faces; gvar variation data in variable fonts) and,
    /// with `metrics`, its advance and side bearing (vertical ones too where vmtx exists), and
    /// how HVAR/VVAR vary them. In a collection the outline tables are shared, so every face
    /// using them sees the change.
    public func copyOutline(from source: Int, to target: Int, metrics: Bool = true) throws {
        if let glyf = try glyf {
            try context("glyf") {
                try glyf.checkID(source)
                try glyf.setGlyphData(target, try glyf.glyphData(source))
            }
            if let gvar = try gvar { try context("gvar") { try gvar.copyVariations(from: source, to: target) } }
        } else if let cff = try cff {
            try context("CFF ") { try cff.copyCharString(from: source, to: target) }
        } else if let cff2 = try cff2 {
            try context("CFF2") { try cff2.copyCharString(from: source, to: target) }
        } else {
            throw FontError("the face has neither glyf nor CFF outlines", path: path, face: faceLabel)
        }
        // Colour comes along: COLR layers, paint graph and clip box.
        if let colr = try table(ColrTable.self), let copied = try context("COLR", { try colr.copyingColor(from: source, to: target) }) {
            setRawTable("COLR", copied)
        }
        guard metrics else { return }
        let hmtx = try self.hmtx
        try context("hmtx") {
            try hmtx.setAdvance(target, try hmtx.advance(source))
            try hmtx.setSideBearing(target, try hmtx.sideBearing(source))
        }
        if let vmtx = try vmtx {
            try context("vmtx") {
                try vmtx.setAdvance(target, try vmtx.advance(source))
                try vmtx.setSideBearing(target, try vmtx.sideBearing(source))
            }
        }
        // The metrics' variations follow, or text would shape with the old glyph's advance
        // everywhere but at the default location.
        if let hvar = try table(HvarTable.self) { try context("HVAR") { try hvar.copyVariations(from: source, to: target) } }
        if let vvar = try table(VvarTable.self) { try context("VVAR") { try vvar.copyVariations(from: source, to: target) } }
    }
}

extension Face {
    /// Replaces TrueType glyph `id`'s outline with these contours (its instructions kept). In a
    /// variable font whose glyph then has other points, its gvar deltas cannot apply: the glyph
    /// stops varying (gvar, and HVAR/VVAR for its metrics). Returns whether it did.
    @discardableResult
    public func setContours(_ id: Int, _ contours: [[GlyphPoint]]) throws -> Bool {
        guard let glyf = try glyf else {
            throw FontError("setting contours needs TrueType outlines (glyf); this face has CFF", path: path, face: faceLabel)
        }
        let current = try context("glyf") { try glyf.glyph(id) }
        var glyph = current
        glyph.components = []
        glyph.contours = contours
        try context("glyf") { try glyf.setGlyph(id, glyph) }
        return glyph.hasSamePoints(as: current) ? false : try stopVarying(id)
    }

    /// Glyph `id` no longer varies: its gvar deltas and its HVAR/VVAR rows are dropped (its
    /// outline was replaced by one with other points, which the deltas do not fit). Returns
    /// whether it varied.
    @discardableResult
    public func stopVarying(_ id: Int) throws -> Bool {
        guard let gvar = try gvar, try !gvar.glyphData(id).isEmpty else { return false }
        try context("gvar") { try gvar.removeVariations(id) }
        if let hvar = try table(HvarTable.self) { try context("HVAR") { try hvar.removeVariations(id) } }
        if let vvar = try table(VvarTable.self) { try context("VVAR") { try vvar.removeVariations(id) } }
        return true
    }

    /// Glyph `target` takes glyph `source`'s layout behaviour in GDEF, GSUB and GPOS (and every
    /// other structured table) and the kern table: wherever `source` is covered, classed, kerned, substituted or
    /// anchored, so is `target`, and what `target` did before is dropped. Returns the tables
    /// changed. Tables that cannot be decoded are left as they are and named in the error.
    @discardableResult
    public func copyLayout(from source: Int, to target: Int) throws -> [Tag] {
        try copyLayout([(source, target)])
    }

    /// Several copies in one pass over each table (sources and targets must not overlap; a
    /// glyph that is both is copied pair by pair instead).
    @discardableResult
    public func copyLayout(_ copies: [(source: Int, target: Int)]) throws -> [Tag] {
        let sources = Set(copies.map(\.source)), targets = Set(copies.map(\.target))
        let batches = sources.isDisjoint(with: targets) && targets.count == copies.count ? [copies] : copies.map { [$0] }
        var changed: [Tag] = []
        for tag in TableRegistry.structuredTags where has(tag) {
            guard let table = try structuredTable(tag) else { continue }
            for batch in batches where try context(tag, { try table.copyGlyphBehaviour(batch) }) {
                if !changed.contains(tag) { changed.append(tag) }
            }
        }
        if let kern = try kern, try context("kern", { try kern.copyGlyphBehaviour(copies) }) { changed.append("kern") }
        return changed
    }

    /// The all-caps edit: each of a–z takes the outline, advance and side bearing of its capital
    /// (where the cmap maps both) and, with `layout`, its layout behaviour, so lowercase text
    /// shapes as uppercase (no lowercase ligatures, capital kerning). Returns how many letters
    /// were copied.
    @discardableResult
    public func copyCapitalsOntoLowercase(layout: Bool = true) throws -> Int {
        var copies: [(source: Int, target: Int)] = []
        for lower in UInt32(0x61)...0x7A {
            guard let target = try cmap?.glyph(for: lower), let source = try cmap?.glyph(for: lower - 0x20) else { continue }
            try copyOutline(from: source, to: target, metrics: true)
            copies.append((source, target))
        }
        if layout { try copyLayout(copies) }
        return copies.count
    }
}
