/// How a structured OpenType table is drawn in the spec (GDEF, GSUB, GPOS, BASE, JSTF …):
/// records of members, arrays whose length another member holds, Offset16/Offset32 links to
/// subtables, subtables that come in formats, and the shared Coverage, ClassDef and Device
/// tables. A table described this way gets its binary reading and writing (`StructureCodec`),
/// TTX XML (FontXML), Lua access (FontScript) and diff (`StructureDiff`) from the description.
public indirect enum Shape: Sendable {
    /// A number of a fixed binary type.
    case scalar(FieldKind)
    /// A record laid out inline.
    case record(Record)
    /// An Offset16 or Offset32 (from the start of the enclosing subtable) to a subtable;
    /// offset 0 means none.
    case offset(Shape, bytes: Int)
    /// A subtable that starts with a uint16 format number selecting one of several records.
    case formats(name: String, [Int: Record])
    /// The same with a uint8 format number (COLR's Paint, ClipBox and ClipList).
    case formats8(name: String, [Int: Record])
    /// A Coverage table (formats 1 and 2): glyph ids in coverage order.
    case coverage
    /// A ClassDef table (formats 1 and 2): glyph id → class; class 0 is not stored.
    case classDef
    /// A Device table (hinting deltas, formats 1–3) or a VariationIndex (format 0x8000).
    case device
    /// A structure not described yet: a table that has one (non-null) cannot be decoded, and
    /// is kept, dumped and compared as bytes. The text says what it is.
    case undescribed(String)
    /// A glyph id (uint16), shown by glyph name in XML and Lua.
    case glyph
    /// One of several shapes, chosen by the value of an earlier scalar member (a lookup's
    /// subtables by its LookupType). Each case has the name XML gives its element.
    case switched(on: String, [Int: SwitchCase])
    /// A GPOS ValueRecord whose fields the named ValueFormat member (of this record or an
    /// enclosing one) selects.
    case valueRecord(format: String)
    /// GSUB lookup types 1–4 as fontTools presents them: input glyphs → output glyphs.
    case substitutions(SubstitutionKind)
    /// One row of an ItemVariationData's deltas, a list of integers: as many as the named
    /// `columns` count, the first (`shorts` & 0x7FFF) 16-bit and the rest 8-bit, or 32-bit and
    /// 16-bit when `shorts` has its 0x8000 bit (LONG_WORDS). The widths are the stored
    /// `shorts` member's; a delta that does not fit them is an error when written.
    case deltaRow(shorts: String, columns: String)
    /// A leaf with its own codec and TTX in one type (`CustomLeaf`): the escape hatch for what
    /// records cannot say.
    case custom(any CustomLeaf.Type)
    /// COLR's ClipList: glyph ranges with Offset24s to ClipBoxes (formats 1 and 2), read as
    /// fontTools groups them: a list of records `{Glyph: [glyph ids], ClipBox}`, one per
    /// distinct box, in first-seen order. Written back as ranges of consecutive glyphs.
    case clipList
    /// An AAT lookup (`AATLookup`: formats 0, 2, 4, 6, 8) from glyph to a value: a 16-bit
    /// scalar, or an Offset16 (from the start of the enclosing subtable) to a record (opbd's
    /// bounds, lcar's carets). Read as a list of records `{Glyph, Value}` in glyph order, as
    /// fontTools reads it into a dict; written with the smallest format, the records it points
    /// at right after it (so it must be its record's last member).
    case aatLookup(Shape)
    /// ankr's form of it: two Offset32s (from the enclosing subtable's start), to an AAT lookup
    /// whose 16-bit values are offsets into the data the second points at, and that data (the
    /// shape is `.offset16(record)`: one record per value). Read and written like `aatLookup`'s
    /// records: `{Glyph, Value}` in glyph order; identical records are written once.
    case aatLookupWithData(Shape)
    /// A shape that contains itself (COLR's Paint, whose formats point at other Paints), made
    /// when first reached. Walks over descriptions stop here; codecs follow it.
    case recursive(name: String, @Sendable () -> Shape)

    /// HVAR/VVAR's map from glyph to delta-set index (fontTools' VarIdxMap): a list of
    /// outer << 16 | inner, one per glyph from the first (`GlyphIndexMapLeaf`).
    public static var glyphIndexMap: Shape { .custom(GlyphIndexMapLeaf.self) }
    /// A DeltaSetIndexMap read by index (COLR's VarIndexMap, avar 2's axis map: `IndexMapLeaf`).
    public static var indexMap: Shape { .custom(IndexMapLeaf.self) }

    public static func offset16(_ s: Shape) -> Shape { .offset(s, bytes: 2) }
    public static func offset24(_ s: Shape) -> Shape { .offset(s, bytes: 3) }
    public static func offset32(_ s: Shape) -> Shape { .offset(s, bytes: 4) }

    /// The shape an offset leads to (itself for everything else), a recursive shape made.
    public var target: Shape {
        if case .offset(let s, _) = self { return s.target }
        if case .recursive(_, let make) = self { return make().target }
        return self
    }
}

