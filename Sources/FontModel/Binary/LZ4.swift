/// LZ4 block format (no frame), as Graphite's compressed Silf and Glat tables use it
/// (compression scheme 1). A block is a run of sequences: a token (literal count in the high
/// nibble, match length − 4 in the low one, 15 meaning "more bytes follow"), the literals, then a
/// two-byte little-endian distance back into what was already written. The last sequence is
/// literals only.
public enum LZ4 {
    /// Decodes a block that must expand to exactly `size` bytes. Work is bounded by `size`,
    /// which the caller checks against the input first (`maximumExpansion`).
    public static func decompress(_ input: [UInt8], size: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var i = 0
        func fail(_ what: String) -> FontError { FontError("LZ4 data \(what) at byte \(i) of \(input.count)") }
        func length(_ nibble: Int) throws -> Int {
            var n = nibble
            guard nibble == 15 else { return n }
            while true {
                guard i < input.count else { throw fail("ends inside a length") }
                let b = Int(input[i]); i += 1
                n += b
                guard n <= size else { throw fail("runs past the \(size) bytes it claims") }
                if b != 255 { return n }
            }
        }
        while i < input.count {
            let token = Int(input[i]); i += 1
            let literals = try length(token >> 4)
            guard literals <= input.count - i, literals <= size - out.count else { throw fail("has more literals than it holds or claims") }
            out.append(contentsOf: input[i..<i + literals])
            i += literals
            if i == input.count { break }   // the last sequence: literals only
            guard i + 2 <= input.count else { throw fail("ends inside a match distance") }
            let distance = Int(input[i]) | Int(input[i + 1]) << 8
            i += 2
            let match = try length(token & 15) + 4
            guard distance > 0, distance <= out.count else { throw fail("points \(distance) bytes back with \(out.count) written") }
            guard match <= size - out.count else { throw fail("runs past the \(size) bytes it claims") }
            var from = out.count - distance
            for _ in 0..<match { out.append(out[from]); from += 1 }   // byte by byte: a match may overlap itself
        }
        guard out.count == size else { throw FontError("LZ4 data expands to \(out.count) bytes, not the \(size) claimed") }
        return out
    }

    /// How much larger than its input a block can expand (a match of up to 255 bytes per
    /// length byte): a claimed size beyond this is damage, refused before allocating.
    public static func maximumExpansion(of count: Int) -> Int { count * 255 + 16 }

    /// Encodes `data` as one block: greedy matching through a hash of the next four bytes,
    /// ending with at least five literals as the format requires.
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count / 2 + 16)
        let n = data.count
        let hashBits = 16
        var table = [Int](repeating: -1, count: 1 << hashBits)
        func read32(_ p: Int) -> UInt32 {
            UInt32(data[p]) | UInt32(data[p + 1]) << 8 | UInt32(data[p + 2]) << 16 | UInt32(data[p + 3]) << 24
        }
        func hash(_ p: Int) -> Int { Int((read32(p) &* 2_654_435_761) >> UInt32(32 - hashBits)) }
        func putLength(_ v: Int) {
            var rest = v
            while rest >= 255 { out.append(255); rest -= 255 }
            out.append(UInt8(rest))
        }
        func emit(literalsFrom start: Int, to end: Int, match: (distance: Int, length: Int)?) {
            let literals = end - start
            let matchCode = match.map { $0.length - 4 } ?? 0
            out.append(UInt8(min(literals, 15) << 4 | min(matchCode, 15)))
            if literals >= 15 { putLength(literals - 15) }
            out.append(contentsOf: data[start..<end])
            guard let match else { return }
            out.append(UInt8(match.distance & 0xFF)); out.append(UInt8(match.distance >> 8))
            if matchCode >= 15 { putLength(matchCode - 15) }
        }
        let matchLimit = n - 5   // the last five bytes are always literals
        let lastMatchStart = n - 12   // and no match starts in the last twelve
        var anchor = 0, p = 0
        while p < lastMatchStart {
            let h = hash(p)
            let candidate = table[h]
            table[h] = p
            if candidate >= 0, p - candidate <= 65535, read32(candidate) == read32(p) {
                var length = 4
                while p + length < matchLimit && data[candidate + length] == data[p + length] { length += 1 }
                emit(literalsFrom: anchor, to: p, match: (p - candidate, length))
                p += length
                anchor = p
            } else {
                p += 1
            }
        }
        emit(literalsFrom: anchor, to: n, match: nil)
        return out
    }
}
