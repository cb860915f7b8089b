/// A drawing command of an outline, in font units.
public enum PathCommand: Equatable, Sendable {
    case moveTo(Double, Double)
    case lineTo(Double, Double)
    case curveTo(Double, Double, Double, Double, Double, Double)
    case closePath
}

/// What a charstring does, with blends evaluated and subroutines inlined: hints as given,
/// drawing in absolute coordinates (unrounded). CFF2 instancing re-encodes glyphs from it.
enum CharStringCommand: Equatable {
    /// hstem (1), vstem (3), hstemhm (18) or vstemhm (23) with its relative edge values.
    case stems(UInt8, [Double])
    /// hintmask (19) or cntrmask (20) with its mask bytes.
    case mask(UInt8, [UInt8])
    case path(PathCommand)
    /// Two curves drawn as one flex, and the flex depth (fd).
    case flex(PathCommand, PathCommand, Double)
}

/// Runs a Type 2 charstring: its outline (optionally as a path), exact bounds, advance width and
/// whether it calls local subroutines. Every read is checked; bad charstrings throw.
struct CharStringInterpreter {
    struct Result {
        var bounds: GlyphBounds?
        var path: [PathCommand] = []
        var width: Double?
        var usesLocalSubrs = false
        /// Filled when `recordCommands` is set.
        var commands: [CharStringCommand] = []
        /// The variation data the last `blend` used (CFF2), nil when nothing blended.
        var vsindex: Int?
    }

    /// CFF2's variations: each ItemVariationData's region scalars at the location, and which
    /// one `blend` uses (the Private DICT's vsindex until a charstring's vsindex changes it).
    struct Blend {
        var scalars: [[Double]]
        var vsindex: Int
    }

    /// The table (subroutine bytes are read from it), its global subroutines, the glyph's code
    /// (based at its file offset, so errors name one; 0 for an edited charstring, which is not in
    /// the file) and local subroutines; widths (nominal, default) for CFF, nil for CFF2, which has
    /// none.
    let data: BinaryReader
    let code: BinaryReader
    /// The subroutines' places in `data` and their index biases; `hasLocal` is false when the
    /// font DICT has no local subroutines (callsubr is then an error). Kept as plain arrays, so a
    /// call (tens of thousands a font) copies and retains nothing.
    private let globalItems: [Range<Int>], globalBias: Int
    private let localItems: [Range<Int>], localBias: Int, hasLocal: Bool
    let widths: (nominal: Double, default: Double)?
    var blend: Blend?
    let glyph: Int
    let table: String
    var recordPath = false
    var recordCommands = false

    private let stack = OperandStack()
    private var x = 0.0, y = 0.0
    private var stems = 0
    private var haveWidth = false
    private var open = false
    private var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    private var result = Result()
    private var depth = 0
    /// Operators and operands executed so far for this glyph, subroutine calls included.
    private var operations = 0
    /// Most a glyph may execute: real glyphs need a few thousand; subroutines that call each
    /// other many times (within the nesting limit) would otherwise run for ever.
    static let maximumOperations = 200_000

    init(
        data: BinaryReader, globalSubrs: CFFIndex, code: BinaryReader, local: CFFIndex?, widths: (nominal: Double, default: Double)?,
        blend: Blend?, glyph: Int, table: String, recordPath: Bool
    ) {
        self.data = data; self.code = code
        globalItems = globalSubrs.items; globalBias = Self.bias(globalSubrs.items.count)
        localItems = local?.items ?? []; localBias = Self.bias(localItems.count); hasLocal = local != nil
        self.widths = widths; self.blend = blend; self.glyph = glyph; self.table = table; self.recordPath = recordPath
    }

    // `push` and `need` are static, taking the stack: called as methods from the mutating
    // `execute`, each call copied the whole interpreter (344 bytes) first, once a subroutine
    // call or number (a tenth of interpreting EB Garamond's charstrings, callgrind).
    private static func push(_ stack: OperandStack, _ value: Double, _ r: BinaryReader) throws {
        guard stack.push(value) else { throw r.error("more than \(OperandStack.limit) operands", at: r.offset - 1) }
    }

