/// What the validator checks in a decoded structured table beyond what decoding proves:
/// Coverage glyphs in ascending order (lookups binary-search them) and glyph ids that exist.
/// Coverage glyphs that are in order but repeated (ranges that overlap, as Inter 3.19 ships
/// `1295-1302, 1302-1339`, or a glyph listed twice, as the Noto Looped fonts do) are a warning:
/// a binary search still finds every glyph, but the repeated one has two coverage indices, and
/// only one of them is ever used.
enum StructureCheck {
    static func problems(_ table: StructuredTable, glyphCount: Int) throws -> (errors: [String], warnings: [String]) {
        var out: [String] = [], warnings: [String] = []
        func walk(_ value: StructValue, _ shape: Shape, _ path: String) {
            switch (shape, value) {
            case (_, .opaque(let o)): if !o.isUndescribed { out.append("\(path): \(o.description)") }
            case (.offset(let target, _), _): walk(value, target, path)
            case (.record(let r), .record(let f)): fields(r, f, path)
            case (.formats(_, let records), .formatted(let n, let f)): if let r = records[n] { fields(r, f, path) }
            case (.coverage, .glyphs(let g)):
                if !g.isAscending {
                    let pairs = zip(g.runs, g.runs.dropFirst())
                    if pairs.allSatisfy({ $0.lowerBound <= $1.lowerBound && $0.upperBound <= $1.upperBound }),
                        let overlap = pairs.first(where: { $0.upperBound >= $1.lowerBound })
                    {
                        warnings.append("\(path): Coverage ranges overlap (glyph \(overlap.1.lowerBound) is covered twice)")
                    } else {
                        out.append("\(path): Coverage glyphs are not in ascending glyph order")
                    }
                }
                if let last = g.runs.map(\.upperBound).max(), last >= glyphCount {
                    out.append("\(path): glyph id \(last) is not in the font (\(glyphCount) glyphs)")
                }
            case (.switched(_, let cases), .switched(let k, let inner)): if let c = cases[k] { walk(inner, c.shape, path) }
            case (.substitutions, .substitutions(let subs)):
                if let bad = subs.lazy.flatMap({ $0.input + $0.output }).first(where: { $0 >= glyphCount }) {
                    out.append("\(path): glyph id \(bad) is not in the font (\(glyphCount) glyphs)")
                }
            case (.glyph, .int(let g)):
                if g >= glyphCount { out.append("\(path): glyph id \(g) is not in the font (\(glyphCount) glyphs)") }
            case (.classDef, .classes(let c)):
                if let last = c.last?.last, last >= glyphCount {
                    out.append("\(path): glyph id \(last) is not in the font (\(glyphCount) glyphs)")
                }
            default: break
            }
        }
        func fields(_ record: Record, _ f: StructFields, _ path: String) {
            for member in record.valueMembers {
                guard let v = f[member.name] else { continue }
                let here = path.isEmpty ? member.name : path + "." + member.name
                if member.count != nil, case .list(let items) = v {
                    for (k, item) in items.enumerated() { walk(item, member.shape, "\(here)[\(k)]") }
                } else {
                    walk(v, member.shape, here)
                }
            }
        }
        // Every damaged subtable is reported, each where it hangs.
        fields(table.record, try table.rootKeepingDamage, "")
        return (out, warnings)
    }
}
