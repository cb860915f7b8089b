/// GPOS at a location, patched in place: each value and anchor coordinate that has a
/// VariationIndex device gets its delta added where it is stored, and the device offset is
/// cleared (a null offset is a valid "no device"). Everything else stays byte for byte, so an
/// instance of a font with 100,000 kerning values costs one pass over them instead of a decode
/// and re-encode of the whole table. fontTools' instancer rewrites the table instead (value
/// formats recomputed, anchors turned into format 1, classes renumbered); `InstanceOptions.
/// rewriteLayout` does that (`LayoutVariations`) where identical output matters more than speed.
struct PositioningPatch {
    private(set) var bytes: [UInt8]
    let delta: (Int, Int) -> Int
    /// Partial instances keep the devices (their rows now vary over the kept axes only) and
    /// add only the pinned axes' share to the stored values.
    let keepDevices: Bool
    private var seenSubtables: OffsetSet, seenAnchors: OffsetSet, seenPairSets: OffsetSet
    /// Patched values and cleared devices.
    private(set) var patched = 0

    /// A value with a VariationIndex device but no stored value to add the delta to: only a
    /// rewrite can add the field.
    struct NeedsRewrite: Error {}

    init(_ bytes: [UInt8], keepDevices: Bool = false, delta: @escaping (Int, Int) -> Int) {
        self.bytes = bytes; self.keepDevices = keepDevices; self.delta = delta
        (seenSubtables, seenAnchors, seenPairSets) = (
            OffsetSet(size: bytes.count), OffsetSet(size: bytes.count), OffsetSet(size: bytes.count)
        )
    }

    private func u16(_ at: Int) throws -> Int {
        guard at >= 0, at + 2 <= bytes.count else {
            throw FontError("GPOS data at \(at) runs past the table's \(bytes.count) bytes", table: "GPOS", offset: at)
        }
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    private func u32(_ at: Int) throws -> Int { try u16(at) << 16 | u16(at + 2) }

    private mutating func set16(_ at: Int, _ v: Int) {
        let bits = UInt16(truncatingIfNeeded: v)
        bytes[at] = UInt8(bits >> 8); bytes[at + 1] = UInt8(bits & 0xFF)
    }

    /// The delta of the device at `device` when it is a VariationIndex, else nil.
    private func variation(at device: Int) throws -> Int? {
        guard try u16(device + 4) == 0x8000 else { return nil }
        return delta(try u16(device), try u16(device + 2))
    }

    /// Adds a device's delta to the int16 at `value` and clears the offset at `offsetAt`.
    private mutating func apply(value: Int?, offsetAt: Int, base: Int) throws {
        let offset = try u16(offsetAt)
        guard offset != 0, let d = try variation(at: base + offset) else { return }
        if keepDevices && d == 0 { return }
        guard let value else { throw NeedsRewrite() }
        let raw = try u16(value)
        let new = (raw >= 0x8000 ? raw - 0x10000 : raw) + d
        guard (-32768...32767).contains(new) else {
            throw FontError("a GPOS value becomes \(new) at this location, past Int16", table: "GPOS", offset: value)
        }
        set16(value, new)
        if !keepDevices { set16(offsetAt, 0) }
        patched += 1
    }

    static func recordSize(_ format: Int) -> Int { 2 * (format & 0xFF).nonzeroBitCount }

    /// A value record's device offsets (format bits 4–7) with the values they vary (bits 0–3):
    /// each field sits after the fields of the lower bits that are present.
    private mutating func valueRecord(at start: Int, format: Int, base: Int) throws {
        guard format & 0xF0 != 0 else { return }
        func field(_ bit: Int) -> Int { start + 2 * (format & ((1 << bit) - 1)).nonzeroBitCount }
        for bit in 4..<8 where format & (1 << bit) != 0 {
            try apply(value: format & (1 << (bit - 4)) != 0 ? field(bit - 4) : nil, offsetAt: field(bit), base: base)
        }
    }

    private mutating func anchor(at start: Int) throws {
        guard seenAnchors.insert(start), try u16(start) == 3 else { return }
        try apply(value: start + 2, offsetAt: start + 6, base: start)
        try apply(value: start + 4, offsetAt: start + 8, base: start)
    }

    private mutating func anchor(offsetAt: Int, base: Int) throws {
        let offset = try u16(offsetAt)
        if offset != 0 { try anchor(at: base + offset) }
    }

    /// Every lookup's subtables (extensions followed).
    mutating func patchAll() throws {
        let lookupList = try u16(8)
        guard lookupList != 0 else { return }
        for i in 0..<(try u16(lookupList)) {
            let lookup = lookupList + (try u16(lookupList + 2 + 2 * i))
            let type = try u16(lookup)
            for j in 0..<(try u16(lookup + 4)) {
                try subtable(type: type, at: lookup + (try u16(lookup + 6 + 2 * j)))
            }
        }
    }

    private mutating func subtable(type: Int, at start: Int) throws {
        guard seenSubtables.insert(start) else { return }
        let format = try u16(start)
        switch type {
        case 9: try subtable(type: try u16(start + 2), at: start + (try u32(start + 4)))
        case 1:
            let vf = try u16(start + 4)
            if format == 1 {
                try valueRecord(at: start + 6, format: vf, base: start)
            } else if format == 2 {
                let size = Self.recordSize(vf)
                for k in 0..<(try u16(start + 6)) { try valueRecord(at: start + 8 + k * size, format: vf, base: start) }
            }
        case 2:
            let vf1 = try u16(start + 4), vf2 = try u16(start + 6)
            guard (vf1 | vf2) & 0xF0 != 0 else { return }
            let size1 = Self.recordSize(vf1), size2 = Self.recordSize(vf2)
            if format == 1 {
                for k in 0..<(try u16(start + 8)) {
                    let set = start + (try u16(start + 10 + 2 * k))
                    guard seenPairSets.insert(set) else { continue }
                    let record = 2 + size1 + size2
                    for r in 0..<(try u16(set)) {
                        let at = set + 2 + r * record
                        try valueRecord(at: at + 2, format: vf1, base: set)
                        try valueRecord(at: at + 2 + size1, format: vf2, base: set)
                    }
                }
            } else if format == 2 {
                let classes = (try u16(start + 12)) * (try u16(start + 14))
                for k in 0..<classes {
                    let at = start + 16 + k * (size1 + size2)
                    try valueRecord(at: at, format: vf1, base: start)
                    try valueRecord(at: at + size1, format: vf2, base: start)
                }
            }
        case 3:
            for k in 0..<(try u16(start + 4)) {
                try anchor(offsetAt: start + 6 + 4 * k, base: start)
                try anchor(offsetAt: start + 8 + 4 * k, base: start)
            }
        case 4, 5, 6:
            let classCount = try u16(start + 6)
            let marks = start + (try u16(start + 8))
            for k in 0..<(try u16(marks)) { try anchor(offsetAt: marks + 4 + 4 * k, base: marks) }
            let bases = start + (try u16(start + 10))
            if type == 5 {
                for k in 0..<(try u16(bases)) {
                    let attach = bases + (try u16(bases + 2 + 2 * k))
                    for n in 0..<(try u16(attach)) * classCount { try anchor(offsetAt: attach + 2 + 2 * n, base: attach) }
                }
            } else {
                for n in 0..<(try u16(bases)) * classCount { try anchor(offsetAt: bases + 2 + 2 * n, base: bases) }
            }
        default: break   // contextual lookups (7, 8) hold no values
        }
    }
}