    static func run(cff: CFFTable, glyph: Int, recordPath: Bool = false) throws -> Result {
        let p = cff.privateFor(glyph)
        let widths = (Double(p.dict.int(CFFTable.nominalWidthX) ?? 0), Double(p.dict.int(CFFTable.defaultWidthX) ?? 0))
        return try cff.withCharString(glyph) { code in
            var interpreter = CharStringInterpreter(
                data: cff.data, globalSubrs: cff.globalSubrs, code: code, local: p.localSubrs,
                widths: widths, blend: nil, glyph: glyph, table: "CFF ", recordPath: recordPath)
            return try interpreter.run()
        }
    }

    mutating func run() throws -> Result {
        do {
            _ = try execute(code)
        } catch let e as FontError {
            throw FontError("glyph \(glyph): charstring: \(e.message)", table: table, offset: e.offset)
        }
        if open && recordPath { result.path.append(.closePath) }
        if minX <= maxX {
            result.bounds = GlyphBounds(
                xMin: Int(minX.rounded(.down)), yMin: Int(minY.rounded(.down)),
                xMax: Int(maxX.rounded(.up)), yMax: Int(maxY.rounded(.up)))
        }
        if let widths { result.width = result.width.map { $0 + widths.nominal } ?? widths.default }
        return result
    }

