/// One difference between two faces.
public struct Difference: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case added, removed, changed }
    public let kind: Kind
    /// The table tag ("hhea"), or "glyph" for glyph changes.
    public let table: String
    /// What inside: a field name, "name 4 (3/1/0x409)", a glyph name with what changed; empty for whole tables.
    public let item: String
    public let old: String?
    public let new: String?

    public var description: String {
        let sign = kind == .added ? "+" : kind == .removed ? "-" : "~"
        let what = item.isEmpty ? table : (table == "glyph" ? "glyph \(item)" : "\(table).\(item)")
        switch (old, new) {
        case let (o?, n?): return "\(sign) \(what): \(o) → \(n)"
        case let (nil, n?): return "\(sign) \(what): \(n)"
        case let (o?, nil): return "\(sign) \(what): \(o)"
        default: return "\(sign) \(what)"
        }
    }
}

extension Difference {
    /// A short stand-in for bytes too long to show: their count and an FNV-1a checksum.
    public static func summary<C: Collection>(ofBytes bytes: C) -> String where C.Element == UInt8 {
        "\(bytes.count) bytes, checksum " + String(bytes.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }, radix: 16)
    }

    /// The differences between two tables flattened to (item, text) pairs: items whose text
    /// changed, then those only in `b` (added) or only in `a` (removed), in `a`'s order.
    public static func keyed(table: String, _ a: [(String, String)], _ b: [(String, String)]) -> [Difference] {
        let textsB = Dictionary(b, uniquingKeysWith: { first, _ in first })
        let keysA = Set(a.map(\.0))
        var out: [Difference] = []
        for (key, old) in a {
            if let new = textsB[key] {
                if new != old { out.append(Difference(kind: .changed, table: table, item: key, old: old, new: new)) }
            } else {
                out.append(Difference(kind: .removed, table: table, item: key, old: old, new: nil))
            }
        }
        for (key, new) in b where !keysA.contains(key) { out.append(Difference(kind: .added, table: table, item: key, old: nil, new: new)) }
        return out
    }
}

/// A hand-written table that says itself what changed (cvt, fpgm/prep, DSIG): FontDiff finds
/// it through the registry, with no case for its tag.
public protocol DiffableTable: FontTable {
    /// What changed from this table to `other`; nil when `other` is not the same kind of table.
    func differences(to other: FontTable) -> [Difference]?
    /// The same, for tables that name glyphs: each face's glyph names.
    func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]?
}

extension DiffableTable {
    public func differences(to other: FontTable, namesA: [String], namesB: [String]) -> [Difference]? { differences(to: other) }
}

