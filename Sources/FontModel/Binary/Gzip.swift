import CZlib

/// gzip members (RFC 1952), as SVG tables may store their documents ("\x1F\x8B" first).
public enum Gzip {
    public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }

    /// The uncompressed bytes. The size comes from the member's trailer and is checked against
    /// what zlib gives; past deflate's best ratio (about 1,032:1) it is refused before
    /// anything is allocated.
    public static func decompress(_ data: [UInt8], what: String) throws -> [UInt8] {
        guard data.count >= 18 else { throw FontError("\(what): a gzip member of \(data.count) bytes is too short") }
        let claimed = data.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        guard claimed <= data.count * 1032 + 64 else {
            throw FontError("\(what): gzip data claims \(claimed) bytes from \(data.count): more than deflate can give")
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FontError("\(what): zlib could not start (out of memory)")
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: claimed)
        // Bytes after the first member are ignored, as gzip readers do.
        let (status, produced) = data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output -> (Int32, Int) in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self) ?? UnsafeMutablePointer(bitPattern: 1)
                stream.avail_out = uInt(output.count)
                let status = inflate(&stream, Z_FINISH)
                return (status, output.count - Int(stream.avail_out))
            }
        }
        guard status == Z_STREAM_END, produced == claimed else {
            throw FontError("\(what): the gzip data is damaged (zlib status \(status), \(produced) of \(claimed) bytes)")
        }
        return out
    }

    /// A gzip member of `data` at zlib's best compression, with no name and time 0.
    public static func compress(_ data: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw FontError("zlib could not start (out of memory)")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 32)
        let (status, produced) = data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output -> (Int32, Int) in
                stream.next_in = UnsafeMutablePointer(
                    mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self) ?? UnsafePointer(bitPattern: 1)!)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(output.count)
                let status = deflate(&stream, Z_FINISH)
                return (status, output.count - Int(stream.avail_out))
            }
        }
        guard status == Z_STREAM_END else { throw FontError("zlib could not compress (status \(status))") }
        return Array(out.prefix(produced))
    }
}
