/// What changed between two versions of a structured table, member by member, down to
/// scalars, list items, glyphs added to or removed from a Coverage and glyphs whose class
/// changed. Glyphs are compared by name, so faces with different glyph orders compare fairly.
public struct StructureDiff {
    let namesA: [String], namesB: [String]
    let table: String
    var out: [Difference] = []

    public static func compare(_ a: StructuredTable, _ b: StructuredTable, namesA: [String], namesB: [String]) throws -> [Difference] {
        var diff = StructureDiff(namesA: namesA, namesB: namesB, table: a.tag.trimmed)
        diff.record(a.record, try a.rootKeepingDamage, try b.rootKeepingDamage, path: "")   // damaged parts compare as their bytes
        return diff.out
    }

    /// Two values of one record (a table with parts masked out, as `LayoutDiff` does).
    static func compare(record: Record, _ a: StructFields, _ b: StructFields, table: String, namesA: [String], namesB: [String])
        -> [Difference]
    {
        var diff = StructureDiff(namesA: namesA, namesB: namesB, table: table)
        diff.record(record, a, b, path: "")
        return diff.out
    }

    static func name(_ id: Int, _ names: [String]) -> String { glyphName(id, in: names) }

    /// The shape of the items of the list a member path names ("BaseArray", "BaseRecord").
    static func shape(along path: [String], in record: Record) -> Shape? {
        guard let first = path.first, let member = record.valueMembers.first(where: { $0.name == first }) else { return nil }
        if path.count == 1 { return member.count != nil ? member.shape : nil }
        guard case .record(let inner) = member.shape.target else { return nil }
        return shape(along: Array(path.dropFirst()), in: inner)
    }

    mutating func note(_ kind: Difference.Kind, _ path: String, _ old: String?, _ new: String?) {
        out.append(Difference(kind: kind, table: table, item: path, old: old, new: new))
    }

    mutating func record(_ record: Record, _ a: StructFields, _ b: StructFields, path: String) {
        // Lists that belong to a Coverage's glyphs (PairSets, mark and base records) are compared
        // glyph by glyph, so a glyph added to the coverage is not a shift of every item after it.
        var byGlyph = Set<String>()
        for member in record.valueMembers {
            guard let parallel = member.parallel, case .glyphs(let ca)? = a[member.name], case .glyphs(let cb)? = b[member.name],
                let itemShape = Self.shape(along: parallel, in: record)
            else { continue }
            let ia = LayoutGlyphCopy.get(parallel, a), ib = LayoutGlyphCopy.get(parallel, b)
            guard ia.count == ca.count, ib.count == cb.count else { continue }
            byGlyph.insert(parallel[0])
            var itemsB: [String: StructValue] = [:]
            for (g, item) in zip(cb.glyphs, ib) { itemsB[Self.name(g, namesB)] = item }
            let listPath = (path.isEmpty ? "" : path + ".") + parallel.joined(separator: ".")
            for (g, item) in zip(ca.glyphs, ia) {
                let glyph = Self.name(g, namesA)
                guard let other = itemsB.removeValue(forKey: glyph) else {
                    note(.removed, "\(listPath)[\(glyph)]", summary(item), nil); continue
                }
                value(item, other, itemShape, path: "\(listPath)[\(glyph)]")
            }
            for (glyph, item) in itemsB.sorted(by: { $0.key < $1.key }) { note(.added, "\(listPath)[\(glyph)]", nil, summary(item)) }
        }
        for member in record.valueMembers where !byGlyph.contains(member.name) {
            let here = path.isEmpty ? member.name : path + "." + member.name
            switch (a[member.name], b[member.name]) {
            case (nil, nil): continue
            case (let x?, nil): note(.removed, here, summary(x), nil)
            case (nil, let y?): note(.added, here, nil, summary(y))
            case (let x?, let y?):
                if member.count != nil, case .list(let xs) = x, case .list(let ys) = y {
                    for k in 0..<max(xs.count, ys.count) {
                        let item = "\(here)[\(k)]"
                        if k >= ys.count {
                            note(.removed, item, summary(xs[k]), nil)
                        } else if k >= xs.count {
                            note(.added, item, nil, summary(ys[k]))
                        } else {
                            value(xs[k], ys[k], member.shape, path: item)
                        }
                    }
                } else if case .scalar(let kind) = member.shape, case .int(let vx) = x, case .int(let vy) = y {
                    if vx != vy {
                        note(.changed, here, Self.scalarText(vx, kind, member.ttxFormat), Self.scalarText(vy, kind, member.ttxFormat))
                    }
                } else {
                    value(x, y, member.shape, path: here)
                }
            }
        }
    }

