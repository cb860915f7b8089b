#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A static CFF2 table: every `blend` evaluated at a location, for a full instance. Each glyph
/// is run once with its subroutines inlined; its points are rounded where they lie (absolute
/// coordinates, as fontTools' instancer rounds them, so errors do not add up along a contour)
/// and written back as relative charstring operators. Hints are kept (stem edges rounded the
/// same way, masks copied), flex stays flex. The Private DICTs' blended values are evaluated,
/// the variation store, vsindex and subroutines go. The result is still CFF2 (fontTools'
/// default); `downgradedToCFF` (CFF2ToCFF.swift) writes it as CFF 1.
extension CFF2Table {
    /// The new table's bytes and each glyph's bounds in it.
    struct Instanced {
        var bytes: [UInt8]
        var bounds: [GlyphBounds?]
    }

    func instanced(at location: [Double]) throws -> Instanced {
        let scalars = regionScalars(at: location)
        var charStringItems: [[UInt8]] = []
        charStringItems.reserveCapacity(glyphCount)
        for id in 0..<glyphCount {
            var writer = CharStringWriter<Int>()
            do {
                try writer.write(try run(id, scalars: scalars, record: .commands).commands)
            } catch let e as FontError where e.table == nil {
                throw FontError("glyph \(id): \(e.message)", table: "CFF2")
            }
            charStringItems.append(writer.bytes)
        }
        let privateBytes = try privates.map { try instancedPrivate($0.dict, scalars: scalars).encode() }
        let bytes = try laidOut(charStrings: charStringItems, privates: privateBytes, store: nil)
        // Bounds of what was written (rounded points), by running the new charstrings.
        let bounds = try bytes.withUnsafeBytes { try CFF2Table(reader: BinaryReader($0), axisCount: 0).allBounds() }
        return Instanced(bytes: bytes, bounds: bounds)
    }

    /// A new CFF2 table around these charstrings and Private DICTs (one per Font DICT), with
    /// the Top DICT, Font DICTs and FDSelect of this one, no subroutines, and the variation
    /// store's bytes when there is one (else none).
    func laidOut(charStrings charStringItems: [[UInt8]], privates privateBytes: [[UInt8]], store: [UInt8]?) throws -> [UInt8] {
        // Layout: header, Top DICT, empty global subroutines, the store, FDSelect (copied),
        // CharStrings, FDArray, Private DICTs. DICT offsets are 5-byte integers, so sizes do
        // not depend on them.
        var top = topDict
        top.entries.removeAll { ($0.op == Self.topVStore && store == nil) || ($0.op == Self.topFDSelect && fdSelectRange == nil) }
        top.set(Self.topCharStrings, [.int(0)]); top.set(Self.topFDArray, [.int(0)])
        if fdSelectRange != nil { top.set(Self.topFDSelect, [.int(0)]) }
        if store != nil { top.set(Self.topVStore, [.int(0)]) }
        let topSize = top.encode().count
        guard topSize <= 0xFFFF else { throw FontError("CFF2 Top DICT of \(topSize) bytes does not fit its 16-bit length", table: "CFF2") }
        if let store, store.count > 0xFFFF {
            throw FontError("CFF2 variation store of \(store.count) bytes does not fit its 16-bit length", table: "CFF2")
        }
        func fontDictItems(_ privateAt: [Int]) -> [[UInt8]] {
            fontDicts.enumerated().map { i, d in
                var d = d
                if d.operands(CFFTable.topPrivate) != nil {
                    d.set(CFFTable.topPrivate, [.int(privateBytes[i].count), .int(privateAt.isEmpty ? 0 : privateAt[i])])
                }
                return d.encode()
            }
        }
        let emptyIndex = CFFIndex.encodedSize([], wideCount: true)
        var position = 5 + topSize + emptyIndex
        let storeAt = position; position += store.map { 2 + $0.count } ?? 0
        let fdSelectAt = position; position += fdSelectRange?.count ?? 0
        let charStringsAt = position; position += CFFIndex.encodedSize(charStringItems, wideCount: true)
        let fdArrayAt = position; position += CFFIndex.encodedSize(fontDictItems([]), wideCount: true)
        var privateAt: [Int] = []
        for p in privateBytes { privateAt.append(position); position += p.count }
        top.set(Self.topCharStrings, [.int(charStringsAt)]); top.set(Self.topFDArray, [.int(fdArrayAt)])
        if fdSelectRange != nil { top.set(Self.topFDSelect, [.int(fdSelectAt)]) }
        if store != nil { top.set(Self.topVStore, [.int(storeAt)]) }

        var w = BinaryWriter(capacity: position)
        w.u8(2); w.u8(0); w.u8(5); w.u16(UInt16(topSize))
        w.append(top.encode())
        try CFFIndex.encode([], into: &w, wideCount: true)
        if let store { w.u16(UInt16(store.count)); w.append(store) }
        if let r = fdSelectRange { w.append(UnsafeRawBufferPointer(rebasing: data.bytes[r])) }
        try CFFIndex.encode(charStringItems, into: &w, wideCount: true)
        try CFFIndex.encode(fontDictItems(privateAt), into: &w, wideCount: true)
        for p in privateBytes { w.append(p) }
        guard w.bytes.count == position else {
            throw FontError("CFF2 layout mismatch: planned \(position) bytes, built \(w.bytes.count)", table: "CFF2")
        }
        return w.bytes
    }

