import FontModel

/// DSIG in TTX, as fontTools writes it: `<tableHeader version= numSigs= flag=/>`, then each
/// signature as a `<SignatureRecord format=>` holding its PKCS#7 packet as PEM-style base64.
extension TTX {
    static let dsigConverter = Converter(
        dump: { face in
            guard let dsig = try face.table(DSIGTable.self) else { return nil }
            var out = "  <DSIG>\n    <!-- note that the Digital Signature will be invalid after recompilation! -->\n"
            out +=
                "    <tableHeader flag=\"0x\(String(dsig.flags, radix: 16, uppercase: true))\" numSigs=\"\(dsig.signatures.count)\" version=\"\(dsig.version)\"/>\n"
            for s in dsig.signatures {
                var attributes = "format=\"\(s.format)\""
                // fontTools reads reserved fields back but never writes them; we write them only when set.
                if s.reserved1 != 0 { attributes += " reserved1=\"\(s.reserved1)\"" }
                if s.reserved2 != 0 { attributes += " reserved2=\"\(s.reserved2)\"" }
                out += "    <SignatureRecord \(attributes)>\n-----BEGIN PKCS7-----\n"
                let text = Base64.encode(s.pkcs7)
                var start = text.startIndex
                while start < text.endIndex {
                    let end = text.index(start, offsetBy: 76, limitedBy: text.endIndex) ?? text.endIndex
                    out += text[start..<end] + "\n"
                    start = end
                }
                out += "-----END PKCS7-----\n    </SignatureRecord>\n"
            }
            return out + "  </DSIG>\n"
        },
        fuse: { element, face, apply in
            var version: UInt32 = 1, flags: UInt16 = 0, declared: Int?
            var signatures: [DSIGTable.Signature] = []
            for e in element.children {
                func fail(_ message: String) -> XMLError { XMLError(message, line: e.line, column: e.column) }
                func number(_ key: String, max: Int64, default value: String? = nil) throws -> Int64 {
                    let text = try value.map { e.value(key) ?? $0 } ?? e.attribute(key)
                    guard let v = parseInteger(text), (0...max).contains(v) else {
                        throw fail("\(key)=\"\(text)\" is not a number in 0...\(max)")
                    }
                    return v
                }
                switch e.name {
                case "tableHeader":
                    version = UInt32(try number("version", max: 0xFFFF_FFFF))
                    flags = UInt16(try number("flag", max: 0xFFFF))
                    declared = Int(try number("numSigs", max: 0xFFFF))
                case "SignatureRecord":
                    let base64 = e.text.split(separator: "\n").map { String($0).trimmingWhitespace() }
                        .filter { !$0.isEmpty && !$0.hasPrefix("-----BEGIN") && !$0.hasPrefix("-----END") }.joined()
                    guard let packet = Base64.decode(base64) else { throw fail("the signature is not base64") }
                    signatures.append(
                        DSIGTable.Signature(
                            format: UInt32(try number("format", max: 0xFFFF_FFFF)),
                            reserved1: UInt16(try number("reserved1", max: 0xFFFF, default: "0")),
                            reserved2: UInt16(try number("reserved2", max: 0xFFFF, default: "0")), pkcs7: packet))
                default: throw fail("<\(e.name)> in <DSIG>: expected <tableHeader> or <SignatureRecord>")
                }
            }
            if let declared, declared != signatures.count {
                throw XMLError(
                    "tableHeader says numSigs=\"\(declared)\" but \(signatures.count) SignatureRecord\(signatures.count == 1 ? " follows" : "s follow")",
                    line: element.line, column: element.column)
            }
            if apply { face.setRawTable("DSIG", try DSIGTable(version: version, flags: flags, signatures: signatures).encode()) }
        })
}

/// Base64 (RFC 4648, with padding), for DSIG's signatures.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for k in 0..<4 { out.append(k <= n ? alphabet[Int(chunk >> (18 - 6 * k) & 63)] : UInt8(ascii: "=")) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for anything but base64 (whitespace already removed); padding optional.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        var ended = false
        for c in text.utf8 {
            if c == UInt8(ascii: "=") { ended = true; continue }
            guard !ended, let v = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt8(v))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i < values.count {
            let n = min(4, values.count - i)
            var chunk: UInt32 = 0
            for k in 0..<4 { chunk = chunk << 6 | (k < n ? UInt32(values[i + k]) : 0) }
            for k in 0..<(n - 1) { out.append(UInt8(chunk >> (16 - 8 * k) & 0xFF)) }
            i += 4
        }
        return out
    }
}

extension DSIGTable: TTXTable { static var ttx: TTX.Converter { TTX.dsigConverter } }
