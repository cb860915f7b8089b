/// Makes glyph `target` behave in a structured table exactly as glyph `source` does, and drops
/// what `target` did before: wherever `source` is covered (with the items that belong to it:
/// its PairSet, its mark record …), classed, named in a rule or pair, or substituted, `target`
/// is too. Driven by the description; Coverages that index a list are kept in step with it
/// (`Member.parallel`), and stay in glyph order.
struct LayoutGlyphCopy {
    let source: Int
    let target: Int

    func apply(_ record: Record, _ fields: inout StructFields) {
        for member in record.valueMembers {
            guard let value = fields[member.name] else { continue }
            if member.parallel != nil { continue }   // after the lists it indexes, below
            fields[member.name] = member.count != nil ? list(value, member.shape) : self.value(value, member.shape)
        }
        for member in record.valueMembers {
            guard let path = member.parallel, case .glyphs(let glyphs)? = fields[member.name] else { continue }
            var covered = glyphs.glyphs
            var items = Self.get(path, fields)
            guard items.count == covered.count else { fields[member.name] = value(.glyphs(glyphs), .coverage); continue }
            if let old = covered.firstIndex(of: target) { covered.remove(at: old); items.remove(at: old) }
            if let from = covered.firstIndex(of: source) {
                let item = items[from]
                let at = covered.firstIndex { $0 > target } ?? covered.count
                covered.insert(target, at: at)
                items.insert(item, at: at)
            }
            fields[member.name] = .glyphs(GlyphRuns(covered))
            Self.set(path, items, &fields)
        }
    }

    func value(_ value: StructValue, _ shape: Shape) -> StructValue {
        switch (shape, value) {
        case (.offset(let target, _), _): return self.value(value, target)
        case (.record(let r), .record(var f)): apply(r, &f); return .record(f)
        case (.formats(_, let records), .formatted(let n, var f)):
            guard let r = records[n] else { return value }
            apply(r, &f)
            return .formatted(n, f)
        case (.switched(_, let cases), .switched(let k, let inner)):
            guard let c = cases[k] else { return value }
            return .switched(k, self.value(inner, c.shape))
        case (.coverage, .glyphs(let glyphs)):
            var covered = glyphs.glyphs.filter { $0 != target }
            if covered.contains(source) { covered.insert(target, at: covered.firstIndex { $0 > target } ?? covered.count) }
            return .glyphs(GlyphRuns(covered))
        case (.classDef, .classes(let runs)):
            let sourceClass = runs.first { $0.first <= source && source <= $0.last }?.glyphClass ?? 0
            var split: [ClassRun] = []
            for r in runs {
                if r.first <= target && target <= r.last {
                    if r.first < target { split.append(ClassRun(first: r.first, last: target - 1, glyphClass: r.glyphClass)) }
                    if target < r.last { split.append(ClassRun(first: target + 1, last: r.last, glyphClass: r.glyphClass)) }
                } else {
                    split.append(r)
                }
            }
            split.append(ClassRun(first: target, last: target, glyphClass: sourceClass))
            return .classes(ClassRun.normalized(split))
        case (.substitutions, .substitutions(let subs)):
            var out: [Substitution] = []
            for s in subs where !s.input.contains(target) {
                out.append(s)
                if s.input.contains(source) { out.append(Substitution(s.input.map { $0 == source ? target : $0 }, s.output)) }
            }
            return .substitutions(out)
        default:
            return value
        }
    }

    /// A repeated member: each item transformed; items that name glyphs (rules, pairs) are
    /// dropped when they name the target and copied, source → target, when they name the source.
    func list(_ value: StructValue, _ shape: Shape) -> StructValue {
        guard case .list(let items) = value else { return value }
        if case .glyph = shape {
            return .list(items)   // a glyph sequence of a rule: handled with its rule
        }
        var out: [StructValue] = []
        out.reserveCapacity(items.count)
        let glyphMembers = Self.record(of: shape)?.glyphMembers ?? []
        let sortBySecondGlyph = glyphMembers.contains { $0.name == "SecondGlyph" }
        for item in items {
            let transformed = self.value(item, shape)
            guard !glyphMembers.isEmpty, let fields = transformed.fields else { out.append(transformed); continue }
            let named = glyphMembers.flatMap { Self.glyphs(fields[$0.name]) }
            if named.contains(target) { continue }
            out.append(transformed)
            if named.contains(source) {
                var copy = fields
                for m in glyphMembers { copy[m.name] = Self.replace(fields[m.name], source, target) }
                out.append(Self.rewrap(transformed, copy))
            }
        }
        if sortBySecondGlyph {
            out.sort { (Self.glyphs($0.fields?["SecondGlyph"]).first ?? 0) < (Self.glyphs($1.fields?["SecondGlyph"]).first ?? 0) }
        }
        return .list(out)
    }

    static func record(of shape: Shape) -> Record? {
        switch shape.target {
        case .record(let r): r
        default: nil
        }
    }

    static func glyphs(_ v: StructValue?) -> [Int] {
        switch v {
        case .int(let g)?: [Int(g)]
        case .list(let items)?: items.compactMap { $0.int.map(Int.init) }
        default: []
        }
    }

    static func replace(_ v: StructValue?, _ from: Int, _ to: Int) -> StructValue? {
        switch v {
        case .int(let g)? where g == Int64(from): .int(Int64(to))
        case .list(let items)?: .list(items.map { $0.int == Int64(from) ? .int(Int64(to)) : $0 })
        default: v
        }
    }

    static func rewrap(_ original: StructValue, _ fields: StructFields) -> StructValue {
        switch original {
        case .formatted(let n, _): .formatted(n, fields)
        default: .record(fields)
        }
    }

    /// The list at `path` (member names through records), or [] when it is not there.
    static func get(_ path: [String], _ fields: StructFields) -> [StructValue] {
        guard let first = path.first, let v = fields[first] else { return [] }
        if path.count == 1 { if case .list(let items) = v { return items }; return [] }
        guard let inner = v.fields else { return [] }
        return get(Array(path.dropFirst()), inner)
    }

    static func set(_ path: [String], _ items: [StructValue], _ fields: inout StructFields) {
        guard let first = path.first, let v = fields[first] else { return }
        if path.count == 1 { fields[first] = .list(items); return }
        guard var inner = v.fields else { return }
        set(Array(path.dropFirst()), items, &inner)
        fields[first] = rewrap(v, inner)
    }
}

extension StructuredTable {
    /// Glyph `target` takes glyph `source`'s behaviour in this table (see `LayoutGlyphCopy`).
    /// Returns whether anything changed.
    @discardableResult
    public func copyGlyphBehaviour(from source: Int, to target: Int) -> Bool {
        guard source != target else { return false }
        var fields = root
        LayoutGlyphCopy(source: source, target: target).apply(record, &fields)
        return replaceRoot(fields)
    }
}