    /// The lowest and highest values a cubic Bézier coordinate takes inside (0, 1).
    static func extrema(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> (Double, Double) {
        var low = Double.infinity, high = -Double.infinity
        func at(_ t: Double) {
            guard t > 0 && t < 1 else { return }
            let mt = 1 - t
            let v = mt * mt * mt * a + 3 * mt * mt * t * b + 3 * mt * t * t * c + t * t * t * d
            low = min(low, v); high = max(high, v)
        }
        let qa = -a + 3 * b - 3 * c + d, qb = 2 * (a - 2 * b + c), qc = b - a
        if abs(qa) < 1e-12 {
            if abs(qb) > 1e-12 { at(-qc / qb) }
        } else {
            let disc = qb * qb - 4 * qa * qc
            if disc >= 0 { let s = disc.squareRoot(); at((-qb + s) / (2 * qa)); at((-qb - s) / (2 * qa)) }
        }
        return (low, high)
    }

    static func bias(_ count: Int) -> Int { count < 1240 ? 107 : count < 33900 ? 1131 : 32768 }

    private mutating func point(_ px: Double, _ py: Double) {
        minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
    }

    private mutating func moveTo(_ dx: Double, _ dy: Double) {
        if open && recordPath { result.path.append(.closePath) }
        x += dx; y += dy
        open = true
        if recordPath { result.path.append(.moveTo(x, y)) }
        if recordCommands { result.commands.append(.path(.moveTo(x, y))) }
    }

    private mutating func lineTo(_ dx: Double, _ dy: Double) {
        point(x, y)
        x += dx; y += dy
        point(x, y)
        if recordPath { result.path.append(.lineTo(x, y)) }
        if recordCommands { result.commands.append(.path(.lineTo(x, y))) }
    }

    private mutating func curveTo(_ d1x: Double, _ d1y: Double, _ d2x: Double, _ d2y: Double, _ d3x: Double, _ d3y: Double) {
        let x0 = x, y0 = y
        let x1 = x0 + d1x, y1 = y0 + d1y, x2 = x1 + d2x, y2 = y1 + d2y, x3 = x2 + d3x, y3 = y2 + d3y
        point(x0, y0); point(x3, y3)
        // Exact bounds: a curve whose control points lie between its ends stays between them
        // (the usual case); otherwise add its extrema, where the derivative is zero.
        let (xLow, xHigh) = x0 < x3 ? (x0, x3) : (x3, x0), (yLow, yHigh) = y0 < y3 ? (y0, y3) : (y3, y0)
        if x1 < xLow || x1 > xHigh || x2 < xLow || x2 > xHigh {
            let (low, high) = Self.extrema(x0, x1, x2, x3)
            minX = min(minX, low); maxX = max(maxX, high)
        }
        if y1 < yLow || y1 > yHigh || y2 < yLow || y2 > yHigh {
            let (low, high) = Self.extrema(y0, y1, y2, y3)
            minY = min(minY, low); maxY = max(maxY, high)
        }
        x = x3; y = y3
        if recordPath { result.path.append(.curveTo(x1, y1, x2, y2, x3, y3)) }
        if recordCommands { result.commands.append(.path(.curveTo(x1, y1, x2, y2, x3, y3))) }
    }

    /// Takes the optional width argument the first stack-clearing operator may carry: present
    /// when the argument count's parity differs from the operator's normal parity.
    private mutating func takeWidth(normalCountIsOdd: Bool) {
        guard !haveWidth, widths != nil else { return }
        haveWidth = true
        if (stack.count % 2 == 1) != normalCountIsOdd, !stack.isEmpty { result.width = stack.popFirst() }
    }

    private static func need(_ stack: OperandStack, _ n: Int, _ r: BinaryReader) throws {
        guard stack.count >= n else { throw r.error("stack underflow: need \(n) arguments, have \(stack.count)") }
    }

    /// Returns true when endchar was reached.
    private mutating func execute(_ code: BinaryReader) throws -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 11 else { throw code.error("subroutines nest deeper than 10") }
        var r = code
        while r.offset < r.count {
            let b0 = Int(r.bytes[r.offset])
            // Numbers come in runs (most of a charstring's bytes): pushed in one loop that keeps
            // its counts in registers. What it leaves (a full stack, a number cut off by the end,
            // Fixed) is read below, which throws where it always did.
            if b0 >= 32 && b0 != 255 || b0 == 28 {
                let pushed = stack.pushNumbers(r.bytes, &r.offset)
                if pushed > 0 {
                    operations += pushed
                    continue
                }
            }
            r.offset += 1
            operations += 1
            // Most bytes are small numbers: counted, and the budget checked at the next operator
            // (the stack's limit allows no more than 513 numbers before one).
            if b0 >= 32 && b0 <= 246 {
                // `push`'s check written out: calling it here cost 2 % of the caps edit (callgrind).
                guard stack.push(Double(b0 - 139)) else { throw r.error("more than \(OperandStack.limit) operands", at: r.offset - 1) }
                continue
            }
            guard operations <= Self.maximumOperations else {
                throw r.error("more than \(Self.maximumOperations) operations (subroutines fan out)")
            }
            switch b0 {
            case 247...250: try Self.push(stack, Double((b0 - 247) * 256 + Int(try r.u8()) + 108), r)
            case 251...254: try Self.push(stack, Double(-(b0 - 251) * 256 - Int(try r.u8()) - 108), r)
            case 28: try Self.push(stack, Double(try r.i16()), r)
            case 255: try Self.push(stack, try r.fixed().value, r)
            case 1, 3, 18, 23:   // hstem vstem hstemhm vstemhm
                takeWidth(normalCountIsOdd: false); stems += stack.count / 2
                if recordCommands { result.commands.append(.stems(UInt8(b0), stack.values)) }
                stack.clear()
            case 19, 20:   // hintmask cntrmask: pending vstems, then mask bytes
                takeWidth(normalCountIsOdd: false); stems += stack.count / 2
                if recordCommands && !stack.isEmpty { result.commands.append(.stems(23, stack.values)) }
                stack.clear()
                let start = r.offset
                try r.skip((stems + 7) / 8)
                if recordCommands { result.commands.append(.mask(UInt8(b0), Array(r.bytes[start..<r.offset]))) }
            case 21: takeWidth(normalCountIsOdd: false); try Self.need(stack, 2, r); moveTo(stack[0], stack[1]); stack.clear()
            case 22: takeWidth(normalCountIsOdd: true); try Self.need(stack, 1, r); moveTo(stack[0], 0); stack.clear()
            case 4: takeWidth(normalCountIsOdd: true); try Self.need(stack, 1, r); moveTo(0, stack[0]); stack.clear()
            case 5:
                var i = 0
                while i + 1 < stack.count { lineTo(stack[i], stack[i + 1]); i += 2 }
                stack.clear()
            case 6, 7:
                var horizontal = b0 == 6
                for i in 0..<stack.count { let v = stack[i]; if horizontal { lineTo(v, 0) } else { lineTo(0, v) }; horizontal.toggle() }
                stack.clear()
            case 8, 24, 25:   // rrcurveto rcurveline rlinecurve
                var i = 0
                if b0 == 25 { while stack.count - i >= 8 { lineTo(stack[i], stack[i + 1]); i += 2 } }
                while stack.count - i >= (b0 == 24 ? 8 : 6) {
                    curveTo(stack[i], stack[i + 1], stack[i + 2], stack[i + 3], stack[i + 4], stack[i + 5]); i += 6
                }
                if b0 == 24, stack.count - i >= 2 { lineTo(stack[i], stack[i + 1]) }
                stack.clear()
            case 26:   // vvcurveto
                var i = 0, dx1 = 0.0
                if stack.count % 4 == 1 { dx1 = stack[0]; i = 1 }
                while i + 3 < stack.count { curveTo(dx1, stack[i], stack[i + 1], stack[i + 2], 0, stack[i + 3]); dx1 = 0; i += 4 }
                stack.clear()
            case 27:   // hhcurveto
                var i = 0, dy1 = 0.0
                if stack.count % 4 == 1 { dy1 = stack[0]; i = 1 }
                while i + 3 < stack.count { curveTo(stack[i], dy1, stack[i + 1], stack[i + 2], stack[i + 3], 0); dy1 = 0; i += 4 }
                stack.clear()
            case 30, 31:   // vhcurveto hvcurveto
                var horizontal = b0 == 31
                var i = 0
                while i + 3 < stack.count {
                    let last = stack.count - i == 5 ? stack[i + 4] : 0
                    if horizontal {
                        curveTo(stack[i], 0, stack[i + 1], stack[i + 2], last, stack[i + 3])
                    } else {
                        curveTo(0, stack[i], stack[i + 1], stack[i + 2], stack[i + 3], last)
                    }
                    i += 4; horizontal.toggle()
                }
                stack.clear()
            case 10, 29:   // callsubr callgsubr
                try Self.need(stack, 1, r)
                let range: Range<Int>
                if b0 == 10 {
                    guard hasLocal else { throw r.error("callsubr without local subroutines") }
                    let n = Int(stack.pop()) + localBias
                    guard n >= 0, n < localItems.count else {
                        throw r.error("subroutine \(n) does not exist (\(localItems.count) defined)")
                    }
                    result.usesLocalSubrs = true
                    range = localItems[n]
                } else {
                    let n = Int(stack.pop()) + globalBias
                    guard n >= 0, n < globalItems.count else {
                        throw r.error("subroutine \(n) does not exist (\(globalItems.count) defined)")
                    }
                    range = globalItems[n]
                }
                if try execute(data.sub(range.lowerBound, range.count)) { return true }
            case 11: return false
            case 15:   // vsindex (CFF2): which variation data blend uses
                guard blend != nil else { throw r.error("vsindex outside a CFF2 charstring", at: r.offset - 1) }
                try Self.need(stack, 1, r)
                let index = Int(stack.pop())
                guard index >= 0, index < blend!.scalars.count else {
                    throw r.error("vsindex \(index) names no variation data (\(blend!.scalars.count) defined)", at: r.offset - 1)
                }
                blend!.vsindex = index
            case 16:   // blend (CFF2): n defaults, then k deltas each, then n
                guard let b = blend else { throw r.error("blend outside a CFF2 charstring", at: r.offset - 1) }
                try Self.need(stack, 1, r)
                let n = Int(stack.pop())
                // (A Private DICT's vsindex is not checked when read: a negative one names nothing.)
                let scalars = b.scalars.indices.contains(b.vsindex) ? b.scalars[b.vsindex] : []
                let k = scalars.count
                guard n >= 0, n * (k + 1) <= stack.count else {
                    throw r.error(
                        "blend of \(n) values with \(k) regions needs \(n * (k + 1)) operands, has \(stack.count)", at: r.offset - 1)
                }
                let base = stack.count - n * (k + 1)
                for i in 0..<n {
                    var v = stack[base + i]
                    for j in 0..<k where scalars[j] != 0 { v += scalars[j] * stack[base + n + i * k + j] }
                    stack[base + i] = v
                }
                stack.drop(n * k)
                result.vsindex = b.vsindex
            case 14:   // endchar (seac accent composition is not drawn)
                takeWidth(normalCountIsOdd: false)
                stack.clear()
                return true
            case 12:
                let b1 = Int(try r.u8())
                switch b1 {
                case 35:
                    try Self.need(stack, 13, r)
                    curveTo(stack[0], stack[1], stack[2], stack[3], stack[4], stack[5])
                    curveTo(stack[6], stack[7], stack[8], stack[9], stack[10], stack[11])
                case 34:
                    try Self.need(stack, 7, r)
                    let y0 = y
                    curveTo(stack[0], 0, stack[1], stack[2], stack[3], 0)
                    curveTo(stack[4], 0, stack[5], y0 - y, stack[6], 0)
                case 36:
                    try Self.need(stack, 9, r)
                    let y0 = y
                    curveTo(stack[0], stack[1], stack[2], stack[3], stack[4], 0)
                    curveTo(stack[5], 0, stack[6], stack[7], stack[8], y0 - y - stack[7])
                case 37:
                    try Self.need(stack, 11, r)
                    var dx = 0.0, dy = 0.0
                    for k in stride(from: 0, to: 10, by: 2) { dx += stack[k]; dy += stack[k + 1] }
                    curveTo(stack[0], stack[1], stack[2], stack[3], stack[4], stack[5])
                    // The last point returns to the start height (or x) on the flex's minor axis.
                    if abs(dx) > abs(dy) {
                        curveTo(stack[6], stack[7], stack[8], stack[9], stack[10], -dy)
                    } else {
                        curveTo(stack[6], stack[7], stack[8], stack[9], -dx, stack[10])
                    }
                default:
                    throw r.error("charstring operator 12 \(b1) is not supported")
                }
                if recordCommands, case .path(let second) = result.commands.removeLast(),
                    case .path(let first) = result.commands.removeLast()
                {
                    result.commands.append(.flex(first, second, b1 == 35 ? stack[12] : 50))
                }
                stack.clear()
            default:
                throw r.error("unknown charstring operator \(b0)", at: r.offset - 1)
            }
        }
        return false
    }
}

