/// Appends big-endian values to a byte array.
public struct BinaryWriter {
    public var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public var count: Int { bytes.count }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func i8(_ v: Int8) { bytes.append(UInt8(bitPattern: v)) }
    public mutating func u16(_ v: UInt16) { bytes.append(UInt8(v >> 8)); bytes.append(UInt8(v & 0xFF)) }
    public mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    public mutating func u24(_ v: UInt32) {
        bytes.append(UInt8((v >> 16) & 0xFF)); bytes.append(UInt8((v >> 8) & 0xFF)); bytes.append(UInt8(v & 0xFF))
    }
    public mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(v >> 24)); bytes.append(UInt8((v >> 16) & 0xFF))
        bytes.append(UInt8((v >> 8) & 0xFF)); bytes.append(UInt8(v & 0xFF))
    }
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func i64(_ v: Int64) {
        let u = UInt64(bitPattern: v)
        u32(UInt32(truncatingIfNeeded: u >> 32)); u32(UInt32(truncatingIfNeeded: u))
    }
    public mutating func tag(_ t: Tag) { u32(t.rawValue) }
    public mutating func append<S: Sequence>(_ s: S) where S.Element == UInt8 { bytes.append(contentsOf: s) }
    public mutating func append(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }

    // Checked writes of computed values: a value that does not fit its field throws a FontError
    // naming the field instead of trapping (counts, offsets and lengths grow with user edits).

    public mutating func u8(_ v: Int, _ what: @autoclosure () -> String) throws {
        u8(UInt8(try BinaryWriter.fit(v, 0...0xFF, what)))
    }
    public mutating func u16(_ v: Int, _ what: @autoclosure () -> String) throws {
        u16(UInt16(try BinaryWriter.fit(v, 0...0xFFFF, what)))
    }
    public mutating func i16(_ v: Int, _ what: @autoclosure () -> String) throws {
        i16(Int16(try BinaryWriter.fit(v, -0x8000...0x7FFF, what)))
    }
    public mutating func u24(_ v: Int, _ what: @autoclosure () -> String) throws {
        u24(UInt32(try BinaryWriter.fit(v, 0...0xFF_FFFF, what)))
    }
    public mutating func u32(_ v: Int, _ what: @autoclosure () -> String) throws {
        u32(UInt32(try BinaryWriter.fit(v, 0...0xFFFF_FFFF, what)))
    }

    /// `v` when it lies in `range`, else a FontError saying which value overflowed.
    public static func fit(_ v: Int, _ range: ClosedRange<Int>, _ what: () -> String) throws -> Int {
        guard range.contains(v) else {
            throw FontError("\(what()) is \(v), outside what the format can store (\(range.lowerBound)...\(range.upperBound))")
        }
        return v
    }

    /// An unsigned offset of `size` bytes (1–4), as in CFF INDEXes.
    public mutating func offsetValue(_ v: Int, size: Int) {
        switch size {
        case 1: u8(UInt8(truncatingIfNeeded: v))
        case 2: u16(UInt16(truncatingIfNeeded: v))
        case 3: u24(UInt32(truncatingIfNeeded: v))
        default: u32(UInt32(truncatingIfNeeded: v))
        }
    }

}
