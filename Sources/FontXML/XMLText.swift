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
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
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

    mutating func spaces(_ n: Int) {
        for _ in 0..<max(0, n) { bytes.append(0x20) }
    }

    /// Bytes as lowercase hex, 16 to a line of four groups, each line indented: ttx's hexdata.
    mutating func hexLines(_ data: [UInt8], indent: Int) {
        let digits: StaticString = "0123456789abcdef"
        bytes.reserveCapacity(bytes.count + data.count * 2 + data.count / 16 * (indent + 5) + indent + 5)
        digits.withUTF8Buffer { hex in
            var i = 0
            while i < data.count {
                spaces(indent)
                let end = min(i + 16, data.count)
                for j in i..<end {
                    if j > i && (j - i) % 4 == 0 { bytes.append(0x20) }
                    bytes.append(hex[Int(data[j] >> 4)]); bytes.append(hex[Int(data[j] & 0xF)])
                }
                bytes.append(0x0A)
                i += 16
            }
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
