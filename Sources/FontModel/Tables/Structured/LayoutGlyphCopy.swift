/// Makes each target glyph behave in a structured table exactly as its source glyph does, and
/// drops what the target did before: wherever a source is covered (with the items that belong to
/// it: its PairSet, its mark record …), classed, named in a rule or pair, or substituted, its
/// target is too. Driven by the description; Coverages that index a list are kept in step with
/// it (`Member.parallel`) and in glyph order. Several copies go in one pass over the table (the
/// caps edit's 26 letters); sources and targets must not overlap (else copy one pair at a time).
struct LayoutGlyphCopy {
    /// source → target
    let targetOf: [Int: Int]
    let targets: Set<Int>
    /// Sources and targets, ascending: a part of the table that names none of them is left as
    /// it is, not rebuilt (most of a CJK font's lookups).
    let involved: [Int]

    init(_ copies: [(source: Int, target: Int)]) {
        var map: [Int: Int] = [:]
        for c in copies where c.source != c.target { map[c.source] = c.target }
        targetOf = map
        targets = Set(map.values)
        involved = Array(Set(map.keys).union(map.values)).sorted()
    }

    /// Whether any involved glyph lies in `first...last`.
    func involves(_ first: Int, _ last: Int) -> Bool {
        var low = 0, high = involved.count
        while low < high {
            let mid = (low + high) / 2
            if involved[mid] < first { low = mid + 1 } else { high = mid }
        }
        return low < involved.count && involved[low] <= last
    }

    func involves(_ glyph: Int) -> Bool { involves(glyph, glyph) }

    /// Copies into the record's members; returns whether any changed.
    @discardableResult
    func apply(_ record: Record, _ fields: inout StructFields) -> Bool {
        var changed = false
        for member in record.valueMembers {
            guard let value = fields[member.name] else { continue }
            if member.parallel != nil { continue }   // after the lists it indexes, below
            if let new = member.count != nil ? list(value, member.shape) : self.value(value, member.shape) {
                fields[member.name] = new
                changed = true
            }
        }
        for member in record.valueMembers {
            guard let path = member.parallel, case .glyphs(let glyphs)? = fields[member.name],
                glyphs.runs.contains(where: { involves($0.lowerBound, $0.upperBound) })
            else { continue }
            let covered = glyphs.glyphs
            let items = Self.get(path, fields)
            guard items.count == covered.count else {
                if let new = value(.glyphs(glyphs), .coverage) { fields[member.name] = new; changed = true }
                continue
            }
            var entries = zip(covered, items).filter { !targets.contains($0.0) }
            entries += zip(covered, items).compactMap { glyph, item in targetOf[glyph].map { ($0, item) } }
            entries.sort { $0.0 < $1.0 }
            fields[member.name] = .glyphs(GlyphRuns(entries.map(\.0)))
            Self.set(path, entries.map(\.1), &fields)
            changed = true
        }
        return changed
    }

    /// The value with the copies made, or nil when they leave it as it is.
    func value(_ value: StructValue, _ shape: Shape) -> StructValue? {
        switch (shape, value) {
        case (.offset(let target, _), _): return self.value(value, target)
        case (.record(let r), .record(var f)): return apply(r, &f) ? .record(f) : nil
        case (.formats(_, let records), .formatted(let n, var f)):
            guard let r = records[n] else { return nil }
            return apply(r, &f) ? .formatted(n, f) : nil
        case (.switched(_, let cases), .switched(let k, let inner)):
            guard let c = cases[k], let new = self.value(inner, c.shape) else { return nil }
            return .switched(k, new)
        case (.coverage, .glyphs(let glyphs)):
            guard glyphs.runs.contains(where: { involves($0.lowerBound, $0.upperBound) }) else { return nil }
            let covered = glyphs.glyphs
            var out = covered.filter { !targets.contains($0) } + covered.compactMap { targetOf[$0] }
            if out.count != covered.count || out != covered { out.sort() }
            return .glyphs(GlyphRuns(out))
        case (.classDef, .classes(let runs)):
            guard runs.contains(where: { involves($0.first, $0.last) }) else { return nil }
            var classOf: [Int: Int] = [:]
            for r in runs where involves(r.first, r.last) {
                for (source, _) in targetOf where r.first <= source && source <= r.last { classOf[source] = r.glyphClass }
            }
            var split: [ClassRun] = []
            for r in runs {
                guard involves(r.first, r.last) else { split.append(r); continue }
                var first = r.first
                for t in targets.filter({ r.first <= $0 && $0 <= r.last }).sorted() {
                    if first < t { split.append(ClassRun(first: first, last: t - 1, glyphClass: r.glyphClass)) }
                    first = t + 1
                }
                if first <= r.last { split.append(ClassRun(first: first, last: r.last, glyphClass: r.glyphClass)) }
            }
            for (source, target) in targetOf { split.append(ClassRun(first: target, last: target, glyphClass: classOf[source] ?? 0)) }
            let out = ClassRun.normalized(split)
            return out == runs ? nil : .classes(out)
        case (.substitutions, .substitutions(let subs)):
            guard subs.contains(where: { $0.input.contains(where: involves) }) else { return nil }
            var out: [Substitution] = []
            for s in subs where !s.input.contains(where: targets.contains) {
                out.append(s)
                for variant in variants(s.input).dropFirst() { out.append(Substitution(variant, s.output)) }
            }
            return .substitutions(out)
        default:
            return nil
        }
    }

