/// `cvt `, the control value table: the distances, in font units, that TrueType instructions
/// read and write by index (stem widths, heights, overshoots). An array of FWORDs, nothing else.
public final class CvtTable: DecodableTable {
    public static let tableTag: Tag = "cvt "

    public private(set) var values: [Int]
    public private(set) var isEdited = false

    public init(values: [Int]) throws {
        try Self.check(values)
        self.values = values
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> CvtTable {
        guard reader.count % 2 == 0 else {
            throw reader.error("cvt is \(reader.count) bytes, not a whole number of 16-bit values", at: reader.count - 1)
        }
        var r = reader
        var values: [Int] = []
        values.reserveCapacity(reader.count / 2)
        while r.remaining > 0 { values.append(Int(try r.i16())) }
        return try CvtTable(values: values)
    }

    static func check(_ values: [Int]) throws {
        if let k = values.firstIndex(where: { !(-32768...32767).contains($0) }) {
            throw FontError("cvt value \(k) is \(values[k]); control values are FWORDs (-32768...32767)")
        }
    }

    /// Replaces every value (the table grows or shrinks to their count).
    public func setValues(_ new: [Int]) throws {
        try Self.check(new)
        guard new != values else { return }
        values = new
        isEdited = true
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        for v in values { w.i16(Int16(v)) }
        return w.bytes
    }
}

extension CvtTable: DiffableTable {
    /// Control values changed, added or removed, by index.
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? CvtTable else { return nil }
        var out: [Difference] = []
        for k in 0..<max(values.count, other.values.count) {
            let a = k < values.count ? values[k] : nil, b = k < other.values.count ? other.values[k] : nil
            guard a != b else { continue }
            out.append(
                Difference(
                    kind: a == nil ? .added : b == nil ? .removed : .changed, table: "cvt", item: String(k),
                    old: a.map(String.init), new: b.map(String.init)))
        }
        return out
    }
}
