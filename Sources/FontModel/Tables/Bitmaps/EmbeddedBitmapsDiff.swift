/// What changed in a face's bitmap strikes: strikes added or removed (by ppem), their sizes and
/// line metrics, and per glyph (by name) bitmaps added, removed or changed. Reported under the
/// data table's tag, once for the pair.
enum EmbeddedBitmapsDiff {
    static func compare(_ a: Face, _ b: Face, _ kind: EmbeddedBitmaps.Kind) throws -> [Difference] {
        let table = kind.dataTag.description
        guard let x = try? EmbeddedBitmaps.read(from: a, kind), let y = try? EmbeddedBitmaps.read(from: b, kind) else {
            // One side does not decode: say so by size, as for any table we cannot read.
            let sizes = { (f: Face) in
                "\((try? f.rawTable(kind.locatorTag))??.count ?? 0) + \((try? f.rawTable(kind.dataTag))??.count ?? 0) bytes"
            }
            return [Difference(kind: .changed, table: table, item: "", old: sizes(a), new: sizes(b))]
        }
        let namesA = try a.glyphNames(), namesB = try b.glyphNames()
        func label(_ s: EmbeddedBitmaps.Strike) -> String {
            s.ppemX == s.ppemY ? "strike \(s.ppemX) ppem" : "strike \(s.ppemX)×\(s.ppemY) ppem"
        }
        func name(_ id: UInt16, _ names: [String]) -> String { Int(id) < names.count ? names[Int(id)] : "glyph\(id)" }
        // Strikes are matched by their sizes (and bit depth), in order.
        var out: [Difference] = []
        var unmatched = y.strikes
        for s in x.strikes {
            guard let k = unmatched.firstIndex(where: { ($0.ppemX, $0.ppemY, $0.bitDepth) == (s.ppemX, s.ppemY, s.bitDepth) }) else {
                out.append(Difference(kind: .removed, table: table, item: label(s), old: "\(s.glyphs.count) bitmaps", new: nil))
                continue
            }
            let t = unmatched.remove(at: k)
            for (what, old, new) in [("hori", s.hori, t.hori), ("vert", s.vert, t.vert)] where old != new {
                out.append(
                    Difference(
                        kind: .changed, table: table, item: "\(label(s)) \(what) line metrics", old: "\(old.values)", new: "\(new.values)"))
            }
            if s.flags != t.flags {
                out.append(Difference(kind: .changed, table: table, item: "\(label(s)) flags", old: "\(s.flags)", new: "\(t.flags)"))
            }
            let glyphsA = Dictionary(s.glyphs.map { (name($0.key, namesA), $0.value) }, uniquingKeysWith: { p, _ in p })
            let glyphsB = Dictionary(t.glyphs.map { (name($0.key, namesB), $0.value) }, uniquingKeysWith: { p, _ in p })
            for glyph in Set(glyphsA.keys).union(glyphsB.keys).sorted() {
                let p = glyphsA[glyph], q = glyphsB[glyph]
                guard p != q else { continue }
                let item = "\(label(s)) glyph \(glyph)"
                switch (p, q) {
                case let (p?, q?): out.append(Difference(kind: .changed, table: table, item: item, old: summary(p), new: summary(q)))
                case let (p?, nil): out.append(Difference(kind: .removed, table: table, item: item, old: summary(p), new: nil))
                case let (nil, q?): out.append(Difference(kind: .added, table: table, item: item, old: nil, new: summary(q)))
                default: break
                }
            }
        }
        for t in unmatched {
            out.append(Difference(kind: .added, table: table, item: label(t), old: nil, new: "\(t.glyphs.count) bitmaps"))
        }
        if out.isEmpty {
            // Same strikes and bitmaps: only the layout differs (subtable formats, order, padding).
            out.append(Difference(kind: .changed, table: table, item: "layout", old: "same bitmaps", new: "laid out differently"))
        }
        return out
    }

    /// "format 17, 136×128, 4,021 bytes" (composites: their component count).
    static func summary(_ g: EmbeddedBitmaps.BitmapGlyph) -> String {
        var parts = ["format \(g.imageFormat)"]
        if let m = g.metrics { parts.append("\(m.values[1])×\(m.values[0])") }
        parts.append(g.components.isEmpty ? "\(g.imageData.count) bytes" : "\(g.components.count) components")
        return parts.joined(separator: ", ")
    }
}
