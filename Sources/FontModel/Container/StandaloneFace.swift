/// One face laid out as a standalone font without copying it: the directory, then each table
/// where a save would put it, unchanged tables borrowed from the mapped file and edited ones
/// encoded as a save encodes them. What a renderer reads an edited face through (FreeType as a
/// stream, HarfBuzz table by table), so a sweep over a 20 MB collection does not copy 20 MB
/// per cell. Directory checksums of borrowed tables are left 0: nothing that reads the view
/// checks them, and computing them would touch every page.
public final class StandaloneFace {
    public let length: Int
    /// Table tags and their bytes, in file order.
    public private(set) var tables: [(tag: Tag, offset: Int, bytes: UnsafeRawBufferPointer)] = []
    private let header: UnsafeMutableRawBufferPointer
    /// Copies this view owns (encoded tables, multi-part encodings joined), freed with it.
    private var owned: [UnsafeMutableRawBufferPointer] = []
    /// Keeps the mapping that borrowed tables point into alive.
    private let source: FontBytes

    init(header bytes: [UInt8], tables list: [(tag: Tag, offset: Int, chunks: [ByteChunk])], source: FontBytes) {
        self.source = source
        header = StandaloneFace.copy(bytes)
        owned.append(header)
        var end = bytes.count
        for t in list.sorted(by: { $0.offset < $1.offset }) {
            let view: UnsafeRawBufferPointer
            if t.chunks.count == 1, case .borrowed(let region) = t.chunks[0] {
                view = region
            } else {
                let joined = StandaloneFace.copy(t.chunks.flatMap { c in c.withBytes { Array($0) } })
                owned.append(joined)
                view = UnsafeRawBufferPointer(joined)
            }
            tables.append((t.tag, t.offset, view))
            end = max(end, t.offset + view.count)
        }
        length = (end + 3) & ~3
    }

    deinit { owned.forEach { $0.deallocate() } }

    private static func copy(_ bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count])
    }

    public func table(_ tag: Tag) -> UnsafeRawBufferPointer? { tables.first { $0.tag == tag }?.bytes }

    /// Copies `count` bytes from `offset` of the laid-out font into `destination` (alignment
    /// padding reads as zeros); returns how many bytes were available.
    public func read(from offset: Int, count: Int, into destination: UnsafeMutableRawPointer) -> Int {
        let n = max(0, min(count, length - offset))
        guard n > 0 else { return 0 }
        destination.initializeMemory(as: UInt8.self, repeating: 0, count: n)
        let want = offset..<(offset + n)
        func copy(_ bytes: UnsafeRawBufferPointer, at start: Int) {
            let overlap = want.clamped(to: start..<(start + bytes.count))
            guard !overlap.isEmpty, let base = bytes.baseAddress else { return }
            (destination + (overlap.lowerBound - offset)).copyMemory(from: base + (overlap.lowerBound - start), byteCount: overlap.count)
        }
        copy(UnsafeRawBufferPointer(header), at: 0)
        // First table that ends after the wanted start (tables are in file order).
        var lo = 0, hi = tables.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tables[mid].offset + tables[mid].bytes.count <= offset { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < tables.count, tables[i].offset < want.upperBound {
            copy(tables[i].bytes, at: tables[i].offset)
            i += 1
        }
        return n
    }
}

extension Font {
    /// One face, edits included, as a standalone font laid out in place (see `StandaloneFace`):
    /// the same recalculation and encodings as a save, nothing copied that did not change.
    public func standalone(face: Face) throws -> StandaloneFace {
        guard faces.contains(where: { $0 === face }) else { throw FontError("the face is not part of this font", path: path) }
        return try standaloneView(of: face)
    }
}
