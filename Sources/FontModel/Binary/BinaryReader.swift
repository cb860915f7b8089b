/// A bounds-checked big-endian cursor over a slice of bytes. Every read that would leave the
/// slice throws a FontError naming the absolute file offset, so a malformed font never traps.
public struct BinaryReader {
    public let bytes: UnsafeRawBufferPointer
    /// Absolute offset of `bytes[0]` in the file, for error messages.
    public let base: Int
    /// Position relative to `bytes[0]`.
    public var offset: Int

    public init(_ bytes: UnsafeRawBufferPointer, base: Int = 0, offset: Int = 0) {
        self.bytes = bytes
        self.base = base
        self.offset = offset
    }

    public var count: Int { bytes.count }
    public var remaining: Int { bytes.count - offset }

    public func error(_ message: String, at position: Int? = nil) -> FontError {
        FontError(message, offset: base + (position ?? offset))
    }

    /// A reader over `length` bytes at `start` (relative), checked against this slice.
    public func sub(_ start: Int, _ length: Int) throws -> BinaryReader {
        guard start >= 0, length >= 0, start <= bytes.count, length <= bytes.count - start else {
            throw error(
                "\(length) bytes at \(start) run past the end of the data (\(bytes.count) bytes)", at: min(max(start, 0), bytes.count))
        }
        return BinaryReader(UnsafeRawBufferPointer(rebasing: bytes[start..<start + length]), base: base + start)
    }

    /// A reader from `start` to the end of this slice.
    public func sub(from start: Int) throws -> BinaryReader {
        guard start >= 0, start <= bytes.count else {
            throw error("offset \(start) is past the end of the data (\(bytes.count) bytes)", at: min(max(start, 0), bytes.count))
        }
        return try sub(start, bytes.count - start)
    }

    @inline(__always)
    mutating func need(_ n: Int) throws {
        guard n <= bytes.count - offset, offset >= 0 else {
            throw error("unexpected end of data: need \(n) bytes, \(max(bytes.count - offset, 0)) left")
        }
    }

    public mutating func seek(_ position: Int) throws {
        guard position >= 0, position <= bytes.count else {
            throw error("offset \(position) is past the end of the data (\(bytes.count) bytes)", at: min(max(position, 0), bytes.count))
        }
        offset = position
    }

    public mutating func skip(_ n: Int) throws {
        try need(n)
        offset += n
    }

    @inline(__always) public mutating func u8() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    @inline(__always) public mutating func i8() throws -> Int8 { Int8(bitPattern: try u8()) }

    @inline(__always) public mutating func u16() throws -> UInt16 {
        try need(2)
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    @inline(__always) public mutating func i16() throws -> Int16 { Int16(bitPattern: try u16()) }

    @inline(__always) public mutating func u24() throws -> UInt32 {
        try need(3)
        defer { offset += 3 }
        return UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
    }

    @inline(__always) public mutating func u32() throws -> UInt32 {
        try need(4)
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    @inline(__always) public mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }

    public mutating func i64() throws -> Int64 {
        let high = UInt64(try u32()), low = UInt64(try u32())
        return Int64(bitPattern: high << 32 | low)
    }

    /// An unsigned offset of `size` bytes (1–4), as in CFF INDEXes.
    public mutating func offsetValue(size: Int) throws -> Int {
        switch size {
        case 1: return Int(try u8())
        case 2: return Int(try u16())
        case 3: return Int(try u24())
        case 4: return Int(try u32())
        default: throw error("invalid offset size \(size)")
        }
    }

    public mutating func tag() throws -> Tag { Tag(try u32()) }

    public mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n >= 0 else { throw error("negative length \(n)") }
        try need(n)
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    /// Reads at an absolute position without moving the cursor.
    public func u16(at position: Int) throws -> UInt16 {
        var copy = self
        try copy.seek(position)
        return try copy.u16()
    }

    public func u32(at position: Int) throws -> UInt32 {
        var copy = self
        try copy.seek(position)
        return try copy.u32()
    }
}
