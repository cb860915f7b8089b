/// A field's value as callers see it.
public enum FieldValue: Equatable, Sendable, CustomStringConvertible {
    case int(Int64)
    case double(Double)
    case string(String)

    public var description: String {
        switch self {
        case .int(let v): String(v)
        case .double(let v): String(v)
        case .string(let v): v
        }
    }
}

/// A table made of fixed fields (head, hhea, vhea, maxp, OS/2, the post header), described as
/// one record of scalar members in the description language (`Record`, `Member`), each member
/// a version adds marked `since:`. Stored flat (one integer per field) for speed; reading,
/// writing, range checks, lookup by name and the Lua/XML access all come from the record.
/// Bytes after the known fields are kept as they are.
open class FieldTable: FontTable {
    public let tag: Tag
    /// The members present in this table's version, in binary order.
    public private(set) var fields: [Member]
    private var index: [String: Int]
    /// The fields' binary types, in order (read and written without copying a `Member`).
    private var kinds: [FieldKind]
    private var raw: [Int64]
    /// Bytes after the described fields (a longer table than its version needs), kept verbatim.
    var tail: [UInt8]
    public internal(set) var isEdited = false

    /// Reads the fields that `layout(version:length:)` gives for the data.
    public required init(reader: BinaryReader) throws {
        tag = Self.tableTag
        let version = Self.versionField(of: reader)
        fields = try Self.layout(version: version, length: reader.count)
        (index, kinds) = Self.index(of: fields, version: version)
        raw = []
        raw.reserveCapacity(kinds.count)
        var r = reader
        for kind in kinds { raw.append(try Self.read(kind, &r)) }
        tail = Array(r.bytes[r.offset...])
    }

    // MARK: description, given by each subclass

    open class var tableTag: Tag { "    " }

    /// The table as a record: every member any version has, in binary order.
    open class var record: Record { Record(tableTag.trimmed, []) }

    /// The members present for this version and table length (those the version has, by their
    /// `since:`); throws when the data is too short for them.
    open class func layout(version: UInt32, length: Int) throws -> [Member] {
        let members = members(in: version)
        try requireLength(length, fieldsLength(members), tableTag.trimmed)
        return members
    }

    /// The record's members a version has.
    public class func members(in version: UInt32) -> [Member] {
        let all = record.members
        // Most versions have every member: the description's array is shared, not copied.
        guard all.contains(where: { ($0.since ?? 0) > version }) else { return all }
        return all.filter { ($0.since ?? 0) <= version }
    }

    /// The version number a subclass's layout depends on, read from the first bytes.
    open class func versionField(of reader: BinaryReader) -> UInt32 {
        (try? reader.u16(at: 0)).map(UInt32.init) ?? 0
    }

    /// The name of the field that selects the layout, if the layout depends on it.
    open class var versionFieldName: String? { nil }

    /// Every field any version can have, for documentation and completion.
    public class var allFields: [Member] { record.members }

    // MARK: access

    public var fieldNames: [String] { fields.map(\.name) }

    public func has(_ name: String) -> Bool { index[name] != nil }

    public func field(_ name: String) throws -> Member {
        guard let i = index[name] else { throw unknownField(name) }
        return fields[i]
    }

    /// A field's binary type.
    public func kind(of name: String) throws -> FieldKind {
        guard let i = index[name] else { throw unknownField(name) }
        return kinds[i]
    }

    /// The stored integer bits of a field (for exact TTX output of fixed-point and binary fields).
    public func rawValue(_ name: String) throws -> Int64 {
        guard let i = index[name] else { throw unknownField(name) }
        return raw[i]
    }

    /// Sets a field from its stored integer bits, range-checked.
    public func setRaw(_ name: String, _ value: Int64) throws {
        guard let i = index[name] else { throw unknownField(name) }
        guard kinds[i].rawRange.contains(value) else {
            throw FontError("\(tag).\(name) is \(kinds[i].typeName) (\(kinds[i].rangeText)), got \(value)")
        }
        guard raw[i] != value else { return }
        raw[i] = value
        isEdited = true
        if name == Self.versionFieldName { try relayout(version: UInt32(truncatingIfNeeded: value)) }
    }

    public func value(_ name: String) throws -> FieldValue {
        guard let i = index[name] else { throw unknownField(name) }
        return Self.visible(raw[i], kinds[i])
    }

    /// Sets a field after checking it fits its binary type. Changing the version field
    /// re-lays out the table: new fields start at 0, dropped fields are forgotten.
    public func set(_ name: String, _ value: FieldValue) throws {
        try set(name, raw: try Self.stored(value, try field(name), table: tag))
    }