    mutating func value(_ a: StructValue, _ b: StructValue, _ shape: Shape, path: String) {
        switch (shape, a, b) {
        case (.offset(let target, _), _, _):
            if case .none = a, case .none = b { return }
            if case .none = a { note(.added, path, nil, summary(b)); return }
            if case .none = b { note(.removed, path, summary(a), nil); return }
            value(a, b, target, path: path)
        case (.record(let r), .record(let x), .record(let y)):
            record(r, x, y, path: path)
        case (.recursive(_, let make), _, _):
            value(a, b, make(), path: path)
        case (.formats(_, let records), .formatted(let fx, let x), .formatted(let fy, let y)),
            (.formats8(_, let records), .formatted(let fx, let x), .formatted(let fy, let y)):
            if fx == fy, let r = records[fx] {
                record(r, x, y, path: path)
            } else if fx != fy {
                note(.changed, path, "format \(fx)", "format \(fy)")
            }
        case (.coverage, .glyphs(let x), .glyphs(let y)):
            let gx = x.glyphs.map { Self.name($0, namesA) }, gy = y.glyphs.map { Self.name($0, namesB) }
            guard gx != gy else { return }
            let sx = Set(gx), sy = Set(gy)
            let added = gy.filter { !sx.contains($0) }, removed = gx.filter { !sy.contains($0) }
            if added.isEmpty && removed.isEmpty { note(.changed, path, "glyph order", "glyph order"); return }
            if !removed.isEmpty { note(.removed, path, Self.list(removed), nil) }
            if !added.isEmpty { note(.added, path, nil, Self.list(added)) }
        case (.switched(_, let cases), .switched(let kx, let x), .switched(let ky, let y)):
            if kx == ky, let c = cases[kx] {
                value(x, y, c.shape, path: path)
            } else {
                note(.changed, path, cases[kx]?.name ?? "type \(kx)", cases[ky]?.name ?? "type \(ky)")
            }
        case (.valueRecord, .record(let x), .record(let y)):
            for name in StructureCodec.valueRecordFields where x[name] != y[name] {
                note(
                    x[name] == nil ? .added : y[name] == nil ? .removed : .changed, "\(path).\(name)", x[name].map(summary),
                    y[name].map(summary))
            }
        case (.deltaRow, .list(let x), .list(let y)):
            if x != y { note(.changed, path, "[\(x.map(summary).joined(separator: ", "))]", "[\(y.map(summary).joined(separator: ", "))]") }
        case (.glyph, .int(let x), .int(let y)):
            let nx = Self.name(Int(x), namesA), ny = Self.name(Int(y), namesB)
            if nx != ny { note(.changed, path, nx, ny) }
        case (.substitutions, .substitutions(let x), .substitutions(let y)):
            func text(_ s: Substitution, _ names: [String]) -> (String, String) {
                (s.input.map { Self.name($0, names) }.joined(separator: " "), s.output.map { Self.name($0, names) }.joined(separator: " "))
            }
            var before: [String: String] = [:], after: [String: String] = [:]
            for s in x { let t = text(s, namesA); before[t.0] = t.1 }
            for s in y { let t = text(s, namesB); after[t.0] = t.1 }
            for input in Set(before.keys).union(after.keys).sorted() where before[input] != after[input] {
                note(
                    before[input] == nil ? .added : after[input] == nil ? .removed : .changed, "\(path)[\(input)]", before[input],
                    after[input])
            }
        case (.aatLookup(let valueShape), .list(let x), .list(let y)), (.aatLookupWithData(let valueShape), .list(let x), .list(let y)):
            // Glyph by glyph, by name: a value (or the record it points at) added, removed or changed.
            func byName(_ items: [StructValue], _ names: [String]) -> [String: StructValue] {
                var out: [String: StructValue] = [:]
                for item in items {
                    if case .record(let f) = item, let g = f["Glyph"]?.int, let v = f["Value"] { out[Self.name(Int(g), names)] = v }
                }
                return out
            }
            let vx = byName(x, namesA), vy = byName(y, namesB)
            for glyph in Set(vx.keys).union(vy.keys).sorted() where vx[glyph] != vy[glyph] {
                switch (vx[glyph], vy[glyph]) {
                case let (old?, new?): value(old, new, valueShape.target, path: "\(path)[\(glyph)]")
                case let (nil, new?): note(.added, "\(path)[\(glyph)]", nil, summary(new))
                case let (old?, nil): note(.removed, "\(path)[\(glyph)]", summary(old), nil)
                default: break
                }
            }
        case (.classDef, .classes(let x), .classes(let y)):
            var cx: [String: Int] = [:], cy: [String: Int] = [:]
            for r in x { for g in r.first...r.last { cx[Self.name(g, namesA)] = r.glyphClass } }
            for r in y { for g in r.first...r.last { cy[Self.name(g, namesB)] = r.glyphClass } }
            for glyph in Set(cx.keys).union(cy.keys).sorted() where cx[glyph] != cy[glyph] {
                note(.changed, "\(path)[\(glyph)]", "class \(cx[glyph] ?? 0)", "class \(cy[glyph] ?? 0)")
            }
        default:
            if a != b { note(.changed, path, summary(a), summary(b)) }
        }
    }