/// What changed from one face to another: tables, typed fields, name records, glyph outlines
/// and metrics. Untouched tables (identical bytes) are skipped without decoding.
public enum FontDiff {
    public static func compare(_ a: Face, _ b: Face) throws -> [Difference] {
        var out: [Difference] = []
        let tagsA = Set(a.tags), tagsB = Set(b.tags)
        for tag in tagsA.subtracting(tagsB).sorted() { out.append(Difference(kind: .removed, table: tag.description, item: "", old: nil, new: nil)) }
        for tag in tagsB.subtracting(tagsA).sorted() { out.append(Difference(kind: .added, table: tag.description, item: "", old: nil, new: nil)) }
        var glyphDataChanged = false
        var bitmapsCompared: Set<Tag> = []
        for tag in tagsA.intersection(tagsB).sorted() {
            let bytesA = try a.rawTable(tag), bytesB = try b.rawTable(tag)
            guard bytesA != bytesB else { continue }
            let name = tag.description
            if let ta = try a.fieldTable(tag), let tb = try b.fieldTable(tag) {
                for field in Set(ta.fieldNames).union(tb.fieldNames).sorted(by: { (ta.fieldNames.firstIndex(of: $0) ?? 99) < (ta.fieldNames.firstIndex(of: $1) ?? 99) }) {
                    let va = ta.has(field) ? try ta.value(field).description : nil
                    let vb = tb.has(field) ? try tb.value(field).description : nil
                    if va != vb { out.append(Difference(kind: va == nil ? .added : vb == nil ? .removed : .changed, table: name, item: field, old: va, new: vb)) }
                }
                continue
            }
            if let ta = try? a.decodedTable(tag) as? DiffableTable, let tb = try? b.decodedTable(tag),
               let found = ta.differences(to: tb, namesA: try a.glyphNames(), namesB: try b.glyphNames()) {
                out += found
                continue
            }
            // Tables read through a description (HVAR, MVAR, COLR …), member by member.
            if TableRegistry.shapeDescribedTags.contains(tag), let (record, fa) = try? a.describedView(tag), let (_, fb) = try? b.describedView(tag) {
                out += StructureDiff.compare(record: record, fa, fb, table: tag.trimmed, namesA: try a.glyphNames(), namesB: try b.glyphNames())
                continue
            }
            if let sa = try? a.structuredTable(tag), let sb = try? b.structuredTable(tag) {
                if tag == "GSUB" || tag == "GPOS" { out += try LayoutDiff.compare(a, b, tag: tag); continue }
                out += try StructureDiff.compare(sa, sb, namesA: try a.glyphNames(), namesB: try b.glyphNames())
                continue
            }
            switch tag {
            case "name": out += try nameDifferences(a.name, b.name)
            case "cmap":
                if let ca = try? a.cmap, let cb = try? b.cmap {
                    out += try cmapDifferences(ca, cb, namesA: try a.glyphNames(), namesB: try b.glyphNames())
                } else {
                    out.append(Difference(kind: .changed, table: name, item: "", old: "\(bytesA?.count ?? 0) bytes", new: "\(bytesB?.count ?? 0) bytes"))
                }
            case "kern":
                if let ka = try? a.kern, let kb = try? b.kern {
                    out += kernDifferences(ka, kb, namesA: try a.glyphNames(), namesB: try b.glyphNames())
                } else {
                    out.append(Difference(kind: .changed, table: name, item: "", old: "\(bytesA?.count ?? 0) bytes", new: "\(bytesB?.count ?? 0) bytes"))
                }
            case "glyf", "loca", "hmtx", "vmtx", "CFF ", "CFF2", "gvar": glyphDataChanged = true
            case "EBLC", "EBDT", "CBLC", "CBDT":
                // The pair is compared once, under the data table's tag.
                let kind: EmbeddedBitmaps.Kind = tag == "EBLC" || tag == "EBDT" ? .monochrome : .color
                if bitmapsCompared.insert(kind.dataTag).inserted { out += try EmbeddedBitmapsDiff.compare(a, b, kind) }
            default: out.append(Difference(kind: .changed, table: name, item: "", old: "\(bytesA?.count ?? 0) bytes", new: "\(bytesB?.count ?? 0) bytes"))
            }
        }
        if glyphDataChanged { out += try glyphDifferences(a, b) }
        return out
    }

    static func nameDifferences(_ a: NameTable, _ b: NameTable) -> [Difference] {
        struct Key: Hashable, Comparable {
            let id: Int, platform: Int, encoding: Int, language: Int
            static func < (a: Key, b: Key) -> Bool { (a.id, a.platform, a.encoding, a.language) < (b.id, b.platform, b.encoding, b.language) }
            var label: String { "\(id) (\(platform)/\(encoding)/0x\(String(language, radix: 16)))" }
        }
        func key(_ r: NameRecord) -> Key { Key(id: r.nameID, platform: r.platformID, encoding: r.encodingID, language: r.languageID) }
        let ra = Dictionary(a.records.map { (key($0), $0) }, uniquingKeysWith: { x, _ in x })
        let rb = Dictionary(b.records.map { (key($0), $0) }, uniquingKeysWith: { x, _ in x })
        var out: [Difference] = []
        for k in Set(ra.keys).union(rb.keys).sorted() {
            let x = ra[k], y = rb[k]
            guard x != y else { continue }
            let text = { (r: NameRecord?) in r.map { $0.text ?? "\($0.bytes.count) bytes" } }
            out.append(Difference(kind: x == nil ? .added : y == nil ? .removed : .changed, table: "name", item: k.label, old: text(x), new: text(y)))
        }
        return out
    }