    /// Operators whose operands are delta-encoded arrays (each value relative to the one before).
    static let deltaArrayOperators: Set<Int> = [6, 7, 8, 9, 1212, 1213]
    /// Values fontTools leaves unrounded when it instances them (scales and stem widths).
    static let unroundedOperators: Set<Int> = [10, 11, 1209, 1212, 1213, 1218]

    /// A Private DICT with its blends evaluated (rounded as fontTools rounds; delta arrays made
    /// absolute, rounded and made relative again), without vsindex and local subroutines.
    func instancedPrivate(_ dict: CFFDict, scalars: [[Double]]) throws -> CFFDict {
        CFFDict(
            entries: try evaluatedPrivate(dict, scalars: scalars, round: true).map {
                ($0.op, $0.unblended ?? $0.values.map(CFFOperand.init(number:)))
            })
    }

    /// A Private DICT's entries with their blends evaluated, but for vsindex and local
    /// subroutines; delta arrays stay relative (each value rounded in absolute terms when
    /// `round`; values fontTools leaves unrounded never are). Entries without a blend also
    /// keep their operands as written (`unblended`).
    func evaluatedPrivate(_ dict: CFFDict, scalars: [[Double]], round: Bool) throws -> [(
        op: Int, values: [Double], unblended: [CFFOperand]?
    )] {
        let vsindex = dict.int(Self.privateVSIndex) ?? 0
        let regions = scalars.indices.contains(vsindex) ? scalars[vsindex] : []
        var out: [(op: Int, values: [Double], unblended: [CFFOperand]?)] = []
        var pending: [Double]? = nil
        for (op, operands) in dict.entries {
            if op == Self.privateVSIndex || op == CFFTable.privateSubrs { pending = nil; continue }
            guard pending != nil || op == Self.dictBlend else { out.append((op, try operands.map { try $0.number() }, operands)); continue }
            var values = (pending ?? []) + (try operands.map { try $0.number() })
            pending = nil
            if op == Self.dictBlend {
                // n defaults, n × regions deltas, n: leaves the n blended values for the next operator.
                guard let last = values.popLast(), last >= 0, last == last.rounded() else {
                    throw FontError("Private DICT blend has no count", table: "CFF2")
                }
                let n = Int(last), k = regions.count
                guard n * (k + 1) <= values.count else {
                    throw FontError(
                        "Private DICT blend of \(n) values with \(k) regions needs \(n * (k + 1)) operands, has \(values.count)",
                        table: "CFF2")
                }
                let base = values.count - n * (k + 1)
                var blended = Array(values[..<base])
                for i in 0..<n {
                    var v = values[base + i]
                    for j in 0..<k { v += regions[j] * values[base + n + i * k + j] }
                    blended.append(v)
                }
                pending = blended
                continue
            }
            let rounds = round && !Self.unroundedOperators.contains(op)
            if Self.deltaArrayOperators.contains(op) {
                // Delta arrays (BlueValues …) round where each value lies, not each step.
                let absolute = values.runningSums()
                values = (rounds ? absolute.map(\.otRounded) : absolute).steps()
            } else if rounds {
                values = values.map(\.otRounded)
            }
            out.append((op, values, nil))
        }
        return out
    }

