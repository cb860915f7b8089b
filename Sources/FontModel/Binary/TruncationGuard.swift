#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mapped font file that another program truncates while FontShell has it open would make
/// the next read of a page past the new end raise SIGBUS and kill the process. This guard
/// catches SIGBUS for addresses inside FontShell's own mappings, maps a page of zeros in place
/// of the vanished one (so the read completes) and marks the mapping as truncated. Saves
/// refuse to write from a truncated source, and the command reports it; nothing is written
/// from zeros. Faults anywhere else keep their default action.
public enum TruncationGuard {
    /// Mapping slots the signal handler reads: base address, length, and a truncated flag.
    /// Fixed storage allocated once, so the handler touches no Swift runtime.
    private static let capacity = 4096
    nonisolated(unsafe) private static let bases = UnsafeMutablePointer<UInt>.allocate(capacity: capacity)
    nonisolated(unsafe) private static let lengths = UnsafeMutablePointer<UInt>.allocate(capacity: capacity)
    nonisolated(unsafe) private static let truncated = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var installed = false
    /// Which file each slot maps, and files found truncated whose mapping is gone.
    nonisolated(unsafe) private static var paths: [Int: String] = [:]
    nonisolated(unsafe) private static var released: [String] = []

    /// Every mapped file truncated while open in this process (so far), for the command to report.
    public static func truncatedFiles() -> [String] {
        lock.withLock { released + paths.filter { truncated[$0.key] != 0 }.map(\.value).sorted() }
    }
    private static let lock = PosixLock()

    /// Watches a mapping; returns its slot (or -1 when every slot is taken: then unguarded).
    static func watch(_ base: UnsafeRawPointer, count: Int, path: String) -> Int {
        lock.withLock {
            let slot = watchLocked(base, count: count)
            if slot >= 0 { paths[slot] = path }
            return slot
        }
    }

    private static func watchLocked(_ base: UnsafeRawPointer, count: Int) -> Int {
        if !installed {
            for i in 0..<capacity { bases[i] = 0; lengths[i] = 0; truncated[i] = 0 }
            install()
            installed = true
        }
        for i in 0..<capacity where lengths[i] == 0 {
            truncated[i] = 0
            bases[i] = UInt(bitPattern: base)
            lengths[i] = UInt(count)
            return i
        }
        return -1
    }

    static func forget(_ slot: Int) {
        guard slot >= 0 else { return }
        lock.withLock {
            if truncated[slot] != 0, let path = paths[slot] { released.append(path) }
            paths[slot] = nil
            lengths[slot] = 0
            bases[slot] = 0
        }
    }

    static func isTruncated(_ slot: Int) -> Bool { slot >= 0 && truncated[slot] != 0 }

    /// Records a file found shorter than when it was opened by a read (not a mapping), so the
    /// command reports it with the others.
    static func noteTruncated(path: String) {
        lock.withLock { if !released.contains(path) { released.append(path) } }
    }

    private static func install() {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_sigaction = handler
        #else
        action.__sigaction_u.__sa_sigaction = handler
        #endif
        action.sa_flags = SA_SIGINFO | SA_NODEFER
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }

    private static let handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, info, _ in
        #if canImport(Glibc)
        let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
        #else
        let address = UInt(bitPattern: info?.pointee.si_addr)
        #endif
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        for i in 0..<TruncationGuard.capacity {
            let base = TruncationGuard.bases[i], length = TruncationGuard.lengths[i]
            guard length > 0, address >= base, address < base + length else { continue }
            let start = address / page * page
            if mmap(UnsafeMutableRawPointer(bitPattern: start), Int(page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
                != MAP_FAILED
            {
                TruncationGuard.truncated[i] = 1
                return
            }
            break
        }
        // Not one of ours (or it could not be patched): the default action, as if unhandled.
        signal(SIGBUS, SIG_DFL)
    }
}