    /// A scalar as a person reads it, a structured member's or a field table's: fixed-point as
    /// its shortest decimal, angles in degrees, enumerations by name, hex formats in hex
    /// (integers as they are).
    static func scalarText(_ v: Int64, _ kind: FieldKind, _ format: TTXFormat) -> String {
        switch (format, kind) {
        case (.angle, _): "\(Double(v) / F2Dot14.scale * 180)°"
        case (.biasedAngle, _): "\((Double(v) / F2Dot14.scale + 1) * 180)°"
        case (.names(let names), _) where v >= 0 && v < names.count: names[Int(v)]
        case (_, .f2dot14): "\(shortestDecimal(v, scale: F2Dot14.scale))"
        case (.hex, _), (.hex8, _): "0x" + String(UInt32(truncatingIfNeeded: v), radix: 16)
        case (_, .fixed), (_, .version32): "\(shortestDecimal(v, scale: Fixed.scale))"
        case (_, .tag): "'\(Tag(UInt32(truncatingIfNeeded: v)).description)'"
        default: String(v)
        }
    }

    static func list(_ glyphs: [String]) -> String {
        glyphs.count <= 8 ? glyphs.joined(separator: " ") : glyphs.prefix(8).joined(separator: " ") + " … (\(glyphs.count) glyphs)"
    }

    func summary(_ v: StructValue) -> String {
        switch v {
        case .int(let i): String(i)
        case .record(let f): "{\(f.names.joined(separator: ", "))}"
        case .formatted(let n, _): "format \(n)"
        case .list(let items): "\(items.count) items"
        case .none: "none"
        case .glyphs(let g): "\(g.count) glyphs"
        case .classes(let c): "\(c.reduce(0) { $0 + $1.last - $1.first + 1 }) classed glyphs"
        case .device(let d): "device \(d.startSize)…\(d.endSize) format \(d.deltaFormat)"
        case .switched(_, let inner): summary(inner)
        case .substitutions(let subs): "\(subs.count) substitutions"
        case .lazy: "a subtable"
        case .opaque(let o): "\(o.bytes.count) bytes not decoded"
        }
    }
}