    static let dictBlend = 23
}

extension CFFOperand {
    /// An integer when the value is whole, otherwise a real of 8 significant digits (as
    /// fontTools writes them).
    init(number value: Double) {
        if value == value.rounded(), abs(value) < 2_000_000_000 { self = .int(Int(value)); return }
        var v = value
        if v.isFinite {
            let scale = pow(10, Double(7 - Int(log10(abs(v)).rounded(.down))))
            v = (v * scale).rounded() / scale
        }
        // The shortest decimal that reads back as v, as nibbles: 0–9, a '.', b 'E', c 'E-', e '-', f end.
        var nibbles: [UInt8] = []
        var chars = Array("\(v)")
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "0"..."9": nibbles.append(UInt8(c.asciiValue! - 48))
            case ".": nibbles.append(0xA)
            case "-": nibbles.append(0xE)
            case "e", "E":
                if i + 1 < chars.count, chars[i + 1] == "-" {
                    nibbles.append(0xC); i += 1
                } else {
                    nibbles.append(0xB); if i + 1 < chars.count, chars[i + 1] == "+" { i += 1 }
                }
            default: break
            }
            i += 1
        }
        chars.removeAll()
        nibbles.append(0xF)
        if nibbles.count % 2 == 1 { nibbles.append(0xF) }
        var raw: [UInt8] = [30]
        for k in stride(from: 0, to: nibbles.count, by: 2) { raw.append(nibbles[k] << 4 | nibbles[k + 1]) }
        self = .real(raw)
    }

    /// The operand's value (reals decoded from their nibbles).
    func number() throws -> Double {
        switch self {
        case .int(let v): return Double(v)
        case .real(let raw):
            var text = ""
            loop: for byte in raw.dropFirst() {
                for nibble in [byte >> 4, byte & 0xF] {
                    switch nibble {
                    case 0...9: text.append(Character(String(nibble)))
                    case 0xA: text.append(".")
                    case 0xB: text.append("e")
                    case 0xC: text.append("e-")
                    case 0xE: text.append("-")
                    case 0xF: break loop
                    default: throw FontError("invalid nibble \(nibble) in a CFF DICT real", table: "CFF2")
                    }
                }
            }
            guard let v = Double(text) else { throw FontError("CFF DICT real \"\(text)\" is not a number", table: "CFF2") }
            return v
        }
    }
}

/// A charstring operand as `CharStringWriter` writes it: a plain number (`Int`), or in a
/// partial instance a number with its deltas per region (`BlendedOperand`), which goes out
/// through `blend` when it varies.
protocol CharStringOperand {
    static var zero: Self { get }
    var isZero: Bool { get }
    static func - (a: Self, b: Self) -> Self
    /// A value that does not vary.
    init(constant: Int)
}

extension Int: CharStringOperand {
    var isZero: Bool { self == 0 }
    init(constant: Int) { self = constant }
}

/// One rounded outline item for `CharStringWriter`: points absolute, stem edges absolute
/// within their operator.
enum CharStringItem<Value: CharStringOperand> {
    case move(Value, Value)
    case line(Value, Value)
    case curve([Value])
    case stems(UInt8, [Value])
    case mask(UInt8, [UInt8])
    /// Two curves (12 values) drawn as one flex, and its depth.
    case flex([Value], Int)
}