    /// Sets a field from its stored bits (already checked against its binary type, as Lua's
    /// scalar reader does), refusing a derived field's change and a value the spec does not allow.
    public func set(_ name: String, raw stored: Int64) throws {
        guard let i = index[name] else { throw unknownField(name) }
        guard raw[i] != stored else { return }
        if let source = fields[i].derivedFrom {
            throw FontError("\(tag).\(name) follows \(source) and is recalculated on save; it cannot be set (it is \(raw[i]))")
        }
        if let valid = fields[i].valid, !valid.contains(stored) {
            throw FontError("\(tag).\(name) must be \(valid.lowerBound)...\(valid.upperBound) (OpenType spec), got \(stored)")
        }
        raw[i] = stored
        isEdited = true
        if name == Self.versionFieldName { try relayout(version: UInt32(truncatingIfNeeded: stored)) }
    }

    /// Puts a field back to its stored bits after a temporary change (a preview sweep), and
    /// forgets the edit if the table had none before, so the face reads from its file again.
    public func restore(_ name: String, raw value: Int64, wasEdited: Bool) throws {
        try setRaw(name, value)
        if !wasEdited { isEdited = false }
    }

    /// Integer value of a field, 0 when the version lacks it. For the model's own calculations.
    public func int(_ name: String) -> Int {
        guard let i = index[name] else {
            assert(Self.allFields.contains { $0.name == name }, "\(tag) has no field '\(name)' in any version")
            return 0
        }
        return Int(raw[i])
    }

    /// Integer value of the field at a position found once in the description (see `position`),
    /// for hot accessors such as maxp.numGlyphs that should not hash a name on every read.
    func int(at position: Int) -> Int { (0..<raw.count).contains(position) ? Int(raw[position]) : 0 }

    /// Where a field sits in a field list; -1 (reads as 0) if absent.
    static func position(of name: String, in fields: [Member]) -> Int { fields.firstIndex { $0.name == name } ?? -1 }

    /// Sets an integer field from the model's own recalculation, clamped to the field's range.
    /// Returns "name old → new" when the value changed, for the save report.
    @discardableResult
    func setInt(_ name: String, _ v: Int) -> String? {
        guard let i = index[name] else {
            // Absent in this version is fine (maxp 0.5 has no maxPoints); a name no version has is
            // a typo in the model's own code, which would otherwise do nothing: stop the tests.
            assert(Self.allFields.contains { $0.name == name }, "\(tag) has no field '\(name)' in any version")
            return nil
        }
        let clamped = min(max(Int64(v), kinds[i].rawRange.lowerBound), kinds[i].rawRange.upperBound)
        guard raw[i] != clamped else { return nil }
        let old = raw[i]
        raw[i] = clamped
        isEdited = true
        return "\(tag).\(name) \(old) → \(clamped)"
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter(capacity: 128)
        for (kind, value) in zip(kinds, raw) { Self.write(value, kind, &w) }
        w.append(tail)
        return w.bytes
    }

    // MARK: private

    private func relayout(version: UInt32) throws {
        let newFields = try Self.layout(version: version, length: .max)
        var newRaw = [Int64](repeating: 0, count: newFields.count)
        for (i, f) in newFields.enumerated() { if let old = index[f.name] { newRaw[i] = raw[old] } }
        fields = newFields
        raw = newRaw
        (index, kinds) = Self.index(of: newFields, version: version)
        tail = []
    }

    /// Field positions by name. A table type's layout is fixed by its version and field count,
    /// so each index is built once per process (a batch run opens thousands of fonts).
    private static func index(of fields: [Member], version: UInt32) -> (index: [String: Int], kinds: [FieldKind]) {
        FieldIndexCache.shared.index(for: ObjectIdentifier(self), version: version, fields: fields)
    }

    func unknownField(_ name: String) -> FontError {
        var message = "\(tag) has no field '\(name)'"
        if let near = closestName(to: name, in: Self.allFields.map(\.name)) {
            message += has(near) ? " (did you mean '\(near)'?)" : " ('\(near)' needs a newer table version)"
        }
        return FontError(message)
    }

    static func read(_ kind: FieldKind, _ r: inout BinaryReader) throws -> Int64 {
        switch kind {
        case .uint8: Int64(try r.u8())
        case .int8: Int64(try r.i8())
        case .uint16: Int64(try r.u16())
        case .int16, .f2dot14: Int64(try r.i16())
        case .uint24: Int64(try r.u24())
        case .uint32, .tag, .version32: Int64(try r.u32())
        case .int32, .fixed: Int64(try r.i32())
        case .longDateTime: try r.i64()
        }
    }

    static func write(_ v: Int64, _ kind: FieldKind, _ w: inout BinaryWriter) {
        switch kind {
        case .uint8, .int8: w.u8(UInt8(truncatingIfNeeded: v))
        case .uint16, .int16, .f2dot14: w.u16(UInt16(truncatingIfNeeded: v))
        case .uint24: w.u24(UInt32(truncatingIfNeeded: v))
        case .uint32, .int32, .fixed, .tag, .version32: w.u32(UInt32(truncatingIfNeeded: v))
        case .longDateTime: w.i64(v)
        }
    }