public struct SwitchCase: Sendable {
    public let name: String
    public let shape: Shape
    public init(_ name: String, _ shape: Shape) { self.name = name; self.shape = shape }
}

public enum SubstitutionKind: Sendable {
    /// One glyph for one (lookup type 1, formats 1 and 2).
    case single
    /// A sequence for one (type 2).
    case multiple
    /// A choice of alternates for one (type 3).
    case alternate
    /// One glyph for a sequence (type 4).
    case ligature
}

/// One member of a record: a name as fontTools and the spec spell it, a shape, and when it
/// repeats, the member holding the count.
public struct Member: Sendable {
    public let name: String
    public let shape: Shape
    /// For an array: the name of the member that holds its length: an earlier member of the
    /// same record, or of an enclosing one (MarkBasePos's ClassCount counts each BaseRecord's
    /// anchors). That member is not stored: it is derived from the arrays, rewritten on save.
    public let count: String?
    /// The array holds count + bias items (an Input sequence lists all glyphs but the first: -1).
    public let countBias: Int
    /// Present only when the record's first member (the table version) is at least this.
    public let since: UInt32?
    /// Present only when the named earlier scalar has one of these bits set (MarkFilteringSet).
    public var when: (name: String, mask: Int64)? { extras?.when }
    /// For a list of offsets: each subtable is decoded when first used (`LazySubtable`), not
    /// with the table (a lookup's subtables).
    public let lazy: Bool
    /// How a scalar is written in TTX (versions are hex).
    public let ttxFormat: TTXFormat
    /// For an offset: its subtable is read after the rest of the record, because it needs a
    /// count the record stores later (COLR's LayerRecordArray, counted by LayerRecordCount).
    public let deferred: Bool
    /// For a Coverage: the list whose items belong to its glyphs, one per covered glyph (a
    /// PairPos's PairSet; a MarkBasePos's MarkArray.MarkRecord), as member names from this
    /// record. Glyph edits that add or remove a covered glyph keep the two in step.
    public var parallel: [String]? { extras?.parallel }
    /// What few members have (see `Extras`); nil for most.
    let extras: Extras?

    /// The element name in TTX, when fontTools' differs from the spec's (hhea's ascender is
    /// `<ascent>`); the member's name otherwise.
    public var ttxName: String { extras?.ttxName ?? name }
    /// An element around this member and its neighbours with the same group in TTX (OS/2's
    /// PANOSE bytes sit inside `<panose>`). Used by the field tables' records.
    public var ttxGroup: String? { extras?.ttxGroup }
    /// What the OpenType spec allows when narrower than the binary type (unitsPerEm 16...16384):
    /// a field table refuses anything else when set, validate warns (`field-ranges`).
    public var valid: ClosedRange<Int64>? { extras?.valid }
    /// Set when the value follows from other data and is recalculated on save: says from what.
    /// A field table refuses setting it to anything but its current value.
    public var derivedFrom: String? { extras?.derivedFrom }

    /// A condition, a parallel list, a TTX name of its own, a TTX group, the spec's range, what
    /// it is derived from: kept apart (one reference, nil for most members) because the codec
    /// and the XML writer copy members in their hottest loops, and each of these made every
    /// copy bigger.
    final class Extras: Sendable {
        let when: (name: String, mask: Int64)?, parallel: [String]?
        let ttxName: String?, ttxGroup: String?, valid: ClosedRange<Int64>?, derivedFrom: String?
        init?(
            when: (name: String, mask: Int64)? = nil, parallel: [String]? = nil, ttxName: String?, ttxGroup: String?,
            valid: ClosedRange<Int64>?, derivedFrom: String?
        ) {
            guard when != nil || parallel != nil || ttxName != nil || ttxGroup != nil || valid != nil || derivedFrom != nil else {
                return nil
            }
            self.when = when
            self.parallel = parallel
            self.ttxName = ttxName
            self.ttxGroup = ttxGroup
            self.valid = valid
            self.derivedFrom = derivedFrom
        }
    }