/// Writes a glyph as a CFF2 charstring: relative operands, lines and curves grouped into the
/// shorter operators (h/v lines in alternating runs, hv/vh/hh/vv curves, rlineto, rrcurveto,
/// rlinecurve, rcurveline), at most 48 operands an operator so that CFF 1 interpreters could
/// run it too (fewer when blends must fit the stack). CFF2 has no width and no endchar.
/// `write(_:)` takes a full instance's commands (absolute, unrounded) and rounds each point
/// where it lies; `write(items:)` takes items already rounded.
struct CharStringWriter<Value: CharStringOperand> {
    private var out = BinaryWriter()
    var bytes: [UInt8] { out.bytes }
    private var x = Value.zero, y = Value.zero
    private var run: [Segment] = []
    /// What CFF 1 interpreters allow an operator.
    static var maximumOperands: Int { 48 }
    let maximumOperands: Int
    /// Flex is kept as flex (else written as its two curves: a flex's operands cannot blend).
    let keepsFlex: Bool
    /// Writes one operator's operands (numbers, or a blend) before the operator.
    private let emitOperands: (ArraySlice<Value>, inout BinaryWriter) throws -> Void

    private enum Segment {
        case line(Value, Value)
        case curve([Value])
    }

    init(
        maximumOperands: Int = Self.maximumOperands, keepsFlex: Bool, emit: @escaping (ArraySlice<Value>, inout BinaryWriter) throws -> Void
    ) {
        self.maximumOperands = maximumOperands
        self.keepsFlex = keepsFlex
        emitOperands = emit
    }

    mutating func write(items: [CharStringItem<Value>]) throws {
        for item in items {
            switch item {
            case .stems(let op, let edges):
                try flush()
                // Edges are relative within one operator; restart from zero in each operator a
                // long list is split into.
                let size = maximumOperands - maximumOperands % 2
                for start in stride(from: 0, to: edges.count, by: size) {
                    var previous = Value.zero
                    let chunk = edges[start..<min(start + size, edges.count)].map { e in
                        defer { previous = e }; return e - previous
                    }
                    try writeOperator(chunk[...], [op])
                }
            case .mask(let op, let mask):
                try flush()
                out.u8(op); out.append(mask)
            case .move(let px, let py):
                try flush()
                let (dx, dy) = step(px, py)
                if dx.isZero && !dy.isZero {
                    try writeOperator([dy], [4])
                } else if dy.isZero {
                    try writeOperator([dx], [22])
                } else {
                    try writeOperator([dx, dy], [21])
                }
            case .line(let px, let py):
                let (dx, dy) = step(px, py)
                run.append(.line(dx, dy))
            case .curve(let c):
                let (a, b) = step(c[0], c[1]), (d, e) = step(c[2], c[3]), (f, g) = step(c[4], c[5])
                run.append(.curve([a, b, d, e, f, g]))
            case .flex(let points, let depth) where keepsFlex:
                try flush()
                var operands: [Value] = []
                for k in stride(from: 0, to: 12, by: 2) {
                    let (dx, dy) = step(points[k], points[k + 1])
                    operands += [dx, dy]
                }
                try writeOperator((operands + [Value(constant: depth)])[...], [12, 35])
            case .flex(let points, _):
                let (a, b) = step(points[0], points[1]), (c, d) = step(points[2], points[3]), (e, f) = step(points[4], points[5])
                let (g, h) = step(points[6], points[7]), (i, j) = step(points[8], points[9]), (k, l) = step(points[10], points[11])
                run += [.curve([a, b, c, d, e, f]), .curve([g, h, i, j, k, l])]
            }
        }
        try flush()
    }

    /// Moves to a point, returning the relative step.
    private mutating func step(_ px: Value, _ py: Value) -> (Value, Value) {
        defer { x = px; y = py }
        return (px - x, py - y)
    }

    private mutating func writeOperator(_ operands: ArraySlice<Value>, _ op: [UInt8]) throws {
        try emitOperands(operands, &out)
        for b in op { out.u8(b) }
    }