/// The operand stack: storage for CFF2's limit, made once per glyph, so pushing and clearing
/// (nearly every byte of a charstring) neither allocates nor checks uniqueness as an array's
/// appends and empties did (more than half of interpreting EB Garamond's glyphs, callgrind).
/// The interpreter checks counts (`need`, the blend guard) before it reads, so a charstring's
/// bytes cannot reach the preconditions, which stand where the array's bounds checks stood.
final class OperandStack {
    /// CFF2's maximum stack depth; Type 2 (CFF) allows 48, and more is accepted. Only `push`
    /// adds operands, and it stops here.
    static let limit = cffMaximumStack
    private let base = UnsafeMutablePointer<Double>.allocate(capacity: OperandStack.limit)
    private(set) var count = 0

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }
    var values: [Double] { Array(UnsafeBufferPointer(start: base, count: count)) }

    subscript(i: Int) -> Double {
        get {
            precondition(i >= 0 && i < count, "operand \(i) of \(count)")
            return base[i]
        }
        set {
            precondition(i >= 0 && i < count, "operand \(i) of \(count)")
            base[i] = newValue
        }
    }

    /// False, and nothing pushed, when the stack is full.
    func push(_ value: Double) -> Bool {
        guard count < Self.limit else { return false }
        base[count] = value
        count += 1
        return true
    }

    /// Pushes the run of numbers at `offset` in Type 2 encodings (32–246 one byte, 247–254 two,
    /// 28 three) and moves `offset` past them; stops before anything else, before a number the
    /// bytes cut off, and when the stack is full. Returns how many it pushed.
    func pushNumbers(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Int {
        var n = count, at = offset
        let end = bytes.count
        while at < end && n < Self.limit {
            let b = Int(bytes[at])
            if b >= 32 && b <= 246 {
                base[n] = Double(b - 139)
                at += 1
            } else if b >= 247 && b <= 254 && at + 1 < end {
                let magnitude = ((b - 247) & 3) * 256 + Int(bytes[at + 1]) + 108   // b - 247 or b - 251
                base[n] = Double(b <= 250 ? magnitude : -magnitude)
                at += 2
            } else if b == 28 && at + 2 < end {
                base[n] = Double(Int16(bitPattern: UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at + 2])))
                at += 3
            } else {
                break
            }
            n += 1
        }
        let pushed = n - count
        count = n
        offset = at
        return pushed
    }

    func pop() -> Double {
        precondition(count > 0, "pop of an empty operand stack")
        count -= 1
        return base[count]
    }

    func popFirst() -> Double {
        precondition(count > 0, "pop of an empty operand stack")
        let first = base[0]
        count -= 1
        for i in 0..<count { base[i] = base[i + 1] }   // once a glyph at most (the width)
        return first
    }

    func drop(_ n: Int) {
        precondition(n >= 0 && n <= count, "dropping \(n) of \(count) operands")
        count -= n
    }

    func clear() { count = 0 }
}
