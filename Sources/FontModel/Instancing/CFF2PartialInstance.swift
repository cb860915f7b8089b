/// CFF2 for a partial instance (PartialInstancer.swift): each glyph drawn at the new default,
/// and each value that still varies written with its deltas over the kept axes' regions in a
/// `blend`, against a new variation store of those regions (`ItemVariationStore.partialPlan`,
/// the same plan HVAR's store follows). fontTools' instancer does the same for CFF2.
///
/// A blend is linear in its scalars, so each glyph is run a few times: at the new default, with
/// every scalar 0 (the old default), and once per new column with the old columns' shares of
/// it as scalars; that run less the old default is the column's deltas. As in a full instance,
/// points are rounded where they lie (absolute coordinates, and each column's absolute deltas
/// rounded as gvar's are) and written relative, so errors do not add up along a contour, with
/// the operators a full instance would pick, every operand of an operator blended when one of
/// them varies (flex becomes its two curves). Private DICTs the same way, with DICT blends.
extension CFF2Table {
    func partiallyInstanced(_ limits: AxisLimits, axisCount: Int) throws -> [UInt8] {
        guard let store else { return try instanced(at: limits.location).bytes }
        let plan = store.partialPlan(limits)
        // Every glyph is run once per new column: their count is bounded by what a curve's
        // blended operands leave room for on the stack (which also keeps the work linear).
        let stack = min(topDict.int(Self.topMaxStack) ?? BlendingCharStringWriter.defaultStack, cffMaximumStack)
        if let v = plan.data.indices.first(where: { 6 * (plan.data[$0].columns.count + 1) + 1 > stack }) {
            throw FontError(
                "variation data \(v) would blend over \(plan.data[v].columns.count) regions, more than a curve's operands with their deltas leave room for in the charstring stack of \(stack)",
                table: "CFF2")
        }
        let zero = store.data.map { [Double](repeating: 0, count: $0.regionIndexes.count) }
        let atNewDefault = regionScalars(at: limits.location)
        // Per variation data, per new column: scalars whose blend is the old default plus that
        // column's deltas.
        let columnScalars: [[[[Double]]]] = plan.data.indices.map { v in
            plan.data[v].columns.indices.map { c in
                var s = zero
                for (k, targets) in plan.data[v].targets.enumerated() {
                    for t in targets ?? [] where t.column == c { s[v][k] += plan.data[v].weights[k] * t.scalar }
                }
                return s
            }
        }

        var charStringItems: [[UInt8]] = []
        charStringItems.reserveCapacity(glyphCount)
        for id in 0..<glyphCount {
            do {
                let oldDefault = try run(id, scalars: zero, record: .commands)
                let newDefault = try run(id, scalars: atNewDefault, record: .commands).commands
                let privateIndex = privateFor(id).dict.int(Self.privateVSIndex) ?? 0
                var columns: [[CharStringCommand]] = []
                if let v = oldDefault.vsindex, columnScalars.indices.contains(v) {
                    columns = try columnScalars[v].map { try run(id, scalars: $0, record: .commands).commands }
                }
                let vsindex = oldDefault.vsindex.flatMap { $0 != privateIndex ? $0 : nil }
                charStringItems.append(
                    try BlendingCharStringWriter.encode(
                        newDefault: newDefault, oldDefault: oldDefault.commands,
                        columns: columns, vsindex: vsindex, stack: stack))
            } catch let e as FontError where e.table == nil {
                throw FontError("glyph \(id): \(e.message)", table: "CFF2")
            }
        }
        let privateBytes = try privates.map { p -> [UInt8] in
            let v = p.dict.int(Self.privateVSIndex) ?? 0
            let columns = columnScalars.indices.contains(v) ? columnScalars[v] : []
            return try partialPrivate(p.dict, newDefault: atNewDefault, oldDefault: zero, columns: columns).encode()
        }
        let newStore = ItemVariationStore(
            regions: plan.regions,
            data: plan.data.map {
                ItemVariationStore.VariationData(regionIndexes: $0.columns, deltas: [], itemCount: 0)
            })
        return try laidOut(charStrings: charStringItems, privates: privateBytes, store: try newStore.encode(axisCount: axisCount))
    }

