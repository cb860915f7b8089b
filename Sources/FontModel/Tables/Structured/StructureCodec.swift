/// Reads and writes structured tables from their `Shape`. Reading checks every offset, count
/// and format against the bytes and bounds the work (nesting depth, and values decoded per byte:
/// offsets that point many times at the same subtable cannot blow up). Writing lays each
/// subtable out after its parent's fixed part, depth first, sharing identical subtables of one
/// parent, with every count taken from its array; an offset that does not fit its size is an
/// error naming where.
public enum StructureCodec {
    /// Deeper nesting than any OpenType table has: a cycle or an attack.
    public static let maximumDepth = 48

    /// Decodes a table. With `lazy`, members marked lazy (a lookup's subtables) are left as
    /// `LazySubtable`s holding a copy of the table's bytes, decoded when first used.
    /// With `keepingDamage`, a subtable that does not decode (an unknown format, a bad offset, a
    /// structure not described) becomes `.opaque` where its offset points, instead of an error.
    public static func decode(_ reader: BinaryReader, _ shape: Shape, name: String, lazy: Bool = false, keepingDamage: Bool = false) throws
        -> StructValue
    {
        try decodeNotingDamage(reader, shape, name: name, lazy: lazy, keepingDamage: keepingDamage).value
    }

    /// `decode`, also saying whether any subtable was kept as bytes.
    static func decodeNotingDamage(
        _ reader: BinaryReader, _ shape: Shape, name: String, lazy: Bool, keepingDamage: Bool,
        glyphCount: Int? = nil
    ) throws -> (value: StructValue, damaged: Bool) {
        var decoder = Decoder(table: reader, budget: 16 * reader.count + 4096)
        decoder.keepDamage = keepingDamage
        decoder.glyphCount = glyphCount
        let source = lazy ? LazySubtable.Source(data: Array(reader.bytes), fileBase: reader.base, name: name, budget: 0) : nil
        decoder.lazySource = source
        var position = 0
        do {
            let value = try decoder.value(shape, at: &position, base: 0, version: nil, depth: 0)
            source?.budget = decoder.budget
            return (value, decoder.keptAny)
        } catch let f as Decoder.Failure {
            let path = f.components.reduce(name) { $1.hasPrefix("[") ? $0 + $1 : $0 + "." + $1 }
            throw reader.error(path + ": " + f.message, at: f.position)
        } catch let u as UndescribedStructure {
            throw UndescribedStructure(description: name + ": " + u.description)
        }
    }

    /// Decodes one lazy subtable, spending from its table's shared budget.
    static func decodeSubtable(
        _ reader: BinaryReader, at start: Int, _ shape: Shape, scope: StructScope, version: UInt32?,
        depth: Int, source: LazySubtable.Source, path: String
    ) throws -> StructValue {
        var decoder = Decoder(table: reader, budget: source.budget)
        decoder.scope = scope
        decoder.lazySource = source
        decoder.trail = [(path, -1)]
        defer { source.budget = decoder.budget }
        var position = start
        do {
            // The depth it hangs at: lazy subtables inside lazy subtables count towards the limit.
            guard depth < StructureCodec.maximumDepth else {
                throw decoder.fail("subtables nested deeper than \(StructureCodec.maximumDepth) (a cycle?)", at: start)
            }
            return try decoder.value(shape, at: &position, base: start, version: version, depth: depth)
        } catch let f as Decoder.Failure {
            let full = f.components.reduce(source.name + "." + path) { $1.hasPrefix("[") ? $0 + $1 : $0 + "." + $1 }
            throw reader.error(full + ": " + f.message, at: f.position)
        } catch let u as UndescribedStructure {
            throw UndescribedStructure(description: source.name + "." + path + ": " + u.description)
        }
    }

    public static func encode(_ value: StructValue, _ shape: Shape, name: String) throws -> [UInt8] {
        var encoder = Encoder()
        let root = try encoder.node(value, shape, scope: StructScope(), version: nil, path: name)
        return try encoder.graph.layout(root: root)
    }

    /// ValueRecord fields by ValueFormat bit, in binary order (the last four are Device offsets).
    public static let valueRecordFields = [
        "XPlacement", "YPlacement", "XAdvance", "YAdvance",
        "XPlaDevice", "YPlaDevice", "XAdvDevice", "YAdvDevice",
    ]

    // MARK: reading

    struct Decoder {
        let table: BinaryReader
        /// Values left to decode before the table is refused as fanning out.
        var budget: Int
        var scope = StructScope()
        /// Set for a lazy decode: lazy members become `LazySubtable`s over these bytes.
        var lazySource: LazySubtable.Source?
        /// Whether a subtable that does not decode is kept as bytes (`.opaque`), and how many
        /// bytes were kept so (bounded: four times the table, plus 64 KB).
        var keepDamage = false
        var keptBytes = 0
        /// Whether any part was kept as bytes (an offset past the end keeps none).
        var keptAny = false
        /// The font's glyph count, for AAT lookups of format 0 (a value per glyph).
        var glyphCount: Int?
        /// How many more AAT lookups may map glyphs beyond the budget (see `aatLookup`).
        var lookupsWithAllowance = 16
        /// The list items being decoded ("Lookup", 3), to name where a lazy subtable hangs (a
        /// lazy subtable's decoder starts from its own path, index -1).
        var trail: [(String, Int)] = []
        var trailText: String { trail.map { $0.1 < 0 ? "\($0.0)." : "\($0.0)[\($0.1)]." }.joined() }

        /// Where decoding failed; the members it was in are added as the error goes up, so no
        /// path is built while nothing fails.
        struct Failure: Error {
            var components: [String] = []
            let message: String
            let position: Int
            /// The work bound was reached: never kept as an opaque subtable.
            var exhausted = false

            /// The failure as seen from the record holding `member` ("Coverage", "PairSet[3]").
            func within(_ member: String) -> Failure {
                var f = self
                if let bracket = member.firstIndex(of: "[") {
                    f.components.insert(String(member[bracket...]), at: 0)
                    f.components.insert(String(member[..<bracket]), at: 0)
                } else {
                    f.components.insert(member, at: 0)
                }
                return f
            }
        }

        /// A subtable that did not decode, as its bytes from `start` to the table's end; past the
        /// bound on kept bytes, the failure is thrown after all.
        mutating func kept(_ target: Shape, from start: Int, _ why: OpaqueSubtable, failure: Error) throws -> StructValue {
            let count = table.count - start
            guard keptBytes + count <= 4 * table.count + 65536 else { throw failure }
            keptBytes += count
            keptAny = true
            let opaque = StructValue.opaque(
                OpaqueSubtable(
                    bytes: Array(table.bytes[start...]), reason: why.reason, offset: why.offset, isUndescribed: why.isUndescribed))
            if case .switched(let selector, let cases) = target, let key = scope.lookup(selector).map(Int.init), cases[key] != nil {
                return .switched(key, opaque)
            }
            return opaque
        }

