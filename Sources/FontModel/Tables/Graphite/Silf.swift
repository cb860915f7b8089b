/// `Silf`, Graphite's rules: one or more subtables (usually one), each with its limits and
/// attribute numbers, pseudo-glyphs (code points mapped to glyphs the rules use), glyph classes
/// and passes. A pass is a finite-state machine over glyph columns whose final states select
/// rules; a rule is a constraint program and an action program (`SilfCode`). Versions 2–5
/// are read (version 1 is obsolete and graphite2 refuses it too); version 5 may be compressed.
public final class SilfTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "Silf"

    public struct Pseudo: Equatable, Sendable {
        public var unicode: UInt32
        public var glyph: UInt16
        public init(unicode: UInt32, glyph: UInt16) { self.unicode = unicode; self.glyph = glyph }
    }

    /// A justification level: attrStretch, attrShrink, attrStep, attrWeight, runto.
    public struct Justification: Equatable, Sendable {
        public static let names = ["attrStretch", "attrShrink", "attrStep", "attrWeight", "runto"]
        public var values: [UInt8]
        public init(values: [UInt8]) { self.values = values }
    }

    public struct Rule: Equatable, Sendable {
        public var sortKey: UInt16
        public var preContext: UInt8
        /// Programs (SilfCode); empty for none.
        public var constraint: [UInt8]
        public var action: [UInt8]
        public init(sortKey: UInt16, preContext: UInt8, constraint: [UInt8], action: [UInt8]) {
            self.sortKey = sortKey; self.preContext = preContext; self.constraint = constraint; self.action = action
        }
    }

    public struct Pass: Equatable, Sendable {
        /// flags, maxRuleLoop, maxRuleContext, maxBackup, minRulePreContext, maxRulePreContext,
        /// collisionThreshold (in `infoNames` order).
        public static let infoNames = [
            "flags", "maxRuleLoop", "maxRuleContext", "maxBackup", "minRulePreContext", "maxRulePreContext", "collisionThreshold",
        ]
        public var info: [UInt8]
        /// numRows, numTransitional, numSuccess, numColumns.
        public static let machineNames = ["numRows", "numTransitional", "numSuccess", "numColumns"]
        public var machine: [UInt16]
        /// The column of each glyph the pass looks at, sorted by glyph.
        public var columns: [(glyph: UInt16, column: UInt16)]
        /// For each success state (the last numSuccess rows), the rules it may fire.
        public var stateRules: [[UInt16]]
        /// The start state for each amount of preceding context, min to max.
        public var startStates: [UInt16]
        public var rules: [Rule]
        public var passConstraint: [UInt8]
        /// numTransitional rows of numColumns next states.
        public var transitions: [[UInt16]]

        public init(
            info: [UInt8], machine: [UInt16], columns: [(glyph: UInt16, column: UInt16)], stateRules: [[UInt16]], startStates: [UInt16],
            rules: [Rule], passConstraint: [UInt8], transitions: [[UInt16]]
        ) {
            self.info = info; self.machine = machine; self.columns = columns; self.stateRules = stateRules; self.startStates = startStates
            self.rules = rules; self.passConstraint = passConstraint; self.transitions = transitions
        }

        public static func == (a: Pass, b: Pass) -> Bool {
            a.info == b.info && a.machine == b.machine && a.columns.elementsEqual(b.columns, by: { $0 == $1 })
                && a.stateRules == b.stateRules
                && a.startStates == b.startStates && a.rules == b.rules && a.passConstraint == b.passConstraint
                && a.transitions == b.transitions
        }
    }

    public struct Subtable: Equatable, Sendable {
        /// Version 3 and later.
        public var ruleVersion: UInt32
        /// The subtable's scalar fields by name (`scalarNames`).
        public static let scalarNames = [
            "maxGlyphID", "extraAscent", "extraDescent", "iSubst", "iPos", "iJust", "iBidi", "flags",
            "maxPreContext", "maxPostContext", "attrPseudo", "attrBreakWeight", "attrDirectionality",
            "attrMirroring", "attrSkipPasses", "numLigComp", "numUserDefn", "maxCompPerLig", "direction",
            "attCollisions", "lbGID",
        ]
        public var scalars: [String: Int]
        public var justifications: [Justification]
        public var critFeatures: [UInt16]
        public var scriptTags: [Tag]
        public var pseudos: [Pseudo]
        public var linearClasses: [[UInt16]]
        public var nonLinearClasses: [[(glyph: UInt16, index: UInt16)]]
        public var passes: [Pass]

        public init(
            ruleVersion: UInt32, scalars: [String: Int], justifications: [Justification], critFeatures: [UInt16], scriptTags: [Tag],
            pseudos: [Pseudo], linearClasses: [[UInt16]], nonLinearClasses: [[(glyph: UInt16, index: UInt16)]], passes: [Pass]
        ) {
            self.ruleVersion = ruleVersion; self.scalars = scalars; self.justifications = justifications; self.critFeatures = critFeatures
            self.scriptTags = scriptTags; self.pseudos = pseudos; self.linearClasses = linearClasses;
            self.nonLinearClasses = nonLinearClasses
            self.passes = passes
        }

        public static func == (a: Subtable, b: Subtable) -> Bool {
            a.ruleVersion == b.ruleVersion && a.scalars == b.scalars && a.justifications == b.justifications
                && a.critFeatures == b.critFeatures
                && a.scriptTags == b.scriptTags && a.pseudos == b.pseudos && a.linearClasses == b.linearClasses
                && a.nonLinearClasses.elementsEqual(b.nonLinearClasses, by: { $0.elementsEqual($1, by: { $0 == $1 }) })
                && a.passes == b.passes
        }

        public func scalar(_ name: String) -> Int { scalars[name] ?? 0 }
    }

    public let version: UInt32
    /// Version 3 and later: the lowest compiler version whose semantics the rules need.
    public let compilerVersion: UInt32
    /// Version 5: 0 stored as is, 1 LZ4.
    public let compression: Int
    public let subtables: [Subtable]
    public let isEdited = false

    public static func == (a: SilfTable, b: SilfTable) -> Bool {
        a.version == b.version && a.compilerVersion == b.compilerVersion && a.compression == b.compression && a.subtables == b.subtables
    }

    public init(version: UInt32, compilerVersion: UInt32 = 0, compression: Int = 0, subtables: [Subtable]) {
        self.version = version; self.compilerVersion = compilerVersion; self.compression = compression; self.subtables = subtables
    }

    // MARK: reading

    public static func decode(_ reader: BinaryReader, face: Face) throws -> SilfTable {
        let version = try reader.u32(at: 0)
        guard version >= 0x0002_0000 else {
            throw reader.error("Silf version \(Graphite.versionText(version)) is obsolete and not read (versions 2 to 5 are)", at: 0)
        }
        let (bytes, compression) = version >= 0x0005_0000 ? try Graphite.expand(reader, tableTag) : (Array(reader.bytes), 0)
        return try bytes.withUnsafeBytes { raw in
            var r = BinaryReader(raw, base: compression == 0 ? reader.base : 0)
            try r.skip(4)
            let compilerVersion = version >= 0x0003_0000 ? try r.u32() : 0
            let count = Int(try r.u16())
            try r.skip(2)
            guard count <= r.remaining / 4 else { throw r.error("Silf claims \(count) subtables, more than the table holds") }
            let offsets = try (0..<count).map { _ in Int(try r.u32()) }
            let subtables = try offsets.enumerated().map { k, offset in
                do {
                    return try readSubtable(try r.sub(from: offset), version: version)
                } catch let error as FontError {
                    throw FontError("subtable \(k): " + error.message, offset: error.offset)
                }
            }
            return SilfTable(version: version, compilerVersion: compilerVersion, compression: compression, subtables: subtables)
        }
    }

    static func readSubtable(_ s: BinaryReader, version: UInt32) throws -> Subtable {
        var r = s
        var scalars: [String: Int] = [:]
        let ruleVersion = version >= 0x0003_0000 ? try r.u32() : 0
        if version >= 0x0003_0000 { try r.skip(4) }   // passOffset, pseudosOffset: implied by the layout
        scalars["maxGlyphID"] = Int(try r.u16())
        scalars["extraAscent"] = Int(try r.i16()); scalars["extraDescent"] = Int(try r.i16())
        let passCount = Int(try r.u8())
        for name in [
            "iSubst", "iPos", "iJust", "iBidi", "flags", "maxPreContext", "maxPostContext", "attrPseudo", "attrBreakWeight",
            "attrDirectionality", "attrMirroring", "attrSkipPasses",
        ] { scalars[name] = Int(try r.u8()) }
        let levelCount = Int(try r.u8())
        let justifications = try (0..<levelCount).map { _ -> Justification in
            defer { r.offset += 3 }
            return Justification(values: try r.bytes(5))
        }
        try r.need(8)
        scalars["numLigComp"] = Int(try r.u16())
        for name in ["numUserDefn", "maxCompPerLig", "direction", "attCollisions"] { scalars[name] = Int(try r.u8()) }
        try r.skip(3)
        let critCount = Int(try r.u8())
        let critFeatures = try (0..<critCount).map { _ in try r.u16() }
        try r.skip(1)
        let scriptCount = Int(try r.u8())
        let scriptTags = try (0..<scriptCount).map { _ in try r.tag() }
        scalars["lbGID"] = Int(try r.u16())
        let passOffsets = try (0...passCount).map { _ in Int(try r.u32()) }
        let pseudoCount = Int(try r.u16())
        try r.skip(6)
        guard pseudoCount <= r.remaining / 6 else { throw r.error("\(pseudoCount) pseudo-glyphs do not fit the table") }
        let pseudos = try (0..<pseudoCount).map { _ in Pseudo(unicode: try r.u32(), glyph: try r.u16()) }
        let (linear, nonLinear) = try readClasses(try s.sub(from: r.offset), wideOffsets: version >= 0x0004_0000)
        var passes: [Pass] = []
        for k in 0..<passCount {
            let start = passOffsets[k], end = passOffsets[k + 1]
            guard start <= end else { throw s.error("pass \(k) ends (\(end)) before it starts (\(start))", at: r.offset) }
            do {
                passes.append(try readPass(try s.sub(start, end - start)))
            } catch let error as FontError {
                throw FontError("pass \(k): " + error.message, offset: error.offset)
            }
        }
        return Subtable(
            ruleVersion: ruleVersion, scalars: scalars, justifications: justifications, critFeatures: critFeatures, scriptTags: scriptTags,
            pseudos: pseudos, linearClasses: linear, nonLinearClasses: nonLinear, passes: passes)
    }

    /// The class map: linear classes (glyph lists, for output) then non-linear ones (sorted
    /// glyph → index pairs, for input); offsets are 32-bit from version 4.
    static func readClasses(_ c: BinaryReader, wideOffsets: Bool) throws -> ([[UInt16]], [[(glyph: UInt16, index: UInt16)]]) {
        var r = c
        let classCount = Int(try r.u16()), linearCount = Int(try r.u16())
        guard linearCount <= classCount else { throw r.error("\(linearCount) linear classes of \(classCount) in all") }
        guard classCount < r.remaining / (wideOffsets ? 4 : 2) else { throw r.error("\(classCount) classes do not fit the table") }
        let offsets = try (0...classCount).map { _ in wideOffsets ? Int(try r.u32()) : Int(try r.u16()) }
        func range(_ k: Int) throws -> BinaryReader {
            guard offsets[k] <= offsets[k + 1] else {
                throw c.error("class \(k) ends (\(offsets[k + 1])) before it starts (\(offsets[k]))", at: 4)
            }
            return try c.sub(offsets[k], offsets[k + 1] - offsets[k])
        }
        let linear = try (0..<linearCount).map { k in
            var g = try range(k)
            return try (0..<g.count / 2).map { _ in try g.u16() }
        }
        let nonLinear = try (linearCount..<classCount).map { k in
            var g = try range(k)
            guard g.count >= 8 else { return [(glyph: UInt16, index: UInt16)]() }
            try g.skip(8)
            return try (0..<g.remaining / 4).map { _ in (glyph: try g.u16(), index: try g.u16()) }
        }
        return (linear, nonLinear)
    }

    static func readPass(_ p: BinaryReader) throws -> Pass {
        var r = p
        var info = [UInt8](repeating: 0, count: 7)
        for k in 0..<4 { info[k] = try r.u8() }
        let ruleCount = Int(try r.u16())
        try r.skip(2 + 16)   // fsmOffset and the code offsets: implied by the layout
        let machine = try (0..<4).map { _ in try r.u16() }
        let (transitionalCount, successCount, columnCount) = (Int(machine[1]), Int(machine[2]), Int(machine[3]))
        let rangeCount = Int(try r.u16())
        try r.skip(6)
        guard rangeCount <= r.remaining / 6 else { throw r.error("\(rangeCount) glyph ranges do not fit the pass") }
        var columnOf: [UInt16: UInt16] = [:]
        var covered = 0
        for _ in 0..<rangeCount {
            let first = try r.u16(), last = try r.u16(), column = try r.u16()
            guard first <= last else { throw r.error("a glyph range runs backwards (\(first)–\(last))", at: r.offset - 6) }
            covered += Int(last - first) + 1
            guard covered <= 0x10000 else { throw r.error("the glyph ranges overlap (more than 65,536 glyphs in all)", at: r.offset - 6) }
            for g in first...last { columnOf[g] = column }
        }
        let columns = columnOf.sorted { $0.key < $1.key }.map { (glyph: $0.key, column: $0.value) }
        guard successCount < r.remaining / 2 else { throw r.error("\(successCount) success states do not fit the pass") }
        let ruleMapOffsets = try (0...successCount).map { _ in Int(try r.u16()) }
        let ruleMapCount = ruleMapOffsets.last ?? 0
        guard ruleMapCount <= r.remaining / 2 else { throw r.error("\(ruleMapCount) rule-map entries do not fit the pass") }
        let ruleMap = try (0..<ruleMapCount).map { _ in try r.u16() }
        let stateRules = try (0..<successCount).map { k -> [UInt16] in
            let a = ruleMapOffsets[k], b = ruleMapOffsets[k + 1]
            guard a <= b, b <= ruleMapCount else {
                throw r.error("success state \(k)'s rules (\(a)..<\(b)) lie outside the rule map (\(ruleMapCount))")
            }
            return Array(ruleMap[a..<b])
        }
        info[4] = try r.u8(); info[5] = try r.u8()
        guard info[4] <= info[5] else {
            throw r.error("minRulePreContext \(info[4]) is more than maxRulePreContext \(info[5])", at: r.offset - 2)
        }
        let startStates = try (0...Int(info[5] - info[4])).map { _ in try r.u16() }
        guard ruleCount <= r.remaining / 7 else { throw r.error("\(ruleCount) rules do not fit the pass") }
        let sortKeys = try (0..<ruleCount).map { _ in try r.u16() }
        let preContexts = try r.bytes(ruleCount)
        info[6] = try r.u8()
        let passConstraintLength = Int(try r.u16())
        var constraintOffsets = try (0...ruleCount).map { _ in Int(try r.u16()) }
        let actionOffsets = try (0...ruleCount).map { _ in Int(try r.u16()) }
        guard transitionalCount * columnCount <= r.remaining / 2 else {
            throw r.error("\(transitionalCount)×\(columnCount) transitions do not fit the pass")
        }
        let transitions = try (0..<transitionalCount).map { _ in try (0..<columnCount).map { _ in try r.u16() } }
        try r.skip(1)
        let passConstraint = try r.bytes(passConstraintLength)
        // A rule without a constraint has offset 0: it takes the next rule's start.
        for k in stride(from: ruleCount - 1, through: 0, by: -1) where constraintOffsets[k] == 0 {
            constraintOffsets[k] = constraintOffsets[k + 1]
        }
        let constraintBlock = try r.sub(r.offset, constraintOffsets[ruleCount])
        let actionBlock = try r.sub(r.offset + constraintOffsets[ruleCount], actionOffsets[ruleCount])
        // A program of one byte or none is no program, as fontTools reads them.
        func program(_ block: BinaryReader, _ offsets: [Int], _ k: Int, _ what: String) throws -> [UInt8] {
            let a = offsets[k], b = offsets[k + 1]
            guard a <= b else { throw block.error("rule \(k)'s \(what) ends (\(b)) before it starts (\(a))") }
            return b - a > 1 ? Array(try block.sub(a, b - a).bytes) : []
        }
        let rules = try (0..<ruleCount).map { k in
            Rule(
                sortKey: sortKeys[k], preContext: preContexts[k],
                constraint: try program(constraintBlock, constraintOffsets, k, "constraint"),
                action: try program(actionBlock, actionOffsets, k, "action"))
        }
        return Pass(
            info: info, machine: machine, columns: columns, stateRules: stateRules, startStates: startStates, rules: rules,
            passConstraint: passConstraint, transitions: transitions)
    }

    // MARK: writing

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u32(version)
        if version >= 0x0003_0000 { w.u32(compilerVersion) }
        try w.u16(subtables.count, "Silf subtable count"); w.u16(0)
        var bodies: [[UInt8]] = []
        var at = w.count + 4 * subtables.count
        for (k, s) in subtables.enumerated() {
            let body: [UInt8]
            do { body = try Self.encode(s, version: version) } catch let error as FontError {
                throw FontError("subtable \(k): \(error.message)", table: "Silf")
            }
            try w.u32(at, "Silf subtable offset")
            at += body.count
            bodies.append(body)
        }
        for b in bodies { w.append(b) }
        return try Graphite.compress(w.bytes, scheme: version >= 0x0005_0000 ? compression : 0, "Silf")
    }

    static func encode(_ s: Subtable, version: UInt32) throws -> [UInt8] {
        let header = version >= 0x0003_0000 ? 8 : 0
        var w = BinaryWriter()
        func u8(_ name: String) throws { try w.u8(s.scalar(name), name) }
        try w.u16(s.scalar("maxGlyphID"), "maxGlyphID"); try w.i16(s.scalar("extraAscent"), "extraAscent");
        try w.i16(s.scalar("extraDescent"), "extraDescent")
        try w.u8(s.passes.count, "Silf pass count")
        for name in [
            "iSubst", "iPos", "iJust", "iBidi", "flags", "maxPreContext", "maxPostContext", "attrPseudo", "attrBreakWeight",
            "attrDirectionality", "attrMirroring", "attrSkipPasses",
        ] { try u8(name) }
        try w.u8(s.justifications.count, "Silf justification level count")
        for j in s.justifications {
            guard j.values.count == 5 else { throw FontError("a justification level needs 5 values, not \(j.values.count)") }
            w.append(j.values); w.append([0, 0, 0])
        }
        try w.u16(s.scalar("numLigComp"), "numLigComp")
        for name in ["numUserDefn", "maxCompPerLig", "direction", "attCollisions"] { try u8(name) }
        w.append([0, 0, 0])
        try w.u8(s.critFeatures.count, "critical feature count")
        for f in s.critFeatures { w.u16(f) }
        w.u8(0)
        try w.u8(s.scriptTags.count, "script tag count")
        for t in s.scriptTags { w.tag(t) }
        try w.u16(s.scalar("lbGID"), "lbGID")
        let passOffsetsAt = header + w.count
        // Pseudo-glyphs and classes, then the passes.
        var middle = BinaryWriter()
        try Graphite.writeSearchHeader(&middle, count: s.pseudos.count)
        for p in s.pseudos.sorted(by: { $0.unicode < $1.unicode }) { middle.u32(p.unicode); middle.u16(p.glyph) }
        try writeClasses(&middle, s, wideOffsets: version >= 0x0004_0000)
        let pseudosAt = passOffsetsAt + 4 * (s.passes.count + 1)
        var passStart = passOffsetsAt + 4 * (s.passes.count + 1) + middle.count
        var passBodies: [[UInt8]] = []
        for (k, p) in s.passes.enumerated() {
            do { passBodies.append(try encode(p, at: passStart)) } catch let error as FontError {
                throw FontError("pass \(k): \(error.message)")
            }
            passStart += passBodies[k].count
        }
        var out = BinaryWriter()
        if header > 0 {
            out.u32(s.ruleVersion); try out.u16(passOffsetsAt, "Silf pass offset"); try out.u16(pseudosAt, "Silf pseudo-glyph offset")
        }
        out.append(w.bytes)
        var offset = passOffsetsAt + 4 * (s.passes.count + 1) + middle.count
        for b in passBodies { try out.u32(offset, "Silf pass offset"); offset += b.count }
        try out.u32(offset, "Silf pass offset")
        out.append(middle.bytes)
        for b in passBodies { out.append(b) }
        return out.bytes
    }

    static func writeClasses(_ w: inout BinaryWriter, _ s: Subtable, wideOffsets: Bool) throws {
        let count = s.linearClasses.count + s.nonLinearClasses.count
        var data = BinaryWriter()
        var offsets: [Int] = []
        let start = 4 + (wideOffsets ? 4 : 2) * (count + 1)
        for c in s.linearClasses {
            offsets.append(start + data.count)
            for g in c { data.u16(g) }
        }
        for c in s.nonLinearClasses {
            offsets.append(start + data.count)
            try Graphite.writeSearchHeader(&data, count: c.count)
            for pair in c.sorted(by: { $0.glyph < $1.glyph }) { data.u16(pair.glyph); data.u16(pair.index) }
        }
        offsets.append(start + data.count)
        try w.u16(count, "Silf class count"); try w.u16(s.linearClasses.count, "Silf linear class count")
        for o in offsets {
            if wideOffsets {
                try w.u32(o, "Silf class offset")
            } else {
                try w.u16(o, "Silf class offset (classes need Silf version 4 past 64 KB)")
            }
        }
        w.append(data.bytes)
    }

    /// One pass, laid out as graphite2 expects it: code offsets count from the subtable's start,
    /// where this pass begins at `base`.
    static func encode(_ p: Pass, at base: Int) throws -> [UInt8] {
        guard p.info.count == 7, p.machine.count == 4 else { throw FontError("a pass needs 7 info and 4 machine values") }
        let (rows, transitional, success, columnCount) = (Int(p.machine[0]), Int(p.machine[1]), Int(p.machine[2]), Int(p.machine[3]))
        guard p.stateRules.count == success else { throw FontError("numSuccess is \(success) but \(p.stateRules.count) states have rules") }
        guard p.transitions.count == transitional else {
            throw FontError("numTransitional is \(transitional) but there are \(p.transitions.count) rows")
        }
        for (k, row) in p.transitions.enumerated() where row.count != columnCount {
            throw FontError("transition row \(k) has \(row.count) columns, not numColumns \(columnCount)")
        }
        guard transitional <= rows, success <= rows else {
            throw FontError("numRows \(rows) is less than numTransitional \(transitional) or numSuccess \(success)")
        }
        let (minContext, maxContext) = (Int(p.info[4]), Int(p.info[5]))
        let startStates = p.transitions.isEmpty ? [0] : p.startStates
        guard minContext <= maxContext, startStates.count == maxContext - minContext + 1 || p.transitions.isEmpty else {
            throw FontError("\(startStates.count) start states for pre-contexts \(minContext)...\(maxContext)")
        }
        // Runs of consecutive glyphs in the same column.
        var ranges: [(UInt16, UInt16, UInt16)] = []
        for c in p.columns {
            if let last = ranges.last, last.1 &+ 1 == c.glyph, last.2 == c.column {
                ranges[ranges.count - 1].1 = c.glyph
            } else {
                ranges.append((c.glyph, c.glyph, c.column))
            }
        }
        let ruleMapCount = p.stateRules.reduce(0) { $0 + $1.count }
        let ruleCount = p.rules.count
        let transitionsAt =
            40 + 6 * ranges.count + 2 * (success + 1) + 2 * ruleMapCount + 2 + 2 * startStates.count + 3 * ruleCount + 3 + 4
            * (ruleCount + 1)
        let constraintLength = 1 + p.rules.reduce(0) { $0 + $1.constraint.count }
        let passConstraintAt = base + transitionsAt + 2 * transitional * columnCount + 1
        var w = BinaryWriter()
        w.append(p.info[0..<4])
        // fsmOffset: where numRows sits in this header, as the Graphite compiler writes it
        // (graphite2 does not read it; fontTools writes the transitions' offset).
        try w.u16(ruleCount, "rule count"); w.u16(24)
        try w.u32(passConstraintAt, "pass constraint offset")
        try w.u32(passConstraintAt + p.passConstraint.count, "rule constraint offset")
        try w.u32(passConstraintAt + p.passConstraint.count + constraintLength, "action offset")
        w.u32(0)   // no debug information
        for v in p.machine { w.u16(v) }
        try Graphite.writeSearchHeader(&w, count: ranges.count)
        for (first, last, column) in ranges { w.u16(first); w.u16(last); w.u16(column) }
        var at = 0
        for state in p.stateRules { try w.u16(at, "rule map offset"); at += state.count }
        try w.u16(at, "rule map offset")
        for state in p.stateRules { for rule in state { w.u16(rule) } }
        w.u8(p.info[4]); w.u8(p.info[5])
        for s in startStates { w.u16(s) }
        for r in p.rules { w.u16(r.sortKey) }
        for r in p.rules { w.u8(r.preContext) }
        w.u8(p.info[6]); try w.u16(p.passConstraint.count, "pass constraint length")
        // The constraint block starts with a zero byte, so offset 0 can mean "no constraint".
        at = 1
        for r in p.rules { try w.u16(r.constraint.isEmpty ? 0 : at, "constraint offset"); at += r.constraint.count }
        try w.u16(at, "constraint offset")
        at = 0
        for r in p.rules { try w.u16(at, "action offset"); at += r.action.count }
        try w.u16(at, "action offset")
        for row in p.transitions { for t in row { w.u16(t) } }
        w.u8(0)
        w.append(p.passConstraint)
        w.u8(0)
        for r in p.rules { w.append(r.constraint) }
        for r in p.rules { w.append(r.action) }
        return w.bytes
    }

    // MARK: diff

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? SilfTable else { return nil }
        return Difference.keyed(table: "Silf", diffItems(), other.diffItems())
    }

    /// The table flattened for diff: scalars, classes and each rule's programs as text.
    func diffItems() -> [(String, String)] {
        var out = [
            ("version", Graphite.versionText(version)), ("compilerVersion", "\(compilerVersion)"), ("compression", "\(compression)"),
        ]
        func code(_ bytes: [UInt8]) -> String { ((try? SilfCode.disassemble(bytes)) ?? bytes.map { String($0) }).joined(separator: "; ") }
        for (k, s) in subtables.enumerated() {
            let at = "subtable \(k) "
            for name in Subtable.scalarNames { out.append((at + name, "\(s.scalar(name))")) }
            out.append((at + "justifications", s.justifications.map { "\($0.values)" }.joined(separator: " ")))
            out.append(
                (
                    at + "pseudo-glyphs",
                    s.pseudos.map { "U+\(String($0.unicode, radix: 16, uppercase: true))→\($0.glyph)" }.joined(separator: " ")
                ))
            for (c, glyphs) in s.linearClasses.enumerated() {
                out.append((at + "class \(c)", glyphs.map(String.init).joined(separator: " ")))
            }
            for (c, pairs) in s.nonLinearClasses.enumerated() {
                out.append((at + "class \(c + s.linearClasses.count)", pairs.map { "\($0.glyph)=\($0.index)" }.joined(separator: " ")))
            }
            for (n, p) in s.passes.enumerated() {
                let pass = at + "pass \(n) "
                out.append(
                    (
                        pass + "info",
                        zip(Pass.infoNames + Pass.machineNames, p.info.map(Int.init) + p.machine.map(Int.init)).map { "\($0)=\($1)" }
                            .joined(separator: " ")
                    ))
                out.append((pass + "columns", p.columns.map { "\($0.glyph)=\($0.column)" }.joined(separator: " ")))
                out.append((pass + "state machine", "starts \(p.startStates) rules \(p.stateRules) rows \(p.transitions)"))
                out.append((pass + "pass constraint", code(p.passConstraint)))
                for (i, r) in p.rules.enumerated() {
                    out.append(
                        (
                            pass + "rule \(i)",
                            "sortkey \(r.sortKey) precontext \(r.preContext) constraint [\(code(r.constraint))] action [\(code(r.action))]"
                        ))
                }
            }
        }
        return out
    }
}