    /// A Private DICT of a partial instance: values at the new default, those that still vary
    /// behind a DICT blend with their deltas per new column (delta arrays rounded in absolute
    /// terms); its vsindex kept, its local subroutines gone (glyphs are written without them).
    func partialPrivate(_ dict: CFFDict, newDefault: [[Double]], oldDefault: [[Double]], columns: [[[Double]]]) throws -> CFFDict {
        let values = try evaluatedPrivate(dict, scalars: newDefault, round: true)
        let base = try evaluatedPrivate(dict, scalars: oldDefault, round: false)
        let moved = try columns.map { try evaluatedPrivate(dict, scalars: $0, round: false) }
        var out = CFFDict(entries: [])
        if let vsindex = dict.operands(Self.privateVSIndex) { out.entries.append((Self.privateVSIndex, vsindex)) }
        for (i, entry) in values.enumerated() {
            if let unblended = entry.unblended { out.entries.append((entry.op, unblended)); continue }
            let isArray = Self.deltaArrayOperators.contains(entry.op), rounds = !Self.unroundedOperators.contains(entry.op)
            func absolute(_ v: [Double]) -> [Double] { isArray ? v.runningSums() : v }
            let from = absolute(base[i].values)
            let deltas = moved.map { run -> [Double] in
                let d = zip(absolute(run[i].values), from).map { rounds ? ($0 - $1).otRounded : $0 - $1 }
                return isArray ? d.steps() : d
            }
            guard deltas.contains(where: { $0.contains { $0 != 0 } }) else {
                out.entries.append((entry.op, entry.values.map(CFFOperand.init(number:))))
                continue
            }
            // DICT blend: the n values, then each value's deltas (one per column), then n.
            var operands = entry.values
            for j in entry.values.indices { for d in deltas { operands.append(d[j]) } }
            operands.append(Double(entry.values.count))
            guard operands.count <= cffMaximumStack else {
                throw FontError(
                    "Private DICT operator \(entry.op) would blend \(operands.count) operands, past the \(cffMaximumStack) a DICT may hold",
                    table: "CFF2")
            }
            out.entries.append((Self.dictBlend, operands.map(CFFOperand.init(number:))))
            out.entries.append((entry.op, []))
        }
        return out
    }
}

/// Writes one glyph of a partial CFF2 instance from the commands of its runs (see above):
/// values at the new default and, per new column, the run whose difference from the old
/// default is that column's deltas. `CharStringWriter` picks the operators, as for a full
/// instance; an operator's operands go through one `blend` when any of them varies.
enum BlendingCharStringWriter {
    /// CFF2's operand stack holds 193 values unless the Top DICT's maxstack says otherwise; a
    /// blend of n operands with k deltas each takes n × (k + 1) + 1 of them.
    static let defaultStack = 193

    private enum Kind: Equatable {
        case move, line, curve
        case stems(UInt8, Int)
        case mask(UInt8, [UInt8])
    }