    private mutating func flush() throws {
        var i = 0
        while i < run.count {
            var operands: [Value] = []
            let op: UInt8
            switch run[i] {
            case .line(let dx, let dy) where dx.isZero || dy.isZero:
                // hlineto/vlineto: lines alternating horizontal and vertical.
                let startsHorizontal = dy.isZero
                var horizontal = startsHorizontal
                while i < run.count, case .line(let a, let b) = run[i], horizontal ? b.isZero : a.isZero {
                    operands.append(horizontal ? a : b); horizontal.toggle(); i += 1
                }
                op = startsHorizontal ? 6 : 7
            case .line:
                // rlineto: slanted lines, and lone straight ones between them.
                while i < run.count, case .line(let a, let b) = run[i],
                    (!a.isZero && !b.isZero) || (alternatingRun(from: i) == 1 && isSlantedLine(i + 1))
                {
                    operands += [a, b]; i += 1
                }
                // rlinecurve: the lines and a lone curve after them.
                if operands.count <= maximumOperands - 6, i < run.count, case .curve(let c) = run[i], !isCurve(i + 1) {
                    operands += c; i += 1; op = 25
                } else {
                    op = 5
                }
            case .curve(let c):
                let alternating = alternatingCurves(from: i), horizontal = sameDirectionCurves(from: i, horizontal: true),
                    vertical = sameDirectionCurves(from: i, horizontal: false)
                if alternating > 0 && alternating >= max(horizontal, vertical) {
                    // hvcurveto/vhcurveto: each curve starts along one axis and ends along the
                    // other; the last may end anywhere (its extra operand).
                    var startsHorizontal = c[1].isZero
                    op = startsHorizontal ? 31 : 30
                    for k in 0..<alternating {
                        guard case .curve(let c) = run[i + k] else { break }
                        let last = k == alternating - 1
                        if startsHorizontal {
                            operands += [c[0], c[2], c[3], c[5]]; if last && !c[4].isZero { operands.append(c[4]) }
                        } else {
                            operands += [c[1], c[2], c[3], c[4]]; if last && !c[5].isZero { operands.append(c[5]) }
                        }
                        startsHorizontal.toggle()
                    }
                    i += alternating
                } else if max(horizontal, vertical) > 0 {
                    // hhcurveto/vvcurveto: curves along one axis (the first may start off it).
                    let isHorizontal = horizontal >= vertical
                    for k in 0..<(isHorizontal ? horizontal : vertical) {
                        guard case .curve(let c) = run[i + k] else { break }
                        if isHorizontal {
                            if k == 0 && !c[1].isZero { operands.append(c[1]) }; operands += [c[0], c[2], c[3], c[4]]
                        } else {
                            if k == 0 && !c[0].isZero { operands.append(c[0]) }; operands += [c[1], c[2], c[3], c[5]]
                        }
                    }
                    i += isHorizontal ? horizontal : vertical
                    op = isHorizontal ? 27 : 26
                } else {
                    while i < run.count, case .curve(let c) = run[i], alternatingCurves(from: i) == 0,
                        sameDirectionCurves(from: i, horizontal: true) == 0, sameDirectionCurves(from: i, horizontal: false) == 0
                    {
                        operands += c; i += 1
                    }
                    // rcurveline: the curves and a slanted line that ends the run (a line followed by
                    // a curve or more lines goes with those).
                    if operands.count <= maximumOperands - 2, i < run.count, case .line(let a, let b) = run[i], !a.isZero && !b.isZero,
                        i + 1 == run.count
                    {
                        operands += [a, b]; i += 1; op = 24
                    } else {
                        op = 8
                    }
                }
            }
            // Split long runs; chunks have an even length, so h/v runs keep their phase.
            let size = maximumOperands - maximumOperands % 2
            for start in stride(from: 0, to: operands.count, by: size) {
                try writeOperator(operands[start..<min(start + size, operands.count)], [op])
            }
        }
        run.removeAll(keepingCapacity: true)
    }

    private func isCurve(_ i: Int) -> Bool {
        guard i < run.count, case .curve = run[i] else { return false }
        return true
    }

    /// Most curves one shorthand curve operator takes here: 11 × 4 operands and a last one.
    static var maximumCurves: Int { 11 }

