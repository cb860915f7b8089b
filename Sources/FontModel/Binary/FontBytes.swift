#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The immutable bytes of a font file: read from a path on demand, or owned when opened from bytes.
/// Tables keep a reference to it and read their slices lazily, so nothing is copied on open.
///
/// A file is read two ways. Small ranges (the directory, most tables) are copied with `pread`
/// into memory this object owns; the whole file is memory-mapped only when something needs a
/// large table or all of it. Mapping is lazy too, but each page it touches costs a fault on the
/// way in and again on `munmap`, which dominated a run over a thousand fonts that read only
/// their names; a few small reads cost a tenth of that.
public final class FontBytes: @unchecked Sendable {
    /// The file's size (or the owned bytes' count).
    public let count: Int
    /// The open file (-1 for owned bytes, or once the whole file is mapped without one).
    private var fd: Int32 = -1
    /// The whole file, once mapped or read (owned bytes: set from the start).
    private var whole: UnsafeRawBufferPointer?
    private var releaseWhole: (() -> Void)?
    /// Copies of small ranges read with pread, by start offset; freed with this object.
    private var pieces: [Int: [UnsafeMutableRawBufferPointer]] = [:]
    private let lock = PosixLock()
    /// True once `buffer` maps the file (pages can be dropped and re-read), false when owned.
    public private(set) var isMapped = false
    /// The TruncationGuard slot watching the mapping (-1: none).
    private var guardSlot = -1
    /// A read came back short: the file shrank while open.
    private var readShort = false
    /// The file the bytes came from.
    public private(set) var path: String?

    /// Ranges up to this size are copied rather than mapped.
    static let pieceLimit = 64 << 10
    /// Files kept open at once for reading on demand; past this a file is mapped whole at open
    /// and closed (as every file was before), so holding many fonts cannot run out of descriptors.
    private static let openFileLimit = 256
    nonisolated(unsafe) private static var openFiles = 0
    private static let openFilesLock = PosixLock()

    /// True when another program truncated the file while it was open: reads past its new end
    /// returned zeros instead of crashing, so nothing read since can be trusted.
    public var wasTruncated: Bool { lock.withLock { readShort } || TruncationGuard.isTruncated(guardSlot) }

    /// Throws when the file was truncated while open (see `wasTruncated`).
    public func checkIntact() throws {
        guard wasTruncated else { return }
        throw FontError(
            "the file was truncated by another program while open; what was read past its new end is zeros, so nothing is written from it: open it again",
            path: path)
    }

