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
        guard reader.count % 2 == 0 else { throw reader.error("cvt is \(reader.count) bytes, not a whole number of 16-bit values", at: reader.count - 1) }
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