    public init(
        _ name: String, _ shape: Shape, count: String? = nil, bias: Int = 0, since: UInt32? = nil,
        when: (name: String, mask: Int64)? = nil, ttx: TTXFormat = .plain, parallel: [String]? = nil, lazy: Bool = false,
        deferred: Bool = false, ttxName: String? = nil, group: String? = nil, valid: ClosedRange<Int64>? = nil,
        derivedFrom: String? = nil
    ) {
        self.name = name
        self.shape = shape
        self.count = count
        countBias = bias
        self.since = since
        ttxFormat = ttx
        self.lazy = lazy
        self.deferred = deferred
        extras = Extras(when: when, parallel: parallel, ttxName: ttxName, ttxGroup: group, valid: valid, derivedFrom: derivedFrom)
    }

    /// A scalar member, as the field tables (head, hhea, OS/2 …) list theirs: its binary type,
    /// its TTX name and format when they differ, an enclosing TTX group, the spec's range, what
    /// it is derived from, and the table version that adds it.
    public init(
        _ name: String, _ kind: FieldKind, ttxName: String? = nil, format: TTXFormat = .plain, group: String? = nil,
        valid: ClosedRange<Int64>? = nil, derivedFrom: String? = nil, since: UInt32? = nil
    ) {
        self.init(name, .scalar(kind), since: since, ttx: format, ttxName: ttxName, group: group, valid: valid, derivedFrom: derivedFrom)
    }

    /// The binary type of a scalar member. Field tables are made of scalars only (a test holds
    /// every registered one to that), so their code can ask it of any member.
    public var kind: FieldKind {
        guard case .scalar(let kind) = shape else { preconditionFailure("\(name) is not a scalar member") }
        return kind
    }
}

/// A record: its members in binary order. For a format of a `formats` subtable, the members
/// after the format number.
public struct Record: Sendable {
    public let name: String
    public let members: [Member]
    /// Names of members that only hold another member's length.
    public let countNames: Set<String>

    /// A member whose value TTX also writes as an attribute of the record's element
    /// (fontTools' `Format="0"` on FeatureParamsCharacterVariants).
    public let formatAttribute: String?

    public init(_ name: String, _ members: [Member], formatAttribute: String? = nil) {
        self.name = name
        self.members = members
        self.formatAttribute = formatAttribute
        // A member is a count when an array here or in any record inside counts by it.
        let used = Set(members.flatMap { [$0.count].compactMap { $0 } + Self.nestedCounts($0.shape) })
        countNames = Set(members.map(\.name).filter { used.contains($0) })
        // Scalars something reads back by name: counts, switch selectors, conditions, ValueFormats.
        let referenced = used.union(members.flatMap { [$0.when?.name].compactMap { $0 } + Self.nestedSelectors($0.shape) })
        scopeNames = Set(members.map(\.name).filter { referenced.contains($0) })
        valueMembers = members.filter { [countNames] in !countNames.contains($0.name) }
        glyphMembers = valueMembers.filter { if case .glyph = $0.shape { return true } else { return false } }
    }

    /// Members that are glyph ids (a rule's sequences, a pair's second glyph).
    public let glyphMembers: [Member]

    /// Names of members whose values the decoder and encoder look up by name.
    public let scopeNames: Set<String>

    /// Switch selectors, conditions and ValueFormats named anywhere inside a shape.
    static func nestedSelectors(_ shape: Shape) -> [String] {
        switch shape {
        case .record(let r): r.members.flatMap { [$0.when?.name].compactMap { $0 } + nestedSelectors($0.shape) }
        case .offset(let s, _): nestedSelectors(s)
        case .formats(_, let records), .formats8(_, let records):
            records.values.flatMap { r in r.members.flatMap { [$0.when?.name].compactMap { $0 } + nestedSelectors($0.shape) } }
        case .switched(let selector, let cases): [selector] + cases.values.flatMap { nestedSelectors($0.shape) }
        case .valueRecord(let format): [format]
        case .deltaRow(let shorts, let columns): [shorts, columns]
        default: []
        }
    }

