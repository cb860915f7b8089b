/// GDEF and GPOS at a location: every VariationIndex device (format 0x8000) adds its delta
/// from GDEF's ItemVariationStore to the value beside it and is removed, as fontTools'
/// instancer does for a full instance. Anchors and carets left with no device become format
/// 1; SinglePos and PairPos value formats are recomputed from the values that remain.
enum LayoutVariations {
    static let valuePairs = [
        ("XPlacement", "XPlaDevice"), ("YPlacement", "YPlaDevice"),
        ("XAdvance", "XAdvDevice"), ("YAdvance", "YAdvDevice"),
    ]

    /// The tree with deltas applied. `delta(outer, inner)` is the rounded delta of an item;
    /// `names` are the glyph names (class order in PairPos format 2 follows them).
    static func apply(_ value: StructValue, names: [String], _ delta: (Int, Int) -> Int) throws -> StructValue {
        switch value {
        case .lazy(let l): return try apply(try l.value(), names: names, delta)
        case .list(let items): return .list(try items.map { try apply($0, names: names, delta) })
        case .switched(let k, let v): return .switched(k, try apply(v, names: names, delta))
        case .record(let f): return .record(try fields(f, format: nil, names: names, delta))
        case .formatted(let n, let f):
            var changed = try fields(f, format: n, names: names, delta)
            if n == 2, changed["Class1Record"] != nil { changed = canonicalClasses(changed, names: names) }
            // An anchor or caret whose devices are all gone is a plain coordinate (format 1).
            if n == 3, changed["XCoordinate"] != nil, changed["XDeviceTable"] == nil, changed["YDeviceTable"] == nil {
                var plain = StructFields()
                plain["XCoordinate"] = changed["XCoordinate"]; plain["YCoordinate"] = changed["YCoordinate"]
                return .formatted(1, plain)
            }
            if n == 3, changed["Coordinate"] != nil, f["DeviceTable"] != nil, changed["DeviceTable"] == nil {
                var plain = StructFields()
                plain["Coordinate"] = changed["Coordinate"]
                return .formatted(1, plain)
            }
            return .formatted(n, changed)
        default: return value
        }
    }

    private static func isVariationIndex(_ v: StructValue?) -> (Int, Int)? {
        if case .device(let d)? = v, d.deltaFormat == 0x8000 { return (d.startSize, d.endSize) }
        return nil
    }

    private static func isHinting(_ v: StructValue?) -> Bool {
        if case .device(let d)? = v, d.deltaFormat != 0x8000 { return true }
        return false
    }

    private static func fields(_ input: StructFields, format: Int?, names: [String], _ delta: (Int, Int) -> Int) throws -> StructFields {
        var f = StructFields()
        for (name, v) in zip(input.names, input.values) { f[name] = try apply(v, names: names, delta) }
        // ValueRecord members, and anchor/caret coordinates with their devices.
        for (scalar, device) in valuePairs + [
            ("XCoordinate", "XDeviceTable"), ("YCoordinate", "YDeviceTable"), ("Coordinate", "DeviceTable"),
        ] {
            guard f.names.contains(device), !isHinting(f[device]) else { continue }
            if let (outer, inner) = isVariationIndex(f[device]) {
                f[scalar] = .int((f[scalar]?.int ?? 0) + Int64(delta(outer, inner)))
            }
            f[device] = nil
        }
        // Value formats follow the values (fontTools: SinglePos 1 and PairPos by the members
        // present, SinglePos 2 by the members that are not zero).
        if f["ValueFormat"] != nil, let values = f["Value"] {
            if format == 2, case .list(let items) = values {
                let mask = items.reduce(0) { $0 | effectiveFormat($1) }
                f["ValueFormat"] = .int(Int64(mask))
                f["Value"] = .list(items.map { keep($0, mask) })
            } else {
                f["ValueFormat"] = .int(Int64(presentFormat(values)))
            }
        }
        if f["ValueFormat1"] != nil {
            var first = 0, second = 0
            collectPairFormats(f, &first, &second)
            f["ValueFormat1"] = .int(Int64(first)); f["ValueFormat2"] = .int(Int64(second))
        }
        return f
    }

    static func presentFormat(_ v: StructValue) -> Int {
        guard case .record(let f) = v else { return 0 }
        return StructureCodec.valueRecordFields.enumerated().reduce(0) { f[$1.element] != nil ? $0 | 1 << $1.offset : $0 }
    }

