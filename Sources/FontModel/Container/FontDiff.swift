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
        // Two texts that would print alike (a trailing newline, a tab for spaces) are quoted
        // with their invisible characters escaped, so the change shows.
        if let o = old, let n = new, o != n, !(Self.printableWord(o) && Self.printableWord(n)),
            Self.visible(o) == Self.visible(n) || o.contains(where: Self.isInvisible) || n.contains(where: Self.isInvisible)
        {
            return "\(sign) \(what): \(Self.quoted(o)) → \(Self.quoted(n))"
        }
        switch (old, new) {
        case let (o?, n?): return "\(sign) \(what): \(o) → \(n)"
        case let (nil, n?): return "\(sign) \(what): \(n)"
        case let (o?, nil): return "\(sign) \(what): \(o)"
        default: return "\(sign) \(what)"
        }
    }
}

extension Difference {
    /// Printable ASCII without spaces (numbers, names: nearly every value) looks as it is; the
    /// check spares a CJK collection's 600,000 glyph values the Unicode property lookups.
    static func printableWord(_ s: String) -> Bool { s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }

    static func isInvisible(_ c: Character) -> Bool {
        c.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
            || (c.isWhitespace && c != " ")
    }

    /// The text as it looks: runs of whitespace as one space, none at the ends.
    static func visible(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace || isInvisible($0) }).joined(separator: " ")
    }

    /// The text in quotes, newlines, tabs and other invisible characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                let category = scalar.properties.generalCategory
                if category == .control || category == .format || (scalar.properties.isWhitespace && scalar != " ") {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

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

/// A table whose changes need both whole faces (GSUB/GPOS name lookups through the feature
/// list; a bitmap pair is read from both of its tables). Tables of one `diffGroup` are compared
/// once, however many of them changed.
public protocol FaceDiffableTable {
    static var diffGroup: Tag { get }
    static func differences(_ a: Face, _ b: Face) throws -> [Difference]
}

/// A table of glyph data (outlines, metrics, their variations): `diff` reports its changes glyph
/// by glyph, by name, whichever of these tables changed.
public protocol GlyphDataTable {}

/// What changed from one face to another: tables, typed fields, name records, glyph outlines
/// and metrics. Untouched tables (identical bytes) are skipped without decoding.
public enum FontDiff {
    public static func compare(_ a: Face, _ b: Face) throws -> [Difference] {
        var out: [Difference] = []
        let tagsA = Set(a.tags), tagsB = Set(b.tags)
        for tag in tagsA.subtracting(tagsB).sorted() {
            out.append(Difference(kind: .removed, table: tag.description, item: "", old: nil, new: nil))
        }
        for tag in tagsB.subtracting(tagsA).sorted() {
            out.append(Difference(kind: .added, table: tag.description, item: "", old: nil, new: nil))
        }
        var glyphDataChanged = false
        var groupsCompared: Set<Tag> = []
        for tag in tagsA.intersection(tagsB).sorted() {
            let bytesA = try a.rawTable(tag), bytesB = try b.rawTable(tag)
            guard bytesA != bytesB else { continue }
            let type = TableRegistry.type(for: tag)
            if type is GlyphDataTable.Type { glyphDataChanged = true; continue }
            if let faceLevel = type as? FaceDiffableTable.Type {
                guard groupsCompared.insert(faceLevel.diffGroup).inserted else { continue }
                do { out += try faceLevel.differences(a, b) } catch { out.append(sizeChange(tag, bytesA, bytesB)) }
                continue
            }
            if let ta = try a.fieldTable(tag), let tb = try b.fieldTable(tag) {
                for field in Set(ta.fieldNames).union(tb.fieldNames).sorted(by: {
                    (ta.fieldNames.firstIndex(of: $0) ?? 99) < (ta.fieldNames.firstIndex(of: $1) ?? 99)
                }) {
                    // Each field shown as any scalar member is (StructureDiff's leaf text).
                    func text(_ t: FieldTable) throws -> String? {
                        guard t.has(field) else { return nil }
                        let member = try t.field(field)
                        return StructureDiff.scalarText(try t.rawValue(field), member.kind, member.ttxFormat)
                    }
                    let va = try text(ta), vb = try text(tb)
                    if va != vb {
                        out.append(
                            Difference(
                                kind: va == nil ? .added : vb == nil ? .removed : .changed, table: tag.description, item: field, old: va,
                                new: vb))
                    }
                }
                continue
            }
            if let ta = try? a.decodedTable(tag) as? DiffableTable, let tb = try? b.decodedTable(tag),
                let found = ta.differences(to: tb, namesA: try a.glyphNames(), namesB: try b.glyphNames())
            {
                out += found
                continue
            }
            // Tables read through a description (HVAR, MVAR, COLR …), member by member.
            if TableRegistry.shapeDescribedTags.contains(tag), let (record, fa) = try? a.describedView(tag),
                let (_, fb) = try? b.describedView(tag)
            {
                out += StructureDiff.compare(
                    record: record, fa, fb, table: tag.trimmed, namesA: try a.glyphNames(), namesB: try b.glyphNames())
                continue
            }
            if let sa = try? a.structuredTable(tag), let sb = try? b.structuredTable(tag) {
                out += try StructureDiff.compare(sa, sb, namesA: try a.glyphNames(), namesB: try b.glyphNames())
                continue
            }
            out.append(sizeChange(tag, bytesA, bytesB))
        }
        if glyphDataChanged { out += try glyphDifferences(a, b) }
        return out
    }

    /// What is said of a table that is not registered, or that one side cannot decode: its size.
    static func sizeChange(_ tag: Tag, _ a: [UInt8]?, _ b: [UInt8]?) -> Difference {
        Difference(kind: .changed, table: tag.description, item: "", old: "\(a?.count ?? 0) bytes", new: "\(b?.count ?? 0) bytes")
    }

    /// Glyphs (matched by name) whose outline or metrics differ, and glyphs only in one face.
    static func glyphDifferences(_ a: Face, _ b: Face) throws -> [Difference] {
        let namesA = try a.glyphNames(), namesB = try b.glyphNames()
        var idB: [String: Int] = [:]
        for (i, n) in namesB.enumerated() { idB[n] = i }
        let hA = try a.table(HmtxTable.self), hB = try b.table(HmtxTable.self)
        var out: [Difference] = []
        for (ia, name) in namesA.enumerated() {
            guard let ib = idB.removeValue(forKey: name) else {
                out.append(Difference(kind: .removed, table: "glyph", item: name, old: nil, new: nil)); continue
            }
            if try !sameOutline(a, ia, b, ib) {
                out.append(Difference(kind: .changed, table: "glyph", item: "\(name) outline", old: nil, new: nil))
            }
            if let hA, let hB, ia < hA.glyphCount, ib < hB.glyphCount {
                if hA.advances[ia] != hB.advances[ib] {
                    out.append(
                        Difference(
                            kind: .changed, table: "glyph", item: "\(name) advance", old: String(hA.advances[ia]),
                            new: String(hB.advances[ib])))
                }
                if hA.sideBearings[ia] != hB.sideBearings[ib] {
                    out.append(
                        Difference(
                            kind: .changed, table: "glyph", item: "\(name) lsb", old: String(hA.sideBearings[ia]),
                            new: String(hB.sideBearings[ib])))
                }
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
        if let ca = try a.table(CFF2Table.self), let cb = try b.table(CFF2Table.self) {
            return try ca.outline(ia).path == cb.outline(ib).path
        }
        return true
    }
}