        func fail(_ message: String, at position: Int) -> Failure {
            Failure(message: message, position: min(max(position, 0), table.count))
        }

        /// An offset (stored at `position`) past the table's end: the error, or, when damage is
        /// kept, an empty kept part in its place, so the rest of the table still reads.
        mutating func pastTheEnd(_ offset: Int, _ target: Shape, at position: Int) throws -> StructValue {
            let failure = fail("offset \(offset) points past the end of the table (\(table.count) bytes)", at: position)
            guard keepDamage else { throw failure }
            return try kept(
                target, from: table.count, OpaqueSubtable(bytes: [], reason: failure.message, offset: table.base + position),
                failure: failure)
        }

        mutating func spend(_ n: Int, at position: Int) throws {
            budget -= n
            guard budget >= 0 else {
                var f = fail("more structure than the table's bytes can hold (offsets that fan out or loop)", at: position)
                f.exhausted = true
                throw f
            }
        }

        func scalar(_ kind: FieldKind, at position: Int) throws -> Int64 {
            guard position >= 0, position <= table.count - kind.size else {
                throw fail("\(kind.typeName) at \(position) runs past the end of the table (\(table.count) bytes)", at: position)
            }
            var r = table
            r.offset = position
            return try FieldTable.read(kind, &r)
        }

        func u16(_ position: Int) throws -> Int { Int(try scalar(.uint16, at: position)) }