    static func effectiveFormat(_ v: StructValue) -> Int {
        guard case .record(let f) = v else { return 0 }
        return StructureCodec.valueRecordFields.enumerated().reduce(0) { mask, field in
            switch f[field.element] {
            case .int(let n)? where n != 0: mask | 1 << field.offset
            case .device?: mask | 1 << field.offset
            default: mask
            }
        }
    }

    static func keep(_ v: StructValue, _ mask: Int) -> StructValue {
        guard case .record(let f) = v else { return v }
        var out = StructFields()
        for (bit, name) in StructureCodec.valueRecordFields.enumerated() where mask & (1 << bit) != 0 {
            out[name] = f[name] ?? (bit < 4 ? .int(0) : .none)
        }
        return .record(out)
    }

    /// The members present in every Value1 and Value2 under a PairPos subtable.
    private static func collectPairFormats(_ f: StructFields, _ first: inout Int, _ second: inout Int) {
        func visit(_ v: StructValue) {
            switch v {
            case .list(let items): items.forEach(visit)
            case .record(let r), .formatted(_, let r):
                for (name, value) in zip(r.names, r.values) {
                    if name == "Value1" {
                        first |= presentFormat(value)
                    } else if name == "Value2" {
                        second |= presentFormat(value)
                    } else {
                        visit(value)
                    }
                }
            default: break
            }
        }
        for (name, value) in zip(f.names, f.values) where name == "PairSet" || name == "Class1Record" { visit(value) }
    }

    /// PairPos format 2 classes renumbered as fontTools' merger leaves them: first classes are
    /// the covered glyphs' classes, largest first (ties by their sorted glyph names), the
    /// largest becoming class 0; second classes the same from 1, class 0 kept. Rows and
    /// columns move with their classes; classes with no glyphs go.
    static func canonicalClasses(_ f: StructFields, names: [String]) -> StructFields {
        guard case .glyphs(let coverage)? = f["Coverage"], case .classes(let first)? = f["ClassDef1"],
            case .classes(let second)? = f["ClassDef2"], case .list(let rows)? = f["Class1Record"]
        else { return f }
        func key(_ glyphs: [Int]) -> [[Unicode.Scalar]] {
            glyphs.map { Array(glyphName($0, in: names).unicodeScalars) }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        func order(_ sets: [(old: Int, glyphs: [Int])]) -> [(old: Int, glyphs: [Int])] {
            let keyed = sets.filter { !$0.glyphs.isEmpty }.map { ($0, key($0.glyphs)) }
            return keyed.sorted { a, b in
                if a.0.glyphs.count != b.0.glyphs.count { return a.0.glyphs.count > b.0.glyphs.count }
                return a.1.lexicographicallyPrecedes(b.1) { $0.lexicographicallyPrecedes($1) }
            }.map(\.0)
        }
        func classOf(_ runs: [ClassRun]) -> [Int: Int] {
            var m: [Int: Int] = [:]
            for r in runs { for g in r.first...r.last { m[g] = r.glyphClass } }
            return m
        }
        let firstClass = classOf(first)
        var byFirst: [Int: [Int]] = [:]
        for g in coverage.glyphs { byFirst[firstClass[g] ?? 0, default: []].append(g) }
        let newFirst = order(byFirst.map { ($0.key, $0.value) })
        let secondClass = classOf(second)
        var bySecond: [Int: [Int]] = [:]
        for (g, c) in secondClass { bySecond[c, default: []].append(g) }
        let newSecond = order(bySecond.map { ($0.key, $0.value) })

        func runs(_ classes: [(old: Int, glyphs: [Int])], from start: Int) -> [ClassRun] {
            var out: [ClassRun] = []
            for (i, c) in classes.enumerated() where i + start > 0 {
                for g in c.glyphs { out.append(ClassRun(first: g, last: g, glyphClass: i + start)) }
            }
            return ClassRun.normalized(out)
        }
        let columns = [0] + newSecond.map(\.old)
        var newRows: [StructValue] = []
        for c in newFirst {
            guard c.old < rows.count, case .record(var row) = rows[c.old], case .list(let cells)? = row["Class2Record"],
                columns.allSatisfy({ $0 < cells.count })
            else { return f }
            row["Class2Record"] = .list(columns.map { cells[$0] })
            newRows.append(.record(row))
        }
        var out = f
        out["ClassDef1"] = .classes(runs(newFirst, from: 0))
        out["ClassDef2"] = .classes(runs(newSecond, from: 1))
        out["Class1Record"] = .list(newRows)
        return out
    }
}