    /// Copies `bytes` into storage this object owns.
    public init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = storage.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        count = bytes.count
        whole = UnsafeRawBufferPointer(rebasing: storage[0..<bytes.count])
        releaseWhole = { storage.deallocate() }
    }

    /// `count` bytes written once by `fill` into storage this object owns (no array and no
    /// zeroing in between: the instancer lays a whole font out this way).
    public init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        do { try fill(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count])) } catch {
            storage.deallocate()
            throw error
        }
        self.count = count
        whole = UnsafeRawBufferPointer(rebasing: storage[0..<count])
        releaseWhole = { storage.deallocate() }
    }

    /// Opens the file read-only. Nothing is read until a table is used.
    public init(mapping path: String) throws {
        try FontBytes.checkPath(path)
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer for ever;
        // fstat below then refuses it like any other file that is not a regular file.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw FontError("cannot open: \(String(cString: strerror(errno)))", path: path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw FontError("cannot stat: \(message)", path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FontError("not a regular file", path: path)
        }
        count = Int(info.st_size)
        self.path = path
        OpenFontFiles.add(info)
        self.fd = fd
        let kept = FontBytes.openFilesLock.withLock {
            guard FontBytes.openFiles < FontBytes.openFileLimit else { return false }
            FontBytes.openFiles += 1
            return true
        }
        if !kept {
            defer { close(fd); self.fd = -1 }
            try mapWhole()
        }
    }

    /// Maps `count` bytes of an open file (one being written, to read it back before it is
    /// renamed into place). The descriptor stays the caller's.
    public init(mapping fd: Int32, count: Int) throws {
        guard count > 0, let address = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else {
            throw FontError("cannot read back the written file: \(String(cString: strerror(errno)))")
        }
        self.count = count
        whole = UnsafeRawBufferPointer(start: address, count: count)
        releaseWhole = { munmap(address, count) }
        isMapped = true
    }

    deinit {
        releaseWhole?()
        for list in pieces.values { for piece in list { piece.deallocate() } }
        if fd >= 0 {
            close(fd)
            FontBytes.openFilesLock.withLock { FontBytes.openFiles -= 1 }
        }
    }

    /// The whole file, mapped on first use (read into memory if it cannot be mapped).
    public var buffer: UnsafeRawBufferPointer {
        lock.withLock {
            if let whole { return whole }
            do { try mapWhole() } catch { readWhole() }
            return whole!
        }
    }

    /// Maps the open file. Called with the lock held (or from init).
    private func mapWhole() throws {
        guard count > 0 else {
            whole = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw FontError("cannot map: \(String(cString: strerror(errno)))", path: path)
        }
        let size = count
        let slot = path.map { TruncationGuard.watch(address, count: size, path: $0) } ?? -1
        whole = UnsafeRawBufferPointer(start: address, count: size)
        releaseWhole = {
            TruncationGuard.forget(slot); munmap(address, size)
        }
        isMapped = true
        guardSlot = slot
    }

    /// The fallback when mapping fails: the file read into memory (zeros past a short read).
    private func readWhole() {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        if !readFully(into: UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]), at: 0) {
            readShort = true
            if let path { TruncationGuard.noteTruncated(path: path) }
        }
        whole = UnsafeRawBufferPointer(rebasing: storage[0..<count])
        releaseWhole = { storage.deallocate() }
    }

    /// pread until `target` is full; false when the file ended first or a read failed.
    private func readFully(into target: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < target.count {
            let n = pread(fd, target.baseAddress! + done, target.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The bytes of `range`, which the caller has checked lies inside the file: a copy for a
    /// small range of a file, the mapping otherwise. Valid as long as this object lives.
    public func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        lock.withLock {
            if let whole { return UnsafeRawBufferPointer(rebasing: whole[range]) }
            guard range.count <= FontBytes.pieceLimit, fd >= 0 else {
                if (try? mapWhole()) == nil { readWhole() }
                return UnsafeRawBufferPointer(rebasing: whole![range])
            }
            if let list = pieces[range.lowerBound], let piece = list.first(where: { $0.count == range.count }) {
                return UnsafeRawBufferPointer(piece)
            }
            let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: max(range.count, 1), alignment: 8)
            let target = UnsafeMutableRawBufferPointer(rebasing: piece[0..<range.count])
            if !readFully(into: target, at: range.lowerBound) {
                // The file shrank since it was opened: zeros, as a truncated mapping reads.
                target.initializeMemory(as: UInt8.self, repeating: 0)
                _ = readFully(into: target, at: range.lowerBound)
                readShort = true
                if let path { TruncationGuard.noteTruncated(path: path) }
            }
            pieces[range.lowerBound, default: []].append(target)
            return UnsafeRawBufferPointer(target)
        }
    }

    /// A reader over `range` (checked by the caller), reporting absolute file offsets.
    public func reader(_ range: Range<Int>) -> BinaryReader {
        BinaryReader(bytes(range), base: range.lowerBound)
    }

    /// Lets the kernel drop the mapped pages wholly inside `region` from this process (they are
    /// re-read from the file if touched again), so streaming a large file through a save does not
    /// keep it all resident. Does nothing for owned bytes or memory outside the mapping.
    func dropPages(_ region: UnsafeRawBufferPointer) {
        guard isMapped, let buffer = lock.withLock({ whole }), let start = region.baseAddress, let base = buffer.baseAddress,
            start >= base, start + region.count <= base + buffer.count
        else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let last = (Int(bitPattern: start) + region.count) / page * page
        guard last > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, last - first, Int32(MADV_DONTNEED))
    }

    /// Refuses a path the C library would read differently: a NUL byte would cut it short.
    public static func checkPath(_ path: String) throws {
        guard !path.isEmpty else { throw FontError("empty path") }
        guard !path.utf8.contains(0) else {
            throw FontError(
                "path contains a NUL byte: \"\(path.split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "\\0"))\"")
        }
    }

    /// A copy of `range`, which the caller has bounds-checked.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(bytes(range))
    }
}