    /// Characters mapped, unmapped or mapped to another glyph (by name) in the best Unicode
    /// subtable; subtables added or removed (by platform and encoding).
    static func cmapDifferences(_ a: CmapTable, _ b: CmapTable, namesA: [String], namesB: [String]) throws -> [Difference] {
        var out: [Difference] = []
        let keysA = Set(a.records.map { "\($0.platformID)/\($0.encodingID) format \($0.subtable.format)" })
        let keysB = Set(b.records.map { "\($0.platformID)/\($0.encodingID) format \($0.subtable.format)" })
        for k in keysA.subtracting(keysB).sorted() { out.append(Difference(kind: .removed, table: "cmap", item: "subtable \(k)", old: nil, new: nil)) }
        for k in keysB.subtracting(keysA).sorted() { out.append(Difference(kind: .added, table: "cmap", item: "subtable \(k)", old: nil, new: nil)) }
        let ma = try a.bestUnicodeSubtable()?.mapping() ?? [:], mb = try b.bestUnicodeSubtable()?.mapping() ?? [:]
        for code in Set(ma.keys).union(mb.keys).sorted() {
            let x = ma[code].map { glyphName($0, in: namesA) }, y = mb[code].map { glyphName($0, in: namesB) }
            guard x != y else { continue }
            let hex = String(code, radix: 16, uppercase: true)
            out.append(Difference(kind: x == nil ? .added : y == nil ? .removed : .changed, table: "cmap",
                                  item: "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex, old: x, new: y))
        }
        return out
    }

    /// kern pairs added, removed or changed (by glyph names), per subtable; other changes to a
    /// subtable (format, coverage, kept bytes) as one line.
    static func kernDifferences(_ a: KernTable, _ b: KernTable, namesA: [String], namesB: [String]) -> [Difference] {
        var out: [Difference] = []
        let many = max(a.subtables.count, b.subtables.count) > 1
        for k in 0..<max(a.subtables.count, b.subtables.count) {
            let label = many ? "subtable \(k) " : ""
            guard k < a.subtables.count else { out.append(Difference(kind: .added, table: "kern", item: "subtable \(k)", old: nil, new: nil)); continue }
            guard k < b.subtables.count else { out.append(Difference(kind: .removed, table: "kern", item: "subtable \(k)", old: nil, new: nil)); continue }
            let sa = a.subtables[k], sb = b.subtables[k]
            if sa.format != sb.format || sa.coverage != sb.coverage || sa.body != sb.body {
                out.append(Difference(kind: .changed, table: "kern", item: "subtable \(k)", old: "format \(sa.format), coverage \(sa.coverage)", new: "format \(sb.format), coverage \(sb.coverage)"))
            }
            var pa: [String: Int] = [:], pb: [String: Int] = [:]
            for p in sa.pairs { pa[glyphName(p.left, in: namesA) + " " + glyphName(p.right, in: namesA)] = p.value }
            for p in sb.pairs { pb[glyphName(p.left, in: namesB) + " " + glyphName(p.right, in: namesB)] = p.value }
            for key in Set(pa.keys).union(pb.keys).sorted() where pa[key] != pb[key] {
                out.append(Difference(kind: pa[key] == nil ? .added : pb[key] == nil ? .removed : .changed, table: "kern",
                                      item: label + key, old: pa[key].map(String.init), new: pb[key].map(String.init)))
            }
        }
        return out
    }

    /// Glyphs (matched by name) whose outline or metrics differ, and glyphs only in one face.
    static func glyphDifferences(_ a: Face, _ b: Face) throws -> [Difference] {
        let namesA = try a.glyphNames(), namesB = try b.glyphNames()
        var idB: [String: Int] = [:]
        for (i, n) in namesB.enumerated() { idB[n] = i }
        let hA = try a.table(HmtxTable.self), hB = try b.table(HmtxTable.self)
        var out: [Difference] = []
        for (ia, name) in namesA.enumerated() {
            guard let ib = idB.removeValue(forKey: name) else { out.append(Difference(kind: .removed, table: "glyph", item: name, old: nil, new: nil)); continue }
            if try !sameOutline(a, ia, b, ib) { out.append(Difference(kind: .changed, table: "glyph", item: "\(name) outline", old: nil, new: nil)) }
            if let hA, let hB, ia < hA.glyphCount, ib < hB.glyphCount {
                if hA.advances[ia] != hB.advances[ib] { out.append(Difference(kind: .changed, table: "glyph", item: "\(name) advance", old: String(hA.advances[ia]), new: String(hB.advances[ib]))) }
                if hA.sideBearings[ia] != hB.sideBearings[ib] { out.append(Difference(kind: .changed, table: "glyph", item: "\(name) lsb", old: String(hA.sideBearings[ia]), new: String(hB.sideBearings[ib]))) }
            }
        }
        for name in idB.keys.sorted() { out.append(Difference(kind: .added, table: "glyph", item: name, old: nil, new: nil)) }
        return out
    }

    /// Same bytes, or (TrueType) the same decoded glyph: padding alone is not a change.
    static func sameOutline(_ a: Face, _ ia: Int, _ b: Face, _ ib: Int) throws -> Bool {
        if let ga = try a.glyf, let gb = try b.glyf {
            return try ga.glyphData(ia) == gb.glyphData(ib) || ga.glyph(ia) == gb.glyph(ib)
        }
        if let ca = try a.cff, let cb = try b.cff { return try ca.charString(ia) == cb.charString(ib) }
        // CFF2: the default outline drawn (charstrings blend, so their bytes say less).
        if let ca = try a.table(CFF2Table.self), let cb = try b.table(CFF2Table.self) { return try ca.outline(ia).path == cb.outline(ib).path }
        return true
    }
}