        mutating func value(_ shape: Shape, at position: inout Int, base: Int, version: UInt32?, depth: Int) throws -> StructValue {
            try spend(1, at: position)
            switch shape {
            case .scalar(let kind):
                let v = try scalar(kind, at: position)
                position += kind.size
                return .int(v)
            case .glyph:
                let v = try u16(position)
                position += 2
                return .int(Int64(v))
            case .record(let record):
                return .record(try fields(record, at: &position, base: base, version: version, depth: depth))
            case .offset(let target, let size):
                let offset = Int(try scalar(StructureCodec.offsetKind(size), at: position))
                position += size
                guard offset != 0 else { return .none }
                guard depth < StructureCodec.maximumDepth else {
                    throw fail("subtables nested deeper than \(StructureCodec.maximumDepth) (a cycle?)", at: position - size)
                }
                let start = base + offset
                guard start < table.count else { return try pastTheEnd(offset, target, at: position - size) }
                var p = start
                guard keepDamage else { return try value(target, at: &p, base: start, version: version, depth: depth + 1) }
                let saved = scope
                do {
                    return try value(target, at: &p, base: start, version: version, depth: depth + 1)
                } catch let f as Failure where !f.exhausted {
                    scope = saved
                    let inside = f.components.reduce("") { $1.hasPrefix("[") || $0.isEmpty ? $0 + $1 : $0 + "." + $1 }
                    return try kept(
                        target, from: start,
                        OpaqueSubtable(
                            bytes: [], reason: (inside.isEmpty ? "" : inside + ": ") + f.message, offset: table.base + f.position),
                        failure: f)
                } catch let u as UndescribedStructure {
                    scope = saved
                    return try kept(target, from: start, OpaqueSubtable(bytes: [], reason: u.description, isUndescribed: true), failure: u)
                }
            case .formats(let name, let records), .formats8(let name, let records):
                let wide = if case .formats = shape { true } else { false }
                let format = wide ? try u16(position) : Int(try scalar(.uint8, at: position))
                guard let record = records[format] else {
                    throw fail(
                        "unknown \(name) format \(format) (known: \(records.keys.sorted().map(String.init).joined(separator: ", ")))",
                        at: position)
                }
                position += wide ? 2 : 1
                return .formatted(format, try fields(record, at: &position, base: base, version: version, depth: depth))
            case .switched(let selector, let cases):
                guard let key = scope.lookup(selector).map(Int.init) else { throw fail("\(selector) is not known here", at: position) }
                guard let chosen = cases[key] else {
                    // A feature tag reads better as its letters.
                    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: key >> $0) }
                    let keyText =
                        key >> 32 == 0 && key > 0xFFFF && bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
                        ? "'\(String(decoding: bytes, as: UTF8.self))'" : "\(key)"
                    throw fail("no layout is described for \(selector) \(keyText)", at: position)
                }
                return .switched(key, try value(chosen.shape, at: &position, base: base, version: version, depth: depth))
            case .valueRecord(let formatName):
                let format = Int(scope.lookup(formatName) ?? 0)
                var fields = StructFields()
                for (bit, name) in StructureCodec.valueRecordFields.enumerated() where format & (1 << bit) != 0 {
                    if bit < 4 {
                        fields[name] = .int(try scalar(.int16, at: position))
                        position += 2
                    } else {
                        fields[name] = try value(.offset16(.device), at: &position, base: base, version: version, depth: depth)
                    }
                }
                return .record(fields)
            case .coverage: return try coverage(at: position)
            case .classDef: return try classDef(at: position)
            case .device: return try device(at: position)
            case .substitutions(let kind): return try substitutions(kind, at: position, depth: depth)
            case .deltaRow(let shortsName, let columnsName):
                let (wide, narrow, shorts) = StructureCodec.deltaKinds(scope.lookup(shortsName) ?? 0)
                let columns = Int(scope.lookup(columnsName) ?? 0)
                guard shorts <= columns else {
                    throw fail("\(shortsName) \(shorts) is more than the \(columns) deltas of a row", at: position)
                }
                try spend(columns, at: position)
                var row: [StructValue] = []
                row.reserveCapacity(columns)
                for k in 0..<columns {
                    let kind = k < shorts ? wide : narrow
                    row.append(.int(try scalar(kind, at: position)))
                    position += kind.size
                }
                return .list(row)
            case .clipList: return try clipList(at: &position, depth: depth)
            case .aatLookup(let valueShape): return try aatLookup(valueShape, at: &position, base: base, version: version, depth: depth)
            case .aatLookupWithData(let valueShape):
                return try aatLookupWithData(valueShape, at: &position, base: base, version: version, depth: depth)
            case .recursive(_, let make): return try value(make(), at: &position, base: base, version: version, depth: depth)
            case .custom(let leaf):
                var reader = table
                var context = LeafContext(glyphCount: glyphCount, budget: budget)
                let value: StructValue
                do {
                    try reader.seek(position)
                    value = try leaf.decode(&reader, &context)
                } catch let error as FontError {
                    var failure = fail(error.message, at: (error.offset ?? table.base + position) - table.base)
                    failure.exhausted = context.budget < 0   // never kept as bytes: the table is refused
                    throw failure
                }
                budget = context.budget
                position = reader.offset
                return value
            case .undescribed(let what): throw UndescribedStructure(description: "\(what) is not described yet, so it is kept as bytes")
            }
        }

        mutating func fields(_ record: Record, at position: inout Int, base: Int, version: UInt32?, depth: Int) throws -> StructFields {
            var out = StructFields(capacity: record.members.count)
            var version = version
            scope.enter()
            defer { scope.leave() }
            var deferred: [(member: Member, target: Shape, start: Int)] = []
            for (i, member) in record.members.enumerated() {
                guard scope.includes(member, version: version) else { continue }
                if let countName = member.count {
                    let n = Int(scope.lookup(countName) ?? 0) + member.countBias
                    guard n >= 0 else {
                        throw fail("\(countName) is 0; at least \(-member.countBias) expected", at: position).within(member.name)
                    }
                    try spend(n, at: position)
                    var items: [StructValue] = []
                    items.reserveCapacity(n)
                    if member.lazy, let source = lazySource, case .offset(let target, let size) = member.shape {
                        let where_ = trailText
                        for k in 0..<n {
                            let offset = Int(try scalar(size == 2 ? .uint16 : .uint32, at: position))
                            position += size
                            guard offset != 0 else { items.append(.none); continue }
                            guard base + offset < table.count else {
                                do { items.append(try pastTheEnd(offset, target, at: position - size)) } catch let f as Failure {
                                    throw f.within("\(member.name)[\(k)]")
                                }
                                continue
                            }
                            items.append(
                                .lazy(
                                    LazySubtable(
                                        source: source, start: base + offset, shape: target, scope: scope,
                                        version: version, depth: depth + 1, path: where_ + "\(member.name)[\(k)]")))
                        }
                        out[member.name] = .list(items)
                        continue
                    }
                    let hops = lazySource != nil && { if case .offset = member.shape { true } else { false } }()
                    for k in 0..<n {
                        if hops { trail.append((member.name, k)) }
                        do {
                            items.append(try value(member.shape, at: &position, base: base, version: version, depth: depth))
                        } catch let f as Failure { throw f.within("\(member.name)[\(k)]") }
                        if hops { trail.removeLast() }
                    }
                    out[member.name] = .list(items)
                    continue
                }
                let v: StructValue
                if member.deferred, case .offset(let target, let size) = member.shape {
                    let offset = Int(try scalar(StructureCodec.offsetKind(size), at: position))
                    position += size
                    if offset == 0 { out[member.name] = StructValue.none } else { deferred.append((member, target, base + offset)) }
                    continue
                }
                if member.lazy, let source = lazySource, case .offset(let target, let size) = member.shape {
                    let offset = Int(try scalar(size == 2 ? .uint16 : .uint32, at: position))
                    position += size
                    guard base + offset < table.count || offset == 0 else {
                        do { out[member.name] = try pastTheEnd(offset, target, at: position - size) } catch let f as Failure {
                            throw f.within(member.name)
                        }
                        continue
                    }
                    out[member.name] =
                        offset == 0
                        ? StructValue.none
                        : .lazy(
                            LazySubtable(
                                source: source, start: base + offset, shape: target, scope: scope,
                                version: version, depth: depth + 1, path: trailText + member.name))
                    continue
                }
                do { v = try value(member.shape, at: &position, base: base, version: version, depth: depth) } catch let f as Failure {
                    throw f.within(member.name)
                }
                if case .int(let raw) = v, record.scopeNames.contains(member.name) { scope.note(member.name, raw) }
                // The first member of a table is its version: later members may depend on it.
                if i == 0, depth == 0, version == nil, let raw = v.int { version = UInt32(truncatingIfNeeded: raw) }
                if !record.countNames.contains(member.name) { out[member.name] = v }
            }
            for d in deferred {
                guard depth < StructureCodec.maximumDepth else {
                    throw fail("subtables nested deeper than \(StructureCodec.maximumDepth) (a cycle?)", at: position)
                }
                guard d.start < table.count else {
                    throw fail("offset \(d.start - base) points past the end of the table (\(table.count) bytes)", at: position).within(
                        d.member.name)
                }
                var p = d.start
                do { out[d.member.name] = try value(d.target, at: &p, base: d.start, version: version, depth: depth + 1) } catch let f
                    as Failure
                { throw f.within(d.member.name) }
            }
            return out
        }

        /// A ClipList (format 1): each range's glyphs get its box; glyphs sharing a box (by its
        /// values) are one group, groups in the order their boxes were first seen, as fontTools
        /// reads it. A glyph a later range names again keeps its first box.
        mutating func clipList(at position: inout Int, depth: Int) throws -> StructValue {
            let start = position
            let format = Int(try scalar(.uint8, at: start))
            guard format == 1 else { throw fail("unknown ClipList format \(format)", at: start) }
            let count = Int(try scalar(.uint32, at: start + 1))
            try spend(count, at: start)
            guard count <= (table.count - start - 5) / 7 else {
                throw fail("ClipList claims \(count) clips, more than the table holds", at: start + 1)
            }
            var seen = Set<Int64>()
            var groups: [(box: StructValue, glyphs: [StructValue])] = []
            // Each box's group by its values (format, then its numbers), so many clips stay linear.
            var groupOf: [[Int64]: Int] = [:]
            func key(_ box: StructValue) -> [Int64] {
                guard case .formatted(let f, let fields) = box else { return [] }
                return [Int64(f)] + ["xMin", "yMin", "xMax", "yMax", "VarIndexBase"].map { fields[$0]?.int ?? -1 }
            }
            for k in 0..<count {
                let at = start + 5 + 7 * k
                let first = try scalar(.uint16, at: at), last = try scalar(.uint16, at: at + 2)
                let offset = Int(try scalar(.uint24, at: at + 4))
                guard first <= last, offset != 0 else { continue }   // fontTools skips these too
                guard start + offset < table.count else {
                    throw fail("ClipBox offset \(offset) points past the end of the table", at: at + 4)
                }
                try spend(Int(last - first) + 1, at: at)
                var p = start + offset
                let box = try value(COLRShapes.clipBox, at: &p, base: start + offset, version: nil, depth: depth + 1)
                var index = groupOf[key(box)]
                for g in first...last where seen.insert(g).inserted {
                    if index == nil { groups.append((box, [])); index = groups.count - 1; groupOf[key(box)] = index }
                    if let i = index { groups[i].glyphs.append(.int(g)) }
                }
            }
            position = start + 5 + 7 * count
            return .list(
                groups.map { group in
                    var fields = StructFields(capacity: 2)
                    fields["Glyph"] = .list(group.glyphs)
                    fields["ClipBox"] = group.box
                    return .record(fields)
                })
        }

        /// An AAT lookup's glyphs with their values, or the records the values point at. A
        /// segment can name every glyph in six bytes, so each of the first lookups may map up to
        /// 65,536 glyphs beyond the table's budget; later ones spend from it.
        mutating func aatLookup(_ valueShape: Shape, at position: inout Int, base: Int, version: UInt32?, depth: Int) throws -> StructValue
        {
            let start = position
            let reader = try table.sub(from: start)
            let glyphs = glyphCount ?? 0
            if case .scalar(let kind) = valueShape, kind.size != 2 { throw fail("an AAT lookup's values are 16-bit", at: start) }
            if try reader.u16(at: 0) == 0, glyphCount == nil { throw fail("a format 0 AAT lookup needs the font's glyph count", at: start) }
            if lookupsWithAllowance > 0 { lookupsWithAllowance -= 1; budget += 0x10000 }
            let pairs: [(glyph: UInt16, value: UInt16)]
            do { pairs = try AATLookup.decode(reader, glyphCount: glyphs, what: "lookup", budget: &budget) } catch let e as FontError {
                throw Failure(message: e.message, position: (e.offset ?? table.base + start) - table.base, exhausted: budget < 0)
            }
            position = start + (try AATLookup.length(reader, glyphCount: glyphs))
            var items: [StructValue] = []
            items.reserveCapacity(pairs.count)
            // Glyphs that share a record (a segment's) read it once.
            var recordAt: [UInt16: StructValue] = [:]
            for (k, pair) in pairs.enumerated() {
                var fields = StructFields(capacity: 2)
                fields["Glyph"] = .int(Int64(pair.glyph))
                switch valueShape {
                case .offset(let target, _):
                    if let known = recordAt[pair.value] { fields["Value"] = known; break }
                    var p = base + Int(pair.value)
                    guard p < table.count else {
                        throw fail("the value of glyph \(pair.glyph) points past the end of the table", at: start)
                    }
                    trail.append(("Lookup", k))
                    let record = try value(target, at: &p, base: base + Int(pair.value), version: version, depth: depth + 1)
                    trail.removeLast()
                    recordAt[pair.value] = record
                    fields["Value"] = record
                default:
                    fields["Value"] = .int(Int64(pair.value))
                }
                items.append(.record(fields))
            }
            return .list(items)
        }

        /// See `Shape.aatLookupWithData`: the lookup read for its 16-bit values, then each
        /// value's record from the data (records shared by glyphs read once).
        mutating func aatLookupWithData(_ valueShape: Shape, at position: inout Int, base: Int, version: UInt32?, depth: Int) throws
            -> StructValue
        {
            guard case .offset(let target, _) = valueShape else { throw fail("an AAT lookup with data points at records", at: position) }
            let lookupOffset = Int(try scalar(.uint32, at: position)), dataOffset = Int(try scalar(.uint32, at: position + 4))
            position += 8
            guard base + lookupOffset < table.count, base + dataOffset <= table.count else {
                throw fail("the lookup (\(lookupOffset)) or its data (\(dataOffset)) starts past the end of the table", at: position - 8)
            }
            var at = base + lookupOffset
            guard case .list(let plain) = try aatLookup(.scalar(.uint16), at: &at, base: base, version: version, depth: depth) else {
                return .list([])
            }
            var recordAt: [Int64: StructValue] = [:]
            var items: [StructValue] = []
            items.reserveCapacity(plain.count)
            for (k, item) in plain.enumerated() {
                guard case .record(var fields) = item, let v = fields["Value"]?.int else { continue }
                if let known = recordAt[v] { fields["Value"] = known; items.append(.record(fields)); continue }
                var p = base + dataOffset + Int(v)
                guard p < table.count else {
                    throw fail("the value of glyph \(fields["Glyph"]?.int ?? -1) points past the end of the table", at: base + lookupOffset)
                }
                trail.append(("Lookup", k))
                let record = try value(target, at: &p, base: base + dataOffset + Int(v), version: version, depth: depth + 1)
                trail.removeLast()
                recordAt[v] = record
                fields["Value"] = record
                items.append(.record(fields))
            }
            return .list(items)
        }

        /// Ranges are kept as runs and cost one unit of the budget each, so a range naming
        /// 60,000 glyphs in 6 bytes costs what its bytes cost.
        mutating func coverage(at start: Int) throws -> StructValue {
            let format = try u16(start)
            let count = try u16(start + 2)
            try spend(count, at: start)
            var glyphs = GlyphRuns()
            switch format {
            case 1:
                for k in 0..<count { let g = try u16(start + 4 + 2 * k); glyphs.append(g...g) }
            case 2:
                for k in 0..<count {
                    let at = start + 4 + 6 * k
                    let first = try u16(at), last = try u16(at + 2)
                    guard first <= last else { throw fail("Coverage range \(k) runs backwards (\(first)…\(last))", at: at) }
                    glyphs.append(first...last)
                }
            default:
                throw fail("unknown Coverage format \(format)", at: start)
            }
            return .glyphs(glyphs)
        }

        mutating func classDef(at start: Int) throws -> StructValue {
            let format = try u16(start)
            var runs: [ClassRun] = []
            switch format {
            case 1:
                let first = try u16(start + 2), count = try u16(start + 4)
                try spend(count, at: start)
                for k in 0..<count {
                    runs.append(ClassRun(first: first + k, last: first + k, glyphClass: try u16(start + 6 + 2 * k)))
                }
            case 2:
                let count = try u16(start + 2)
                try spend(count, at: start)
                for k in 0..<count {
                    let at = start + 4 + 6 * k
                    let first = try u16(at), last = try u16(at + 2)
                    guard first <= last else { throw fail("ClassDef range \(k) runs backwards (\(first)…\(last))", at: at) }
                    runs.append(ClassRun(first: first, last: last, glyphClass: try u16(at + 4)))
                }
            default:
                throw fail("unknown ClassDef format \(format)", at: start)
            }
            return .classes(ClassRun.normalized(runs))
        }

        mutating func device(at start: Int) throws -> StructValue {
            let first = try u16(start), second = try u16(start + 2)
            let format = try u16(start + 4)
            var deltas: [Int] = []
            if (1...3).contains(format) {
                guard first <= second else { throw fail("Device sizes run backwards (\(first)…\(second))", at: start) }
                let bits = 1 << format, perWord = 16 / bits, count = second - first + 1
                try spend(count, at: start)
                for k in 0..<count {
                    let word = try u16(start + 6 + 2 * (k / perWord))
                    let shift = 16 - bits * (k % perWord + 1)
                    let raw = (word >> shift) & ((1 << bits) - 1)
                    deltas.append(raw >= 1 << (bits - 1) ? raw - (1 << bits) : raw)
                }
            }
            return .device(DeviceValue(startSize: first, endSize: second, deltaFormat: format, deltas: deltas))
        }

        /// GSUB types 1–4: a Coverage of input glyphs and, per covered glyph, what it becomes.
        mutating func substitutions(_ kind: SubstitutionKind, at start: Int, depth: Int) throws -> StructValue {
            let format = try u16(start)
            guard case .glyphs(let covered) = try coverageAt(start, offsetAt: start + 2) else { return .substitutions([]) }
            let inputs = covered.glyphs
            var out: [Substitution] = []
            func glyphList(at position: Int, count: Int) throws -> [Int] {
                try spend(count, at: position)
                return try (0..<count).map { try u16(position + 2 * $0) }
            }
            switch (kind, format) {
            case (.single, 1):
                let delta = try u16(start + 4)
                out = inputs.map { Substitution([$0], [($0 + delta) & 0xFFFF]) }
            case (.single, 2):
                let count = try u16(start + 4)
                guard count == inputs.count else { throw fail("\(count) substitutes for \(inputs.count) covered glyphs", at: start + 4) }
                let outputs = try glyphList(at: start + 6, count: count)
                out = zip(inputs, outputs).map { Substitution([$0], [$1]) }
            case (.multiple, 1), (.alternate, 1):
                let count = try u16(start + 4)
                guard count == inputs.count else { throw fail("\(count) sets for \(inputs.count) covered glyphs", at: start + 4) }
                for (k, input) in inputs.enumerated() {
                    let set = start + (try u16(start + 6 + 2 * k))
                    let n = try u16(set)
                    out.append(Substitution([input], try glyphList(at: set + 2, count: n)))
                }
            case (.ligature, 1):
                let count = try u16(start + 4)
                guard count == inputs.count else { throw fail("\(count) ligature sets for \(inputs.count) covered glyphs", at: start + 4) }
                for (k, first) in inputs.enumerated() {
                    let set = start + (try u16(start + 6 + 2 * k))
                    let n = try u16(set)
                    try spend(n, at: set)
                    for j in 0..<n {
                        let lig = set + (try u16(set + 2 + 2 * j))
                        let glyph = try u16(lig), components = try u16(lig + 2)
                        guard components >= 1 else { throw fail("ligature \(j) of set \(k) has no components", at: lig + 2) }
                        out.append(Substitution([first] + (try glyphList(at: lig + 4, count: components - 1)), [glyph]))
                    }
                }
            default:
                throw fail("unknown format \(format)", at: start)
            }
            return .substitutions(out)
        }

        mutating func coverageAt(_ base: Int, offsetAt position: Int) throws -> StructValue {
            let offset = try u16(position)
            guard offset != 0, base + offset < table.count else {
                throw fail("Coverage offset \(offset) points outside the table", at: position)
            }
            return try coverage(at: base + offset)
        }
    }

    // MARK: writing

    struct Pending {
        let at: Int, size: Int, value: StructValue, shape: Shape, scope: StructScope, path: String
    }

    struct Encoder {
        var graph = SubtableGraph()

        /// Encodes a subtable (what an offset points at) and, first, the subtables it points at:
        /// returns its node in the graph, identical subtables being one node.
        mutating func node(_ value: StructValue, _ shape: Shape, scope: StructScope, version: UInt32?, path: String) throws -> Int {
            var w = BinaryWriter(capacity: 64)
            var pending: [Pending] = []
            var scope = scope
            try inline(value, shape, into: &w, pending: &pending, scope: &scope, version: version, depth: 0, path: path)
            var links: [SubtableGraph.Link] = []
            links.reserveCapacity(pending.count)
            for link in pending {
                let child = try node(link.value, link.shape, scope: link.scope, version: version, path: link.path)
                links.append(SubtableGraph.Link(at: link.at, size: link.size, child: child))
            }
            let id = graph.intern(SubtableGraph.Node(bytes: w.bytes, links: links), path: path)
            // Bytes kept from a subtable that did not decode run to the end of their table when
            // read; written last, they read back as themselves.
            if case .opaque = value { graph.placeLast(id) } else if case .switched(_, .opaque) = value { graph.placeLast(id) }
            return id
        }

        mutating func inline(
            _ value: StructValue, _ shape: Shape, into w: inout BinaryWriter, pending: inout [Pending],
            scope: inout StructScope, version: UInt32?, depth: Int, path: String
        ) throws {
            func mismatch() -> FontError { FontError("\(path): the value does not have the shape its description gives") }
            // A subtable kept as bytes is written as they are, whatever its shape (an offset to
            // one makes it a subtable of its own first, below).
            if case .opaque(let o) = value, !shape.isOffset { w.append(o.bytes); return }
            switch shape {
            case .scalar(let kind):
                guard case .int(let v) = value else { throw mismatch() }
                guard kind.rawRange.contains(v) else { throw FontError("\(path) is \(kind.typeName), got \(v)") }
                FieldTable.write(v, kind, &w)
            case .glyph:
                guard case .int(let v) = value else { throw mismatch() }
                try w.u16(Int(v), path)
            case .record(let record):
                guard case .record(let fields) = value else { throw mismatch() }
                try members(record, fields, into: &w, pending: &pending, scope: &scope, version: version, depth: depth, path: path)
            case .offset(let target, let size):
                if case .none = value { FieldTable.write(0, StructureCodec.offsetKind(size), &w); return }
                pending.append(Pending(at: w.count, size: size, value: value, shape: target, scope: scope, path: path))
                FieldTable.write(0, StructureCodec.offsetKind(size), &w)
            case .formats(let name, let records), .formats8(let name, let records):
                guard case .formatted(let format, let fields) = value else { throw mismatch() }
                guard let record = records[format] else { throw FontError("\(path): \(name) has no format \(format)") }
                let start = w.count
                if case .formats = shape { try w.u16(format, "\(path) format") } else { try w.u8(format, "\(path) format") }
                try members(
                    record, fields, into: &w, pending: &pending, scope: &scope, version: version, depth: depth, path: path, start: start)
            case .switched(let selector, let cases):
                guard case .switched(let key, let inner) = value, let chosen = cases[key] else { throw mismatch() }
                guard scope.lookup(selector).map(Int.init) == key else {
                    throw FontError(
                        "\(path) is a \(chosen.name) but \(selector) is \(scope.lookup(selector).map(String.init) ?? "missing")")
                }
                try inline(inner, chosen.shape, into: &w, pending: &pending, scope: &scope, version: version, depth: depth, path: path)
            case .valueRecord(let formatName):
                guard case .record(let fields) = value else { throw mismatch() }
                let format = Int(scope.lookup(formatName) ?? 0)
                for name in fields.names
                where !StructureCodec.valueRecordFields.enumerated().contains(where: {
                    $0.element == name && format & (1 << $0.offset) != 0
                }) {
                    throw FontError("\(path).\(name) is given but \(formatName) (\(format)) does not include it")
                }
                for (bit, name) in StructureCodec.valueRecordFields.enumerated() where format & (1 << bit) != 0 {
                    let field = fields[name] ?? (bit < 4 ? .int(0) : .none)
                    try inline(
                        field, bit < 4 ? .scalar(.int16) : .offset16(.device), into: &w, pending: &pending, scope: &scope, version: version,
                        depth: depth, path: "\(path).\(name)")
                }
            case .coverage:
                guard case .glyphs(let glyphs) = value else { throw mismatch() }
                try StructureCodec.writeCoverage(glyphs, into: &w, path: path)
            case .classDef:
                guard case .classes(let classes) = value else { throw mismatch() }
                try StructureCodec.writeClassDef(classes, into: &w, path: path)
            case .device:
                guard case .device(let d) = value else { throw mismatch() }
                try StructureCodec.writeDevice(d, into: &w, path: path)
            case .substitutions(let kind):
                guard case .substitutions(let subs) = value else { throw mismatch() }
                try StructureCodec.writeSubstitutions(kind, subs, into: &w, path: path)
            case .deltaRow(let shortsName, let columnsName):
                guard case .list(let row) = value else { throw mismatch() }
                let (wide, narrow, shorts) = StructureCodec.deltaKinds(scope.lookup(shortsName) ?? 0)
                let columns = Int(scope.lookup(columnsName) ?? 0)
                guard row.count == columns else { throw FontError("\(path): \(row.count) deltas, but \(columnsName) is \(columns)") }
                for (k, item) in row.enumerated() {
                    guard case .int(let v) = item else { throw mismatch() }
                    let kind = k < shorts ? wide : narrow
                    guard kind.rawRange.contains(v) else {
                        throw FontError("\(path)[\(k)]: \(v) does not fit the row's \(kind.typeName) (\(shortsName) decides the widths)")
                    }
                    FieldTable.write(v, kind, &w)
                }
            case .recursive(_, let make):
                try inline(value, make(), into: &w, pending: &pending, scope: &scope, version: version, depth: depth, path: path)
            case .clipList:
                guard case .list(let groups) = value else { throw mismatch() }
                // As fontTools writes it: each box's glyphs as runs of consecutive ids, the
                // records sorted by range.
                var records: [(first: Int64, last: Int64, box: StructValue)] = []
                var named = Set<Int64>()
                for (k, group) in groups.enumerated() {
                    guard case .record(let fields) = group, case .list(let glyphItems)? = fields["Glyph"], let box = fields["ClipBox"]
                    else { throw mismatch() }
                    let ids = try glyphItems.map { item -> Int64 in
                        guard case .int(let g) = item, (0...0xFFFF).contains(g) else { throw mismatch() }
                        guard named.insert(g).inserted else { throw FontError("\(path).Clip[\(k)]: glyph \(g) has a clip box already") }
                        return g
                    }.sorted()
                    var i = 0
                    while i < ids.count {
                        var j = i
                        while j + 1 < ids.count && ids[j + 1] == ids[j] + 1 { j += 1 }
                        records.append((ids[i], ids[j], box))
                        i = j + 1
                    }
                }
                records.sort { $0.first < $1.first }
                w.u8(1)
                try w.u32(records.count, "\(path) clip count")
                for r in records {
                    w.u16(UInt16(r.first)); w.u16(UInt16(r.last))
                    pending.append(
                        Pending(at: w.count, size: 3, value: r.box, shape: COLRShapes.clipBox, scope: scope, path: "\(path).ClipBox"))
                    w.u24(0)
                }
            case .custom(let leaf):
                do { try leaf.encode(value, into: &w, LeafContext()) } catch let error as FontError {
                    throw FontError("\(path): \(error.message)")
                }
            case .aatLookup(let valueShape):
                guard case .list(let items) = value else { throw mismatch() }
                var entries: [(glyph: UInt16, value: StructValue)] = []
                for item in items {
                    guard case .record(let fields) = item, case .int(let g)? = fields["Glyph"], let v = fields["Value"] else {
                        throw mismatch()
                    }
                    guard (0..<0xFFFF).contains(g) else { throw FontError("\(path): glyph \(g) cannot be in an AAT lookup") }
                    entries.append((UInt16(g), v))
                }
                entries.sort { $0.glyph < $1.glyph }
                for k in entries.indices.dropFirst() where entries[k].glyph == entries[k - 1].glyph {
                    throw FontError("\(path): glyph \(entries[k].glyph) is in the lookup twice")
                }
                // Never format 0: the glyph count is not known here (a format fontTools also reads).
                let noFormat0 = 0x10001
                guard case .offset(let target, _) = valueShape else {
                    let pairs = try entries.map { e -> (glyph: UInt16, value: UInt16) in
                        guard case .int(let v) = e.value, (0...0xFFFF).contains(v) else {
                            throw FontError("\(path): the value of glyph \(e.glyph) is not 16-bit")
                        }
                        return (e.glyph, UInt16(v))
                    }
                    w.append(AATLookup.encode(pairs, glyphCount: noFormat0))
                    return
                }
                // The records follow the lookup, each once. Which glyphs share a record decides the
                // lookup's size (not the offsets' values), so a first pass with the records'
                // numbers gives where they start.
                var records: [[UInt8]] = [], recordOf: [[UInt8]: Int] = [:], numbers: [UInt16] = []
                for e in entries {
                    var rw = BinaryWriter(capacity: 16)
                    var inner: [Pending] = []
                    var innerScope = scope
                    try inline(
                        e.value, target, into: &rw, pending: &inner, scope: &innerScope, version: version, depth: depth + 1,
                        path: "\(path).Lookup")
                    guard inner.isEmpty else { throw FontError("\(path): a record an AAT lookup points at cannot hold offsets") }
                    if let k = recordOf[rw.bytes] { numbers.append(UInt16(k)); continue }
                    guard records.count < 0xFFFF else { throw FontError("\(path): too many records") }
                    recordOf[rw.bytes] = records.count
                    numbers.append(UInt16(records.count))
                    records.append(rw.bytes)
                }
                let lookupStart = w.count
                let firstPass = AATLookup.encode(zip(entries, numbers).map { ($0.glyph, $1) }, glyphCount: noFormat0)
                var at = lookupStart + firstPass.count
                var offsets: [UInt16] = []
                for r in records {
                    guard at <= 0xFFFF else { throw FontError("\(path): the records run past 64 KB, beyond a 16-bit offset") }
                    offsets.append(UInt16(at)); at += r.count
                }
                w.append(AATLookup.encode(zip(entries, numbers).map { ($0.glyph, offsets[Int($1)]) }, glyphCount: noFormat0))
                for r in records { w.append(r) }
            case .aatLookupWithData(let valueShape):
                // Two offsets, then the lookup, then the records (each distinct one once) it
                // points into, as fontTools lays ankr out.
                guard case .offset(let target, _) = valueShape, case .list(let items) = value else { throw mismatch() }
                var entries: [(glyph: UInt16, offset: UInt16)] = []
                var data: [UInt8] = [], offsetOf: [[UInt8]: Int] = [:]
                for item in items {
                    guard case .record(let fields) = item, case .int(let g)? = fields["Glyph"], let v = fields["Value"] else {
                        throw mismatch()
                    }
                    guard (0..<0xFFFF).contains(g) else { throw FontError("\(path): glyph \(g) cannot be in an AAT lookup") }
                    var rw = BinaryWriter(capacity: 16)
                    var inner: [Pending] = []
                    var innerScope = scope
                    try inline(
                        v, target, into: &rw, pending: &inner, scope: &innerScope, version: version, depth: depth + 1,
                        path: "\(path).Lookup")
                    guard inner.isEmpty else { throw FontError("\(path): a record an AAT lookup points at cannot hold offsets") }
                    let offset = offsetOf[rw.bytes] ?? data.count
                    if offsetOf[rw.bytes] == nil { offsetOf[rw.bytes] = offset; data += rw.bytes }
                    guard offset <= 0xFFFF else { throw FontError("\(path): the records run past 64 KB, beyond a 16-bit offset") }
                    entries.append((UInt16(g), UInt16(offset)))
                }
                entries.sort { $0.glyph < $1.glyph }
                for k in entries.indices.dropFirst() where entries[k].glyph == entries[k - 1].glyph {
                    throw FontError("\(path): glyph \(entries[k].glyph) is in the lookup twice")
                }
                let lookup = AATLookup.encode(entries.map { ($0.glyph, $0.offset) }, glyphCount: 0x10001)   // never format 0, as above
                let lookupStart = w.count + 8
                w.u32(UInt32(lookupStart)); w.u32(UInt32(lookupStart + lookup.count))
                w.append(lookup)
                w.append(data)
            case .undescribed(let what):
                throw FontError("\(path): \(what) cannot be written yet")
            }
        }

        mutating func members(
            _ record: Record, _ fields: StructFields, into w: inout BinaryWriter, pending: inout [Pending],
            scope: inout StructScope, version: UInt32?, depth: Int, path: String, start: Int? = nil
        ) throws {
            var version = version
            scope.enter()
            defer { scope.leave() }
            let start = start ?? w.count
            var lengthField: (at: Int, kind: FieldKind, path: String)?
            for (i, member) in record.members.enumerated() {
                guard scope.includes(member, version: version) else { continue }
                let here = path + "." + member.name
                if member.ttxFormat == .structLength, case .scalar(let kind) = member.shape {
                    lengthField = (w.count, kind, here)
                    FieldTable.write(0, kind, &w)
                    continue
                }
                if record.countNames.contains(member.name) {
                    guard case .scalar(let kind) = member.shape else { throw FontError("\(here): a count that is not a number") }
                    let length = StructureCodec.count(member.name, in: record, fields)
                    guard kind.rawRange.contains(Int64(length)) else {
                        throw FontError("\(here): \(length) items, more than a \(kind.typeName) can count")
                    }
                    FieldTable.write(Int64(length), kind, &w)
                    scope.note(member.name, Int64(length))
                    continue
                }
                let value = fields[member.name] ?? (member.count != nil ? .list([]) : Self.empty(member.shape))
                if let countName = member.count {
                    guard case .list(let items) = value else { throw FontError("\(here): expected a list") }
                    if let expected = scope.lookup(countName), items.count != Int(expected) + member.countBias {
                        throw FontError(
                            "\(here) has \(items.count) items; \(countName) (\(expected)) calls for \(Int(expected) + member.countBias)")
                    }
                    for (k, item) in items.enumerated() {
                        try inline(
                            item, member.shape, into: &w, pending: &pending, scope: &scope, version: version, depth: depth,
                            path: "\(here)[\(k)]")
                    }
                    continue
                }
                if i == 0, depth == 0, version == nil, let raw = value.int { version = UInt32(truncatingIfNeeded: raw) }
                try inline(value, member.shape, into: &w, pending: &pending, scope: &scope, version: version, depth: depth, path: here)
                if case .int(let raw) = value, record.scopeNames.contains(member.name) { scope.note(member.name, raw) }
            }
            // The record's length, now that its bytes are written (AAT's StructLength).
            if let field = lengthField {
                let length = Int64(w.count - start)
                guard field.kind.rawRange.contains(length) else {
                    throw FontError("\(field.path): the record is \(length) bytes, more than a \(field.kind.typeName) holds")
                }
                var bytes = BinaryWriter()
                FieldTable.write(length, field.kind, &bytes)
                w.bytes.replaceSubrange(field.at..<field.at + field.kind.size, with: bytes.bytes)
            }
        }

        /// What a missing member is written as: zero, or a null offset.
        static func empty(_ shape: Shape) -> StructValue {
            switch shape {
            case .scalar, .glyph: .int(0)
            case .offset: .none
            case .record, .valueRecord: .record(StructFields())
            default: .none
            }
        }
    }

    /// An ItemVariationData row's two widths and how many deltas take the wider one, from its
    /// wordDeltaCount (NumShorts): the 0x8000 bit makes them 32 and 16 bits instead of 16 and 8.
    static func deltaKinds(_ shorts: Int64) -> (wide: FieldKind, narrow: FieldKind, count: Int) {
        shorts & 0x8000 != 0 ? (.int32, .int16, Int(shorts & 0x7FFF)) : (.int16, .int8, Int(shorts & 0x7FFF))
    }

    /// The value of a count member: the length (less its bias) of the first array that counts
    /// by it, in this record or in the records inside it (0 when there is none).
    /// The unsigned type an offset of `size` bytes is stored as.
    static func offsetKind(_ size: Int) -> FieldKind { size == 2 ? .uint16 : size == 3 ? .uint24 : .uint32 }

    public static func count(_ name: String, in record: Record, _ fields: StructFields) -> Int {
        arrayLength(name, in: record, fields) ?? 0
    }

    static func arrayLength(_ name: String, in record: Record, _ fields: StructFields) -> Int? {
        for member in record.members where member.count == name {
            if case .list(let items)? = fields[member.name] { return max(0, items.count - member.countBias) }
        }
        for member in record.members {
            if let value = fields[member.name], let n = nestedLength(name, value, member.shape) { return n }
        }
        return nil
    }

    static func nestedLength(_ name: String, _ value: StructValue, _ shape: Shape) -> Int? {
        switch (shape, value) {
        case (_, .list(let items)):
            for item in items { if let n = nestedLength(name, item, shape) { return n } }
            return nil
        case (.offset(let target, _), _): return nestedLength(name, value, target)
        case (.record(let r), .record(let f)):
            // A record with its own member of that name counts its own arrays.
            return r.members.contains { $0.name == name } ? nil : arrayLength(name, in: r, f)
        case (.formats(_, let records), .formatted(let n, let f)), (.formats8(_, let records), .formatted(let n, let f)):
            guard let r = records[n], !r.members.contains(where: { $0.name == name }) else { return nil }
            return arrayLength(name, in: r, f)
        case (.switched(_, let cases), .switched(let k, let inner)): return cases[k].flatMap { nestedLength(name, inner, $0.shape) }
        default: return nil
        }
    }

    static func writeCoverage(_ glyphs: GlyphRuns, into w: inout BinaryWriter, path: String) throws {
        guard glyphs.count <= 0xFFFF else { throw FontError("\(path): \(glyphs.count) glyphs, more than a Coverage can hold") }
        // Ranges when smaller (as fontTools decides), and only for glyphs in ascending order.
        if glyphs.isAscending && 3 * glyphs.runs.count < glyphs.count {
            w.u16(2)
            try w.u16(glyphs.runs.count, "\(path) range count")
            var index = 0
            for r in glyphs.runs {
                try w.u16(r.lowerBound, "\(path) glyph"); try w.u16(r.upperBound, "\(path) glyph");
                try w.u16(index, "\(path) coverage index")
                index += r.count
            }
        } else {
            w.u16(1)
            try w.u16(glyphs.count, "\(path) glyph count")
            for r in glyphs.runs { for g in r { try w.u16(g, "\(path) glyph") } }
        }
    }

    static func writeClassDef(_ classes: [ClassRun], into w: inout BinaryWriter, path: String) throws {
        let runs = ClassRun.normalized(classes)
        let span = runs.isEmpty ? 0 : runs[runs.count - 1].last - runs[0].first + 1
        // A class array when it is not larger than the ranges (fontTools' choice).
        if !runs.isEmpty && 3 * runs.count >= span + 1 {
            let first = runs[0].first
            w.u16(1)
            try w.u16(first, "\(path) start glyph")
            try w.u16(span, "\(path) glyph count")
            var next = first
            for r in runs {
                for _ in next..<r.first { w.u16(0) }
                for _ in r.first...r.last { try w.u16(r.glyphClass, "\(path) class") }
                next = r.last + 1
            }
        } else {
            w.u16(2)
            try w.u16(runs.count, "\(path) range count")
            for r in runs {
                try w.u16(r.first, "\(path) glyph"); try w.u16(r.last, "\(path) glyph"); try w.u16(r.glyphClass, "\(path) class")
            }
        }
    }

    static func writeDevice(_ d: DeviceValue, into w: inout BinaryWriter, path: String) throws {
        try w.u16(d.startSize, "\(path) StartSize")
        try w.u16(d.endSize, "\(path) EndSize")
        try w.u16(d.deltaFormat, "\(path) DeltaFormat")
        guard (1...3).contains(d.deltaFormat) else { return }
        let bits = 1 << d.deltaFormat, perWord = 16 / bits
        guard d.deltas.count == d.endSize - d.startSize + 1 else {
            throw FontError("\(path): \(d.deltas.count) deltas for sizes \(d.startSize)…\(d.endSize)")
        }
        let limit = 1 << (bits - 1)
        var word = 0, filled = 0
        for delta in d.deltas {
            guard (-limit..<limit).contains(delta) else {
                throw FontError("\(path): delta \(delta) does not fit DeltaFormat \(d.deltaFormat)")
            }
            word = (word << bits) | (delta & ((1 << bits) - 1))
            filled += 1
            if filled == perWord { w.u16(UInt16(truncatingIfNeeded: word)); word = 0; filled = 0 }
        }
        if filled > 0 { w.u16(UInt16(truncatingIfNeeded: word << (bits * (perWord - filled)))) }
    }
}

