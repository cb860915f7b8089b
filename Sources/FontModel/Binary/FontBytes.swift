#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The immutable bytes of a font file: memory-mapped from a path, or owned when opened from bytes.
/// Tables keep a reference to it and read their slices lazily, so nothing is copied on open.
public final class FontBytes: @unchecked Sendable {
    public let buffer: UnsafeRawBufferPointer
    private let release: () -> Void
    /// True when `buffer` maps the file (pages can be dropped and re-read), false when owned.
    public let isMapped: Bool
    /// The TruncationGuard slot watching the mapping (-1: none).
    private var guardSlot = -1
    /// The file the mapping came from.
    public private(set) var path: String?

    /// True when another program truncated the mapped file while it was open: reads past its
    /// new end returned zeros instead of crashing, so nothing read since can be trusted.
    public var wasTruncated: Bool { TruncationGuard.isTruncated(guardSlot) }

    /// Throws when the file was truncated while open (see `wasTruncated`).
    public func checkIntact() throws {
        guard wasTruncated else { return }
        throw FontError("the file was truncated by another program while open; what was read past its new end is zeros, so nothing is written from it: open it again", path: path)
    }


    public var count: Int { buffer.count }

    /// Copies `bytes` into storage this object owns.
    public init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = storage.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        buffer = UnsafeRawBufferPointer(rebasing: storage[0..<bytes.count])
        release = { storage.deallocate() }
        isMapped = false
    }

    /// Maps the file read-only. Pages are read by the kernel only when a table touches them.
    public init(mapping path: String) throws {
        try FontBytes.checkPath(path)
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer for ever;
        // fstat below then refuses it like any other file that is not a regular file.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw FontError("cannot open: \(String(cString: strerror(errno)))", path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw FontError("cannot stat: \(String(cString: strerror(errno)))", path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FontError("not a regular file", path: path)
        }
        let size = Int(info.st_size)
        OpenFontFiles.add(info)
        if size == 0 {
            let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 8)
            buffer = UnsafeRawBufferPointer(rebasing: storage[0..<0])
            release = { storage.deallocate() }
            isMapped = false
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw FontError("cannot map: \(String(cString: strerror(errno)))", path: path)
        }
        buffer = UnsafeRawBufferPointer(start: address, count: size)
        let slot = TruncationGuard.watch(address, count: size, path: path)
        release = { TruncationGuard.forget(slot); munmap(address, size) }
        isMapped = true
        guardSlot = slot
        self.path = path
    }

    /// Maps `count` bytes of an open file (one being written, to read it back before it is
    /// renamed into place). The descriptor stays the caller's.
    public init(mapping fd: Int32, count: Int) throws {
        guard count > 0, let address = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else {
            throw FontError("cannot read back the written file: \(String(cString: strerror(errno)))")
        }
        buffer = UnsafeRawBufferPointer(start: address, count: count)
        release = { munmap(address, count) }
        isMapped = true
    }

    /// Lets the kernel drop the mapped pages wholly inside `region` from this process (they are
    /// re-read from the file if touched again), so streaming a large file through a save does not
    /// keep it all resident. Does nothing for owned bytes or memory outside the mapping.
    func dropPages(_ region: UnsafeRawBufferPointer) {
        guard isMapped, let start = region.baseAddress, let base = buffer.baseAddress,
              start >= base, start + region.count <= base + buffer.count else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let last = (Int(bitPattern: start) + region.count) / page * page
        guard last > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, last - first, Int32(MADV_DONTNEED))
    }

    deinit { release() }

    /// Refuses a path the C library would read differently: a NUL byte would cut it short.
    public static func checkPath(_ path: String) throws {
        guard !path.isEmpty else { throw FontError("empty path") }
        guard !path.utf8.contains(0) else {
            throw FontError("path contains a NUL byte: \"\(path.split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "\\0"))\"")
        }
    }

    /// A copy of `range`, which the caller has bounds-checked.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(buffer[range])
    }
}