    static func visible(_ v: Int64, _ kind: FieldKind) -> FieldValue {
        switch kind {
        case .fixed: .double(shortestDecimal(v, scale: Fixed.scale))
        case .f2dot14: .double(shortestDecimal(v, scale: F2Dot14.scale))
        case .tag: .string(Tag(UInt32(truncatingIfNeeded: v)).description)
        default: .int(v)
        }
    }

    static func stored(_ value: FieldValue, _ field: Member, table: Tag) throws -> Int64 {
        let label = "\(table).\(field.name)"
        switch (field.kind, value) {
        case (.tag, .string(let s)):
            guard let t = Tag(string: s) else { throw FontError("\(label) must be 1 to 4 ASCII characters, got '\(s)'") }
            return Int64(t.rawValue)
        case (.tag, _):
            throw FontError("\(label) is a Tag: give a string of 1 to 4 ASCII characters")
        case (.fixed, _), (.f2dot14, _):
            let scale = field.kind == .fixed ? Fixed.scale : F2Dot14.scale
            let d: Double
            switch value {
            case .int(let i): d = Double(i)
            case .double(let x): d = x
            case .string: throw FontError("\(label) is a number (\(field.kind.typeName)), got a string")
            }
            let scaled = (d * scale).rounded()
            let range = field.kind.rawRange
            guard scaled.isFinite, scaled >= Double(range.lowerBound), scaled <= Double(range.upperBound) else {
                throw FontError(
                    "\(label) is \(field.kind.typeName) (\(Double(range.lowerBound) / scale)...\(Double(range.upperBound) / scale)), got \(d.described)"
                )
            }
            return Int64(scaled)
        case (_, .int(let i)):
            guard field.kind.rawRange.contains(i) else {
                throw FontError(
                    "\(label) is \(field.kind.typeName) (\(field.kind.rangeText)), got \(i)")
            }
            return i
        case (_, .double(let d)):
            guard d.rounded() == d, let i = Int64(exactly: d) else {
                throw FontError("\(label) is \(field.kind.typeName), an integer; got \(d.described)")
            }
            return try stored(.int(i), field, table: table)
        case (_, .string):
            throw FontError("\(label) is \(field.kind.typeName), a number; got a string")
        }
    }
}

extension Double {
    /// A number as an error message shows it: "NaN" and "infinity" by name (Swift prints
    /// "-nan" and "inf"), others as Swift writes them.
    public var described: String {
        isNaN ? "NaN" : isInfinite ? (self > 0 ? "infinity" : "-infinity") : "\(self)"
    }
}

/// The shortest decimal that stores back as the same fixed-point value (2.37, not
/// 2.3700103759765625), as fontTools shows fixed-point numbers.
public func shortestDecimal(_ raw: Int64, scale: Double) -> Double {
    let exact = Double(raw) / scale
    var factor = 1.0
    for _ in 0...6 {
        let candidate = (exact * factor).rounded() / factor
        if (candidate * scale).rounded() == Double(raw) { return candidate }
        factor *= 10
    }
    return exact
}

/// The name in `candidates` closest to `name` by edit distance, if it is plausibly a typo.
public func closestName(to name: String, in candidates: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
    let lower = Array(name.lowercased())
    let scored = candidates.map { ($0, distance(lower, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(2, name.count / 3) ? best.0 : nil
}

/// Throws a clear error when a fixed table is shorter than its layout needs.
func requireLength(_ length: Int, _ needed: Int, _ what: String) throws {
    guard length >= needed else {
        throw FontError("\(what) needs \(needed) bytes, the table has \(length)")
    }
}

func fieldsLength(_ fields: [Member]) -> Int { fields.reduce(0) { $0 + $1.kind.size } }

/// The field indexes (and binary types) of `FieldTable`, shared by every table of the process.
final class FieldIndexCache: @unchecked Sendable {
    static let shared = FieldIndexCache()
    /// By table type, then by version and field count packed in one Int. (Keys of the standard
    /// library's types: a key type of our own costs each process a scan of every conformance
    /// record when its dictionary is first made, about 60 µs.)
    private var indexes: [ObjectIdentifier: [Int: (index: [String: Int], kinds: [FieldKind])]] = [:]
    private let lock = PosixLock()

    func index(for type: ObjectIdentifier, version: UInt32, fields: [Member]) -> (index: [String: Int], kinds: [FieldKind]) {
        let key = Int(version) &<< 32 | fields.count
        return lock.withLock {
            if let known = indexes[type]?[key] { return known }
            var d: [String: Int] = [:]
            for (i, f) in fields.enumerated() { d[f.name] = i }
            let entry = (d, fields.map(\.kind))
            indexes[type, default: [:]][key] = entry
            return entry
        }
    }
}
