/// A piece of a table as it is written: bytes borrowed from the source file (copied straight to
/// the output, never into memory) or bytes made by an encoder.
public enum ByteChunk {
    case borrowed(UnsafeRawBufferPointer)
    case owned([UInt8])

    public var count: Int {
        switch self {
        case .borrowed(let b): b.count
        case .owned(let a): a.count
        }
    }

    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        switch self {
        case .borrowed(let b): try body(b)
        case .owned(let a): try a.withUnsafeBytes(body)
        }
    }
}

/// The sfnt checksum of a sequence of chunks, as if they were one zero-padded buffer.
func sfntChecksum(_ chunks: [ByteChunk]) -> UInt32 {
    if chunks.count == 1 { return chunks[0].withBytes { sfntChecksum($0) } }
    var sum: UInt32 = 0
    var word: UInt32 = 0
    var filled = 0
    for chunk in chunks {
        chunk.withBytes { buffer in
            var i = 0
            // Finish a partial word, run the aligned middle fast, keep the tail.
            while filled != 0 && i < buffer.count {
                word = word << 8 | UInt32(buffer[i]); filled += 1; i += 1
                if filled == 4 { sum &+= word; word = 0; filled = 0 }
            }
            let whole = i + (buffer.count - i) & ~3
            if whole > i { sum &+= sfntChecksum(UnsafeRawBufferPointer(rebasing: buffer[i..<whole])) }
            i = max(i, whole)
            while i < buffer.count { word = word << 8 | UInt32(buffer[i]); filled += 1; i += 1 }
        }
    }
    if filled > 0 { sum &+= word << UInt32(8 * (4 - filled)) }
    return sum
}
