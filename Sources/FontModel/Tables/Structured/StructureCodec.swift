/// Reads and writes structured tables from their `Shape`. Reading checks every offset, count
/// and format against the bytes and bounds the work (nesting depth, and values decoded per byte:
/// offsets that point many times at the same subtable cannot blow up). Writing lays each
/// subtable out after its parent's fixed part, depth first, sharing identical subtables of one
/// parent, with every count taken from its array; an offset that does not fit its size is an
/// error naming where.
public enum StructureCodec {
    /// Deeper nesting than any OpenType table has: a cycle or an attack.
    public static let maximumDepth = 48

    public static func decode(_ reader: BinaryReader, _ shape: Shape, name: String) throws -> StructValue {
        var decoder = Decoder(table: reader, budget: 16 * reader.count + 4096)
        var position = 0
        return try decoder.value(shape, at: &position, base: 0, version: nil, depth: 0, path: name)
    }

    public static func encode(_ value: StructValue, _ shape: Shape, name: String) throws -> [UInt8] {
        var encoder = Encoder()
        return try encoder.subtable(value, shape, version: nil, path: name)
    }

    // MARK: reading

    struct Decoder {
        let table: BinaryReader
        /// Values left to decode before the table is refused as fanning out.
        var budget: Int

        func fail(_ message: String, _ path: String, at position: Int) -> FontError {
            table.error("\(path): \(message)", at: min(max(position, 0), table.count))
        }

        mutating func spend(_ n: Int, _ path: String, at position: Int) throws {
            budget -= n
            guard budget >= 0 else { throw fail("more structure than the table's bytes can hold (offsets that fan out or loop)", path, at: position) }
        }

        func scalar(_ kind: FieldKind, at position: Int, _ path: String) throws -> Int64 {
            guard position >= 0, position <= table.count - kind.size else {
                throw fail("\(kind.typeName) at \(position) runs past the end of the table (\(table.count) bytes)", path, at: position)
            }
            var r = table
            r.offset = position
            return try FieldTable.read(kind, &r)
        }

        mutating func value(_ shape: Shape, at position: inout Int, base: Int, version: UInt32?, depth: Int, path: String) throws -> StructValue {
            try spend(1, path, at: position)
            switch shape {
            case .scalar(let kind):
                let v = try scalar(kind, at: position, path)
                position += kind.size
                return .int(v)
            case .record(let record):
                return .record(try fields(record, at: &position, base: base, version: version, depth: depth, path: path))
            case .offset(let target, let size):
                let offset = Int(try scalar(size == 2 ? .uint16 : .uint32, at: position, path))
                position += size
                guard offset != 0 else { return .none }
                guard depth < StructureCodec.maximumDepth else { throw fail("subtables nested deeper than \(StructureCodec.maximumDepth) (a cycle?)", path, at: position - size) }
                let start = base + offset
                guard start < table.count else { throw fail("offset \(offset) points past the end of the table (\(table.count) bytes)", path, at: position - size) }
                var p = start
                return try value(target, at: &p, base: start, version: version, depth: depth + 1, path: path)
            case .formats(let name, let records):
                let format = Int(try scalar(.uint16, at: position, path))
                guard let record = records[format] else {
                    throw fail("unknown \(name) format \(format) (known: \(records.keys.sorted().map(String.init).joined(separator: ", ")))", path, at: position)
                }
                position += 2
                return .formatted(format, try fields(record, at: &position, base: base, version: version, depth: depth, path: path))
            case .coverage: return try coverage(at: position, path)
            case .classDef: return try classDef(at: position, path)
            case .device: return try device(at: position, path)
            case .undescribed(let what): throw UndescribedStructure(description: "\(path): \(what) is not decoded yet; the table is kept as bytes")
            }
        }

        mutating func fields(_ record: Record, at position: inout Int, base: Int, version: UInt32?, depth: Int, path: String) throws -> StructFields {
            var out = StructFields()
            var counts: [String: Int] = [:]
            var version = version
            for (i, member) in record.members.enumerated() {
                if let since = member.since, (version ?? 0) < since { continue }
                let here = path + "." + member.name
                if record.countNames.contains(member.name) {
                    guard case .scalar(let kind) = member.shape else { throw fail("count \(member.name) is not a number", here, at: position) }
                    counts[member.name] = Int(try scalar(kind, at: position, here))
                    position += kind.size
                    continue
                }
                if let countName = member.count {
                    let n = counts[countName] ?? 0
                    try spend(n, here, at: position)
                    var items: [StructValue] = []
                    items.reserveCapacity(n)
                    for k in 0..<n {
                        items.append(try value(member.shape, at: &position, base: base, version: version, depth: depth, path: "\(here)[\(k)]"))
                    }
                    out[member.name] = .list(items)
                    continue
                }
                let v = try value(member.shape, at: &position, base: base, version: version, depth: depth, path: here)
                // The first member of a table is its version: later members may depend on it.
                if i == 0, depth == 0, version == nil, let raw = v.int { version = UInt32(truncatingIfNeeded: raw) }
                out[member.name] = v
            }
            return out
        }