    /// How many curves from `i` alternate starting horizontally and vertically, each ending
    /// along the other axis except the last.
    private func alternatingCurves(from i: Int) -> Int {
        guard i < run.count, case .curve(let first) = run[i], first[0].isZero || first[1].isZero else { return 0 }
        var horizontal = first[1].isZero, j = i
        while j < run.count, j - i < Self.maximumCurves, case .curve(let c) = run[j], horizontal ? c[1].isZero : c[0].isZero {
            let endsAcross = horizontal ? c[4].isZero : c[5].isZero
            j += 1; horizontal.toggle()
            if !endsAcross { break }
        }
        return j - i
    }

    /// How many curves from `i` end along one axis and (after the first) start along it.
    private func sameDirectionCurves(from i: Int, horizontal: Bool) -> Int {
        var j = i
        while j < run.count, j - i < Self.maximumCurves, case .curve(let c) = run[j],
            horizontal ? c[5].isZero && (j == i || c[1].isZero) : c[4].isZero && (j == i || c[0].isZero)
        { j += 1 }
        return j - i
    }

    /// How many lines from `i` alternate horizontal and vertical.
    private func alternatingRun(from i: Int) -> Int {
        guard i < run.count, case .line(let a, let b) = run[i], a.isZero || b.isZero else { return 0 }
        var horizontal = b.isZero, j = i
        while j < run.count, case .line(let a, let b) = run[j], horizontal ? b.isZero : a.isZero { horizontal.toggle(); j += 1 }
        return j - i
    }

    private func isSlantedLine(_ i: Int) -> Bool {
        guard i < run.count, case .line(let a, let b) = run[i] else { return false }
        return !a.isZero && !b.isZero
    }

}

extension CharStringWriter where Value == Int {
    /// A writer of plain numbers (a full instance).
    init() {
        self.init(keepsFlex: true) { operands, out in for v in operands { try charStringNumber(v, &out) } }
    }

    /// Writes a full instance's commands (absolute, unrounded): each point rounded where it
    /// lies, stem edges made absolute within their operator and rounded.
    mutating func write(_ commands: [CharStringCommand]) throws {
        var items: [CharStringItem<Int>] = []
        items.reserveCapacity(commands.count)
        for command in commands {
            switch command {
            case .stems(let op, let values):
                var edge = 0.0
                items.append(
                    .stems(
                        op,
                        values.map {
                            edge += $0; return edge.otRoundedInt
                        }))
            case .mask(let op, let mask): items.append(.mask(op, mask))
            case .path(.moveTo(let px, let py)): items.append(.move(px.otRoundedInt, py.otRoundedInt))
            case .path(.lineTo(let px, let py)): items.append(.line(px.otRoundedInt, py.otRoundedInt))
            case .path(.curveTo(let a, let b, let c, let d, let e, let f)): items.append(.curve([a, b, c, d, e, f].map(\.otRoundedInt)))
            case .path(.closePath): break
            case .flex(.curveTo(let a, let b, let c, let d, let e, let f), .curveTo(let g, let h, let i, let j, let k, let l), let depth):
                items.append(.flex([a, b, c, d, e, f, g, h, i, j, k, l].map(\.otRoundedInt), depth.otRoundedInt))
            case .flex:
                throw FontError("flex without its two curves")
            }
        }
        try write(items: items)
    }
}

/// Charstring numbers are DICT integers up to 16 bits (5-byte integers mean 16.16 here).
public func charStringNumber(_ v: Int, _ out: inout BinaryWriter) throws {
    guard (-32768...32767).contains(v) else {
        throw FontError("coordinate \(v) does not fit a charstring number (-32768...32767)")
    }
    CFFDict.encodeInt(v, &out)
}

extension Array where Element == Double {
    /// Each element plus all before it: a delta-encoded array's absolute values.
    func runningSums() -> [Double] {
        var sum = 0.0
        return map {
            sum += $0; return sum
        }
    }

    /// Each element less the one before it (the first less zero): `runningSums` undone.
    func steps() -> [Double] {
        var previous = 0.0
        return map { v in
            defer { previous = v }; return v - previous
        }
    }
}