    /// A repeated member: each item transformed; items that name glyphs (rules, pairs) are
    /// dropped when they name a target and copied, sources → targets, when they name a source.
    /// Nil when nothing changed.
    func list(_ value: StructValue, _ shape: Shape) -> StructValue? {
        guard case .list(let items) = value else { return nil }
        if case .glyph = shape { return nil }   // a rule's glyph sequence: handled with its rule
        let glyphMembers = Self.record(of: shape)?.glyphMembers ?? []
        var out: [StructValue] = []
        var changed = false
        for (i, item) in items.enumerated() {
            let new = self.value(item, shape)
            let transformed = new ?? item
            var named: [[Int]] = []
            if !glyphMembers.isEmpty, let fields = transformed.fields {
                named = glyphMembers.map { Self.glyphs(fields[$0.name]) }
                if !named.contains(where: { $0.contains(where: involves) }) { named = [] }
            }
            if new == nil && named.isEmpty {
                if changed { out.append(item) }
                continue
            }
            if !changed {
                changed = true
                out.reserveCapacity(items.count)
                out += items[..<i]
            }
            guard !named.isEmpty, let fields = transformed.fields else { out.append(transformed); continue }
            if named.joined().contains(where: targets.contains) { continue }
            out.append(transformed)
            let lengths = named.map(\.count)
            for variant in variants(Array(named.joined())).dropFirst() {
                var copy = fields
                var start = 0
                for (m, length) in zip(glyphMembers, lengths) {
                    let part = variant[start..<start + length]
                    copy[m.name] = Self.isList(fields[m.name]) ? .list(part.map { .int(Int64($0)) }) : .int(Int64(part.first ?? 0))
                    start += length
                }
                out.append(Self.rewrap(transformed, copy))
            }
        }
        guard changed else { return nil }
        if glyphMembers.contains(where: { $0.name == "SecondGlyph" }) {
            out.sort { (Self.glyphs($0.fields?["SecondGlyph"]).first ?? 0) < (Self.glyphs($1.fields?["SecondGlyph"]).first ?? 0) }
        }
        return .list(out)
    }

    /// The sequence itself first, then every way of replacing some of its sources by their
    /// targets (what copying one pair after another gives), at most 256.
    func variants(_ glyphs: [Int]) -> [[Int]] {
        let positions = glyphs.indices.filter { targetOf[glyphs[$0]] != nil }
        guard !positions.isEmpty else { return [glyphs] }
        var out: [[Int]] = []
        for mask in 0..<(1 << min(positions.count, 8)) {
            var v = glyphs
            for (bit, p) in positions.prefix(8).enumerated() where mask & (1 << bit) != 0 { v[p] = targetOf[glyphs[p]] ?? glyphs[p] }
            out.append(v)
        }
        return out
    }

    static func record(of shape: Shape) -> Record? {
        switch shape.target {
        case .record(let r): r
        default: nil
        }
    }

    static func isList(_ v: StructValue?) -> Bool { if case .list? = v { return true } else { return false } }

    static func glyphs(_ v: StructValue?) -> [Int] {
        switch v {
        case .int(let g)?: [Int(g)]
        case .list(let items)?: items.compactMap { $0.int.map(Int.init) }
        default: []
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
    /// Each target glyph takes its source's behaviour in this table (see `LayoutGlyphCopy`), in
    /// one pass. Sources and targets must not overlap. Returns whether anything changed.
    @discardableResult
    public func copyGlyphBehaviour(_ copies: [(source: Int, target: Int)]) throws -> Bool {
        let copy = LayoutGlyphCopy(copies)
        guard !copy.targetOf.isEmpty else { return false }
        var fields = try root
        guard copy.apply(record, &fields) else { return false }
        return replaceRoot(fields)
    }
}