    /// Count names used by arrays anywhere inside a shape.
    static func nestedCounts(_ shape: Shape) -> [String] {
        switch shape {
        case .record(let r): r.members.flatMap { [$0.count].compactMap { $0 } + nestedCounts($0.shape) }
        case .offset(let s, _): nestedCounts(s)
        case .formats(_, let records), .formats8(_, let records):
            records.values.flatMap { r in r.members.flatMap { [$0.count].compactMap { $0 } + nestedCounts($0.shape) } }
        case .switched(_, let cases): cases.values.flatMap { nestedCounts($0.shape) }
        default: []
        }
    }

    /// The members stored as values (count members are derived from their arrays).
    public let valueMembers: [Member]
}

/// A decoded structured value. Records keep their members in description order, without the
/// count members and without members their version lacks.
public enum StructValue: Equatable, Sendable {
    /// A subtable decoded when first used (see `resolved()`).
    case lazy(LazySubtable)
    case int(Int64)
    case record(StructFields)
    case list([StructValue])
    /// A null offset: no subtable.
    case none
    /// A subtable in one of its formats.
    case formatted(Int, StructFields)
    /// Coverage: glyph ids in coverage order, kept as runs (a format-2 range of 30,000 glyphs
    /// is one run, so memory follows the table's bytes, not the glyphs it names).
    case glyphs(GlyphRuns)
    /// ClassDef: runs of glyphs with their class, ascending by glyph, class 0 left out.
    case classes([ClassRun])
    /// Device: sizes and deltas (formats 1–3), or a VariationIndex (format 0x8000: outer, inner).
    case device(DeviceValue)
    /// The value of a `switched` shape, with the case it takes.
    indirect case switched(Int, StructValue)
    /// Substitutions in binary order (coverage order; ligatures by first glyph, then as stored).
    case substitutions([Substitution])
    /// A subtable that does not decode (an unknown format, a damaged offset), kept as bytes
    /// inside the typed table: dumped as hexdata, written back unchanged.
    case opaque(OpaqueSubtable)

    public var int: Int64? { if case .int(let v) = self { return v } else { return nil } }
    /// The members of a record or format; a lazy subtable is decoded (nil if it cannot be:
    /// use `resolved()` where the error matters).
    public var fields: StructFields? {
        switch self {
        case .record(let f), .formatted(_, let f): f
        case .switched(_, let v): v.fields
        case .lazy(let l): (try? l.value())?.fields
        default: nil
        }
    }

    /// Equal values; a lazy subtable equals one from the same place without being decoded, and
    /// is decoded to compare with anything else.
    public static func == (a: StructValue, b: StructValue) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): x == y
        case (.record(let x), .record(let y)): x == y
        case (.list(let x), .list(let y)): x == y
        case (.none, .none): true
        case (.formatted(let n, let x), .formatted(let m, let y)): n == m && x == y
        case (.glyphs(let x), .glyphs(let y)): x == y
        case (.classes(let x), .classes(let y)): x == y
        case (.device(let x), .device(let y)): x == y
        case (.switched(let k, let x), .switched(let j, let y)): k == j && x == y
        case (.substitutions(let x), .substitutions(let y)): x == y
        case (.opaque(let x), .opaque(let y)): x.bytes == y.bytes
        case (.lazy(let x), .lazy(let y)) where x.isSamePlace(as: y): true
        case (.lazy(let x), _): (try? x.value()).map { $0 == b } ?? false
        case (_, .lazy(let y)): (try? y.value()).map { a == $0 } ?? false
        default: false
        }
    }
}

public struct Substitution: Equatable, Sendable {
    public var input: [Int]
    public var output: [Int]
    public init(_ input: [Int], _ output: [Int]) { self.input = input; self.output = output }
}

/// Glyph ids in order, as runs of consecutive ids; equal sets of glyphs in the same order are
/// equal however they were split.
public struct GlyphRuns: Equatable, Sendable {
    public private(set) var runs: [ClosedRange<Int>] = []
    public private(set) var count = 0

    public init() {}
    public init<S: Sequence>(_ glyphs: S) where S.Element == Int { for g in glyphs { append(g...g) } }

    public mutating func append(_ run: ClosedRange<Int>) {
        if let last = runs.last, run.lowerBound == last.upperBound + 1 {
            runs[runs.count - 1] = last.lowerBound...run.upperBound
        } else {
            runs.append(run)
        }
        count += run.count
    }

    /// Every glyph id, in order (as long as the coverage is).
    public var glyphs: [Int] { runs.flatMap { Array($0) } }
    public var isAscending: Bool { zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound } }
}

