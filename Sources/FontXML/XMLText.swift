/// UTF-8 text built as bytes: what the big TTX tables (glyf, hex data) are written with.
/// Appending to a Swift `String` through interpolation makes a temporary per piece; this
/// appends literals, names and decimal numbers straight into one growing buffer.
struct XMLText {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func add(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ v: Int) {
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = v.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[k]) }
        }
    }

    /// A number in lowercase hex, without a prefix (cmap's codes).
    mutating func addHex(_ v: UInt32) {
        let digits: StaticString = "0123456789abcdef"
        var shift = 28
        while shift > 0 && (v >> UInt32(shift)) == 0 { shift -= 4 }
        while shift >= 0 {
            bytes.append(digits.utf8Start[Int((v >> UInt32(shift)) & 0xF)])
            shift -= 4
        }
    }

    /// Indentation is copied from a run of spaces (appending a `repeatElement` goes element by element).
    private static let spaceRun = [UInt8](repeating: 0x20, count: 128)

    mutating func spaces(_ n: Int) {
        var n = max(0, n)
        while n > 0 {
            let k = min(n, Self.spaceRun.count)
            bytes.append(contentsOf: Self.spaceRun[0..<k])
            n -= k
        }
    }

    /// Bytes as lowercase hex, 16 to a line of four groups, each line indented: ttx's hexdata.
    /// Written in place at its known size (colour bitmap tables are tens of megabytes of it).
    mutating func hexLines(_ data: [UInt8], indent: Int) {
        guard !data.isEmpty else { return }
        let indent = max(0, indent)
        let full = data.count / 16, rest = data.count % 16
        let fullLine = indent + 32 + 3 + 1
        let size = full * fullLine + (rest == 0 ? 0 : indent + 2 * rest + (rest - 1) / 4 + 1)
        let digits: StaticString = "0123456789abcdef"
        // Made in a buffer of its own, filled once (growing the text by a `repeatElement` of
        // spaces went byte by byte), then appended with one copy.
        let lines = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            out.initialize(repeating: 0x20)
            initialized = size
            digits.withUTF8Buffer { hex in
                data.withUnsafeBufferPointer { input in
                    var at = 0
                    var i = 0
                    while i < input.count {
                        at += indent   // already spaces
                        let end = min(i + 16, input.count)
                        for j in i..<end {
                            if j > i && (j - i) % 4 == 0 { at += 1 }   // the space between groups
                            out[at] = hex[Int(input[j] >> 4)]; out[at + 1] = hex[Int(input[j] & 0xF)]
                            at += 2
                        }
                        out[at] = 0x0A
                        at += 1
                        i = end
                    }
                }
            }
        }
        if bytes.isEmpty { bytes = lines } else { bytes.append(contentsOf: lines) }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