extension BinaryWriter {
    /// Overwrites a placeholder written earlier (an offset resolved once its target is placed).
    mutating func patch(_ value: Int, size: Int, at position: Int) {
        for k in 0..<size { bytes[position + k] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - k))) }
    }
}

/// A table that uses a structure FontShell does not describe yet (GDEF's ItemVariationStore):
/// not a fault of the font. The table is still saved, dumped and compared as bytes.
public struct UndescribedStructure: ToolError, Sendable {
    public let description: String
}

extension StructureCodec {
    /// GSUB types 1–4 as fontTools compiles them: inputs sorted by glyph id, a single
    /// substitution as format 1 (one delta) when every delta agrees, else format 2.
    static func writeSubstitutions(_ kind: SubstitutionKind, _ subs: [Substitution], into w: inout BinaryWriter, path: String) throws {
        for s in subs {
            guard !s.input.isEmpty, !s.output.isEmpty || kind == .multiple || kind == .alternate else {
                throw FontError("\(path): a substitution needs input and output glyphs")
            }
            if kind != .ligature, s.input.count != 1 {
                throw FontError("\(path): \(s.input.count) input glyphs; this lookup type substitutes one")
            }
            if kind == .single || kind == .ligature, s.output.count != 1 {
                throw FontError("\(path): \(s.output.count) output glyphs; this lookup type makes one")
            }
        }
        // One entry per first glyph (ligatures group by it), in glyph order.
        var firsts: [Int] = []
        var groups: [Int: [Substitution]] = [:]
        for s in subs {
            if groups[s.input[0]] == nil { firsts.append(s.input[0]) }
            groups[s.input[0], default: []].append(s)
        }
        firsts.sort()
        if kind != .ligature, let duplicate = firsts.first(where: { (groups[$0]?.count ?? 0) > 1 }) {
            throw FontError("\(path): glyph \(duplicate) is substituted twice")
        }
        var coverage = BinaryWriter()
        try writeCoverage(GlyphRuns(firsts), into: &coverage, path: path + ".Coverage")
        var body = BinaryWriter()
        var header = 0
        switch kind {
        case .single:
            let outputs = firsts.map { groups[$0]?.first?.output.first ?? 0 }
            let deltas = Set(zip(firsts, outputs).map { ($1 - $0) & 0xFFFF })
            if deltas.count == 1, let delta = deltas.first {
                w.u16(1); header = 6
                w.u16(UInt16(header)); w.u16(UInt16(delta))
            } else {
                w.u16(2); header = 6 + 2 * firsts.count
                try w.u16(header, "\(path) coverage offset"); try w.u16(firsts.count, "\(path) glyph count")
                for o in outputs { try w.u16(o, "\(path) substitute") }
            }
            w.append(coverage.bytes)
            return
        case .multiple, .alternate:
            header = 6 + 2 * firsts.count
            var offsets: [Int] = []
            for g in firsts {
                offsets.append(header + coverage.count + body.count)
                let out = groups[g]?.first?.output ?? []
                try body.u16(out.count, "\(path) sequence length")
                for o in out { try body.u16(o, "\(path) glyph") }
            }
            w.u16(1); try w.u16(header, "\(path) coverage offset"); try w.u16(firsts.count, "\(path) set count")
            for o in offsets { try w.u16(o, "\(path) set offset") }
        case .ligature:
            header = 6 + 2 * firsts.count
            var offsets: [Int] = []
            for g in firsts {
                let set = header + coverage.count + body.count
                offsets.append(set)
                let ligatures = groups[g] ?? []
                var table = BinaryWriter()
                try table.u16(ligatures.count, "\(path) ligature count")
                var ligatureBytes = BinaryWriter()
                for lig in ligatures {
                    try table.u16(2 + 2 * ligatures.count + ligatureBytes.count, "\(path) ligature offset")
                    try ligatureBytes.u16(lig.output[0], "\(path) ligature glyph")
                    try ligatureBytes.u16(lig.input.count, "\(path) component count")
                    for c in lig.input.dropFirst() { try ligatureBytes.u16(c, "\(path) component") }
                }
                body.append(table.bytes)
                body.append(ligatureBytes.bytes)
                guard set + table.count + ligatureBytes.count <= 0xFFFF else {
                    throw FontError("\(path): the ligature sets do not fit in Offset16 (split the lookup)")
                }
            }
            w.u16(1); try w.u16(header, "\(path) coverage offset"); try w.u16(firsts.count, "\(path) set count")
            for o in offsets { try w.u16(o, "\(path) set offset") }
        }
        w.append(coverage.bytes)
        w.append(body.bytes)
    }
}