        /// Ranges are kept as runs and cost one unit of the budget each, so a range naming
        /// 60,000 glyphs in 6 bytes costs what its bytes cost.
        mutating func coverage(at start: Int, _ path: String) throws -> StructValue {
            let format = try scalar(.uint16, at: start, path)
            let count = Int(try scalar(.uint16, at: start + 2, path))
            try spend(count, path, at: start)
            var glyphs = GlyphRuns()
            switch format {
            case 1:
                for k in 0..<count { let g = Int(try scalar(.uint16, at: start + 4 + 2 * k, path)); glyphs.append(g...g) }
            case 2:
                for k in 0..<count {
                    let at = start + 4 + 6 * k
                    let first = Int(try scalar(.uint16, at: at, path)), last = Int(try scalar(.uint16, at: at + 2, path))
                    guard first <= last else { throw fail("Coverage range \(k) runs backwards (\(first)…\(last))", path, at: at) }
                    glyphs.append(first...last)
                }
            default:
                throw fail("unknown Coverage format \(format)", path, at: start)
            }
            return .glyphs(glyphs)
        }

        mutating func classDef(at start: Int, _ path: String) throws -> StructValue {
            let format = try scalar(.uint16, at: start, path)
            var runs: [ClassRun] = []
            switch format {
            case 1:
                let first = Int(try scalar(.uint16, at: start + 2, path)), count = Int(try scalar(.uint16, at: start + 4, path))
                try spend(count, path, at: start)
                for k in 0..<count {
                    let c = Int(try scalar(.uint16, at: start + 6 + 2 * k, path))
                    runs.append(ClassRun(first: first + k, last: first + k, glyphClass: c))
                }
            case 2:
                let count = Int(try scalar(.uint16, at: start + 2, path))
                try spend(count, path, at: start)
                for k in 0..<count {
                    let at = start + 4 + 6 * k
                    let first = Int(try scalar(.uint16, at: at, path)), last = Int(try scalar(.uint16, at: at + 2, path))
                    guard first <= last else { throw fail("ClassDef range \(k) runs backwards (\(first)…\(last))", path, at: at) }
                    runs.append(ClassRun(first: first, last: last, glyphClass: Int(try scalar(.uint16, at: at + 4, path))))
                }
            default:
                throw fail("unknown ClassDef format \(format)", path, at: start)
            }
            return .classes(ClassRun.normalized(runs))
        }

        mutating func device(at start: Int, _ path: String) throws -> StructValue {
            let first = Int(try scalar(.uint16, at: start, path)), second = Int(try scalar(.uint16, at: start + 2, path))
            let format = Int(try scalar(.uint16, at: start + 4, path))
            var deltas: [Int] = []
            if (1...3).contains(format) {
                guard first <= second else { throw fail("Device sizes run backwards (\(first)…\(second))", path, at: start) }
                let bits = 1 << format, perWord = 16 / bits, count = second - first + 1
                try spend(count, path, at: start)
                for k in 0..<count {
                    let word = try scalar(.uint16, at: start + 6 + 2 * (k / perWord), path)
                    let shift = 16 - bits * (k % perWord + 1)
                    let raw = Int((word >> Int64(shift)) & Int64((1 << bits) - 1))
                    deltas.append(raw >= 1 << (bits - 1) ? raw - (1 << bits) : raw)
                }
            }
            return .device(DeviceValue(startSize: first, endSize: second, deltaFormat: format, deltas: deltas))
        }
    }

    // MARK: writing

    struct Encoder {
        /// Encodes a subtable (what an offset points at): its fixed part, then its subtables.
        mutating func subtable(_ value: StructValue, _ shape: Shape, version: UInt32?, path: String) throws -> [UInt8] {
            var w = BinaryWriter(capacity: 64)
            var pending: [(at: Int, size: Int, value: StructValue, shape: Shape, path: String)] = []
            try inline(value, shape, into: &w, pending: &pending, version: version, depth: 0, path: path)
            var placed: [[UInt8]: Int] = [:]
            for link in pending {
                let block = try subtable(link.value, link.shape, version: version, path: link.path)
                let offset: Int
                if let same = placed[block] { offset = same } else {
                    offset = w.count
                    placed[block] = offset
                    w.append(block)
                }
                guard offset <= (link.size == 2 ? 0xFFFF : 0xFFFF_FFFF) else {
                    throw FontError("\(link.path): offset \(offset) does not fit in Offset\(link.size * 8) (the subtable is too far from its parent)")
                }
                w.patch(offset, size: link.size, at: link.at)
            }
            return w.bytes
        }