    static func encode(
        newDefault: [CharStringCommand], oldDefault: [CharStringCommand], columns: [[CharStringCommand]],
        vsindex: Int?, stack: Int
    ) throws -> [UInt8] {
        let (kinds, values) = flatten(newDefault)
        let base = flatten(oldDefault)
        let runs = columns.map(flatten)
        guard base.kinds == kinds, runs.allSatisfy({ $0.kinds == kinds }) else {
            throw FontError(
                "its charstring draws differently at different locations (a flex1 that changes direction?), which a blend cannot hold")
        }
        // Points rounded where they lie, each column's deltas too.
        let operands = values.indices.map { k in
            BlendedOperand(value: values[k].otRoundedInt, deltas: runs.map { ($0.numbers[k] - base.numbers[k]).otRoundedInt })
        }
        // Nothing varies any more: written as a full instance writes it.
        guard operands.contains(where: \.varies) else {
            var writer = CharStringWriter<Int>()
            try writer.write(newDefault)
            return writer.bytes
        }
        // At least 6: `partiallyInstanced` refuses more regions than a curve's blend leaves room for.
        let maximumOperands = min(CharStringWriter<BlendedOperand>.maximumOperands, (stack - 1) / (columns.count + 1))
        var writer = CharStringWriter<BlendedOperand>(maximumOperands: maximumOperands, keepsFlex: false) { chunk, out in
            for o in chunk { try charStringNumber(o.value, &out) }
            guard chunk.contains(where: \.varies) else { return }
            for o in chunk { for k in 0..<columns.count { try charStringNumber(k < o.deltas.count ? o.deltas[k] : 0, &out) } }
            try charStringNumber(chunk.count, &out)
            out.u8(16)   // blend
        }
        var items: [CharStringItem<BlendedOperand>] = []
        var at = 0
        func take(_ n: Int) -> [BlendedOperand] { defer { at += n }; return Array(operands[at..<at + n]) }
        for kind in kinds {
            switch kind {
            case .move: let p = take(2); items.append(.move(p[0], p[1]))
            case .line: let p = take(2); items.append(.line(p[0], p[1]))
            case .curve: items.append(.curve(take(6)))
            case .stems(let op, let count): items.append(.stems(op, take(count)))
            case .mask(let op, let bytes): items.append(.mask(op, bytes))
            }
        }
        var prefix = BinaryWriter()
        if let vsindex { try charStringNumber(vsindex, &prefix); prefix.u8(15) }
        try writer.write(items: items)
        return prefix.bytes + writer.bytes
    }

    /// The commands' kinds and their numbers in order: points absolute, stem edges made
    /// absolute within their operator, flex as its two curves.
    private static func flatten(_ commands: [CharStringCommand]) -> (kinds: [Kind], numbers: [Double]) {
        var kinds: [Kind] = [], numbers: [Double] = []
        for command in commands {
            switch command {
            case .path(.moveTo(let x, let y)): kinds.append(.move); numbers += [x, y]
            case .path(.lineTo(let x, let y)): kinds.append(.line); numbers += [x, y]
            case .path(.curveTo(let a, let b, let c, let d, let e, let f)): kinds.append(.curve); numbers += [a, b, c, d, e, f]
            case .path(.closePath): break
            case .flex(let first, let second, _):
                for case .curveTo(let a, let b, let c, let d, let e, let f) in [first, second] {
                    kinds.append(.curve); numbers += [a, b, c, d, e, f]
                }
            case .stems(let op, let edges):
                kinds.append(.stems(op, edges.count))
                numbers += edges.runningSums()
            case .mask(let op, let bytes): kinds.append(.mask(op, bytes))
            }
        }
        return (kinds, numbers)
    }
}

/// A charstring operand of a partial instance: its value at the new default and its delta per
/// new region (none listed: all 0).
struct BlendedOperand: CharStringOperand {
    var value: Int
    var deltas: [Int]
    var varies: Bool { deltas.contains { $0 != 0 } }
    var isZero: Bool { value == 0 && !varies }
    static var zero: BlendedOperand { BlendedOperand(value: 0, deltas: []) }
    init(value: Int, deltas: [Int]) { self.value = value; self.deltas = deltas }
    init(constant: Int) { self.init(value: constant, deltas: []) }
    static func - (a: BlendedOperand, b: BlendedOperand) -> BlendedOperand {
        let n = max(a.deltas.count, b.deltas.count)
        return BlendedOperand(
            value: a.value - b.value,
            deltas: (0..<n).map {
                ($0 < a.deltas.count ? a.deltas[$0] : 0) - ($0 < b.deltas.count ? b.deltas[$0] : 0)
            })
    }
}
