/// The sfnt table checksum: the sum of big-endian UInt32s, the data zero-padded to 4 bytes.
public func sfntChecksum(_ data: UnsafeRawBufferPointer) -> UInt32 {
    var sum: UInt32 = 0
    let whole = data.count & ~3
    var i = 0
    // Word loads (the data need not be aligned); a font file is summed in a few milliseconds.
    while i < whole {
        sum &+= UInt32(bigEndian: data.loadUnaligned(fromByteOffset: i, as: UInt32.self))
        i += 4
    }
    if whole < data.count {
        var last: UInt32 = 0
        for j in 0..<4 {
            last <<= 8
            if whole + j < data.count { last |= UInt32(data[whole + j]) }
        }
        sum &+= last
    }
    return sum
}

public func sfntChecksum(_ data: [UInt8]) -> UInt32 {
    data.withUnsafeBytes { sfntChecksum($0) }
}