/// Glyphs `first...last` of one class.
public struct ClassRun: Equatable, Sendable {
    public var first: Int
    public var last: Int
    public var glyphClass: Int
    public init(first: Int, last: Int, glyphClass: Int) { self.first = first; self.last = last; self.glyphClass = glyphClass }

    /// Sorted runs with adjacent runs of one class merged and class 0 left out, so equal class
    /// assignments compare equal. Overlaps keep the first run's class for the shared glyphs.
    public static func normalized(_ runs: [ClassRun]) -> [ClassRun] {
        var out: [ClassRun] = []
        for r in runs.filter({ $0.glyphClass != 0 && $0.first <= $0.last }).sorted(by: { $0.first < $1.first }) {
            var r = r
            if let last = out.last {
                if r.first <= last.last { r.first = last.last + 1; if r.first > r.last { continue } }
                if r.first == last.last + 1 && r.glyphClass == last.glyphClass { out[out.count - 1].last = r.last; continue }
            }
            out.append(r)
        }
        return out
    }
}

public struct DeviceValue: Equatable, Sendable {
    public var startSize: Int
    public var endSize: Int
    public var deltaFormat: Int
    public var deltas: [Int]
    public init(startSize: Int, endSize: Int, deltaFormat: Int, deltas: [Int]) {
        self.startSize = startSize; self.endSize = endSize; self.deltaFormat = deltaFormat; self.deltas = deltas
    }
}

/// The stored members of a record, by name, in description order.
public struct StructFields: Equatable, Sendable {
    public private(set) var names: [String] = []
    public private(set) var values: [StructValue] = []

    public init() {}

    public init(capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    public subscript(name: String) -> StructValue? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            if let i = names.firstIndex(of: name) {
                if let newValue { values[i] = newValue } else { names.remove(at: i); values.remove(at: i) }
            } else if let newValue {
                names.append(name); values.append(newValue)
            }
        }
    }

    public var count: Int { names.count }
}

/// The scalars of the records being read or written (binary, XML or Lua), innermost last: what
/// counts, switches, conditions and ValueRecords look up by name.
public struct StructScope: Sendable {
    private var frames: [[String: Int64]] = []

    public init() {}

    /// Starts a record (pair with `leave`).
    public mutating func enter() { frames.append([:]) }
    public mutating func leave() { frames.removeLast() }

    /// Records a scalar of the current record.
    public mutating func note(_ name: String, _ value: Int64) {
        if !frames.isEmpty { frames[frames.count - 1][name] = value }
    }

    /// A member's value by name, from the innermost record out; a count written as a number in
    /// the description (`count: "32"`: bsln's 32 deltas) is itself.
    public func lookup(_ name: String) -> Int64? {
        for frame in frames.reversed() { if let v = frame[name] { return v } }
        return Int64(name)
    }

    /// Whether a member is there: its version has it and its condition holds.
    public func includes(_ member: Member, version: UInt32?) -> Bool {
        if let since = member.since, (version ?? 0) < since { return false }
        if let condition = member.when, (lookup(condition.name) ?? 0) & condition.mask == 0 { return false }
        return true
    }
}

/// A glyph's name for XML, Lua and diff: the font's, or fontTools' "glyph00100" for an id the
/// font does not have.
public func glyphName(_ id: Int, in names: [String]) -> String {
    if id >= 0 && id < names.count { return names[id] }
    let digits = String(id)
    return "glyph" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
}

/// The bytes of a subtable that did not decode, from its start to the end of its table: every
/// offset inside it counts from its start and points forward, so these bytes hold all it refers
/// to, and written anywhere they read as they did. `reason` is the decoding error, `offset`
/// the file offset it names; `isUndescribed` says the structure is valid but not described yet
/// (not damage: validate does not report it).
public struct OpaqueSubtable: Sendable {
    public let bytes: [UInt8]
    public let reason: String
    public let offset: Int?
    public let isUndescribed: Bool
    public init(bytes: [UInt8], reason: String, offset: Int? = nil, isUndescribed: Bool = false) {
        self.bytes = bytes; self.reason = reason; self.offset = offset; self.isUndescribed = isUndescribed
    }
    /// The reason with the offset, for messages.
    public var description: String { reason + (offset.map { " (offset \($0))" } ?? "") }
}

extension Shape {
    /// Whether this is an offset to a subtable.
    var isOffset: Bool { if case .offset = self { true } else { false } }
}