        mutating func inline(_ value: StructValue, _ shape: Shape, into w: inout BinaryWriter,
                             pending: inout [(at: Int, size: Int, value: StructValue, shape: Shape, path: String)],
                             version: UInt32?, depth: Int, path: String) throws {
            func mismatch() -> FontError { FontError("\(path): the value does not have the shape its description gives") }
            switch shape {
            case .scalar(let kind):
                guard case .int(let v) = value else { throw mismatch() }
                guard kind.rawRange.contains(v) else { throw FontError("\(path) is \(kind.typeName), got \(v)") }
                FieldTable.write(v, kind, &w)
            case .record(let record):
                guard case .record(let fields) = value else { throw mismatch() }
                try members(record, fields, into: &w, pending: &pending, version: version, depth: depth, path: path)
            case .offset(let target, let size):
                if case .none = value { FieldTable.write(0, size == 2 ? .uint16 : .uint32, &w); return }
                pending.append((w.count, size, value, target, path))
                FieldTable.write(0, size == 2 ? .uint16 : .uint32, &w)
            case .formats(let name, let records):
                guard case .formatted(let format, let fields) = value else { throw mismatch() }
                guard let record = records[format] else { throw FontError("\(path): \(name) has no format \(format)") }
                try w.u16(format, "\(path) format")
                try members(record, fields, into: &w, pending: &pending, version: version, depth: depth, path: path)
            case .coverage:
                guard case .glyphs(let glyphs) = value else { throw mismatch() }
                try StructureCodec.writeCoverage(glyphs, into: &w, path: path)
            case .classDef:
                guard case .classes(let classes) = value else { throw mismatch() }
                try StructureCodec.writeClassDef(classes, into: &w, path: path)
            case .device:
                guard case .device(let d) = value else { throw mismatch() }
                try StructureCodec.writeDevice(d, into: &w, path: path)
            case .undescribed(let what):
                throw FontError("\(path): \(what) cannot be written yet")
            }
        }

        mutating func members(_ record: Record, _ fields: StructFields, into w: inout BinaryWriter,
                              pending: inout [(at: Int, size: Int, value: StructValue, shape: Shape, path: String)],
                              version: UInt32?, depth: Int, path: String) throws {
            var version = version
            for (i, member) in record.members.enumerated() {
                if let since = member.since, (version ?? 0) < since { continue }
                let here = path + "." + member.name
                if record.countNames.contains(member.name) {
                    guard case .scalar(let kind) = member.shape,
                          let array = record.members.first(where: { $0.count == member.name }) else { throw FontError("\(here): a count without its array") }
                    var length = 0
                    if case .list(let items)? = fields[array.name] { length = items.count }
                    guard kind.rawRange.contains(Int64(length)) else { throw FontError("\(path).\(array.name) has \(length) items, more than \(member.name) (\(kind.typeName)) can count") }
                    FieldTable.write(Int64(length), kind, &w)
                    continue
                }
                let value = fields[member.name] ?? (member.count != nil ? .list([]) : Self.empty(member.shape))
                if member.count != nil {
                    guard case .list(let items) = value else { throw FontError("\(here): expected a list") }
                    for (k, item) in items.enumerated() {
                        try inline(item, member.shape, into: &w, pending: &pending, version: version, depth: depth, path: "\(here)[\(k)]")
                    }
                    continue
                }
                if i == 0, depth == 0, version == nil, let raw = value.int { version = UInt32(truncatingIfNeeded: raw) }
                try inline(value, member.shape, into: &w, pending: &pending, version: version, depth: depth, path: here)
            }
        }

        /// What a missing member is written as: zero, or a null offset.
        static func empty(_ shape: Shape) -> StructValue {
            switch shape {
            case .scalar: .int(0)
            case .offset: .none
            case .record: .record(StructFields())
            default: .none
            }
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
                try w.u16(r.lowerBound, "\(path) glyph"); try w.u16(r.upperBound, "\(path) glyph"); try w.u16(index, "\(path) coverage index")
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
            guard (-limit..<limit).contains(delta) else { throw FontError("\(path): delta \(delta) does not fit DeltaFormat \(d.deltaFormat)") }
            word = (word << bits) | (delta & ((1 << bits) - 1))
            filled += 1
            if filled == perWord { w.u16(UInt16(word)); word = 0; filled = 0 }
        }
        if filled > 0 { w.u16(UInt16(word << (bits * (perWord - filled)))) }
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
