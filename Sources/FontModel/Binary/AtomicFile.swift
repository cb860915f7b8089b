#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way FontShell writes a file (fonts, XML, PNGs, manifests): the new contents go to a
/// temporary file in the target's folder, are flushed, and then renamed over the target, so a
/// reader sees the old file or the new one, never half of one.
///
/// - Only a regular file (or a new path) is replaced: devices, FIFOs and folders are refused.
/// - A symlink is written through: its target is replaced and the link stays; unless the name
///   is one FontShell made up itself (`followSymlinks: false`), where a link is refused, so a
///   planted link cannot send a write out of the folder.
/// - A replaced file keeps its mode and (where permitted) owner and group.
/// - An input of this process (a font it opened, or a file registered with `protectInput`: a
///   script, XML, a text file, the fonts a batch reads) is refused unless `overwrite` is set,
///   however the path is spelled (`./`, `..`, a symlink or a hard link: files are compared by
///   device and inode).
/// - On Linux the temporary file is anonymous (`O_TMPFILE`) until the instant before the rename,
///   so a kill -9 or a full disk leaves nothing behind; elsewhere it is named
///   `.fontshell-save-<pid>-…` and a later write to that folder removes those whose process is gone.
public enum AtomicFile {
    /// Set once by a sandbox for untrusted code (FontScript's, used by the Lua fuzz target):
    /// every later write fails, for the whole process. Never cleared.
    nonisolated(unsafe) public private(set) static var writesRefused = false
    public static func refuseWrites() { writesRefused = true }

    /// Writes `path` through `body`, which receives the temporary file's descriptor (open for
    /// reading too, so what was written can be checked before it replaces anything).
    public static func write(to path: String, overwrite: Bool = false, followSymlinks: Bool = true, _ body: (Int32) throws -> Void) throws {
        guard !writesRefused else { throw FontError("writing files is disabled in this sandbox", path: path) }
        let target = followSymlinks ? try resolveTarget(path) : try refusingSymlink(path)
        var existing = stat()
        let exists = stat(target, &existing) == 0
        if exists {
            guard (existing.st_mode & S_IFMT) == S_IFREG else {
                throw FontError("not a regular file (a device, FIFO or folder); refusing to replace it", path: path)
            }
            if !overwrite, OpenFontFiles.contains(existing) {
                throw FontError(
                    "refusing to overwrite an input file (a font or file this command reads); save elsewhere or allow overwriting explicitly",
                    path: path)
            }
        }
        let folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        let directory = folder.isEmpty ? "/" : folder

        var named: String?
        var fd = anonymousFile(in: directory)
        if fd < 0 {
            removeAbandoned(in: directory)
            var template = Array((directory + "/.fontshell-save-\(getpid())-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { b in b.baseAddress.map { mkstemp($0) } ?? -1 }
            guard fd >= 0 else { throw FontError("cannot create a temporary file next to the output: \(lastError())", path: path) }
            named = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var open = true
        do {
            try body(fd)
            guard fsync(fd) == 0 else { throw FontError("cannot flush: \(lastError())", path: path) }
            if exists {
                _ = fchmod(fd, existing.st_mode & 0o7777)
                _ = fchown(fd, existing.st_uid, existing.st_gid)   // keeps them when permitted (root, or same owner)
            } else if named != nil {
                let mask = umask(0); umask(mask)
                _ = fchmod(fd, 0o666 & ~mask)
            }
            if named == nil { named = try link(fd, in: directory, for: path) }
            open = false
            guard close(fd) == 0 else { throw FontError("cannot close: \(lastError())", path: path) }
            guard let named, rename(named, target) == 0 else {
                throw FontError("cannot move the written file into place: \(lastError())", path: path)
            }
        } catch {
            if open { close(fd) }
            if let named { unlink(named) }
            throw error
        }
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool = false, followSymlinks: Bool = true) throws {
        try bytes.withUnsafeBytes { try write($0, to: path, overwrite: overwrite, followSymlinks: followSymlinks) }
    }

    /// The same from memory the caller holds (a string's UTF-8, without copying it first).
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, overwrite: Bool = false, followSymlinks: Bool = true) throws
    {
        try write(to: path, overwrite: overwrite, followSymlinks: followSymlinks) { fd in try writeAll(fd, bytes) }
    }

    /// Writes all of `bytes` to the file a `write(to:)` body was given (short writes and
    /// interruptions retried; a full disk is an error).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        try FileSink.writeAll(fd, bytes, at: nil)
    }

    /// The file a write to `path` replaces: `path` itself, or the target of a symlink.
    static func resolveTarget(_ path: String) throws -> String {
        try FontBytes.checkPath(path)
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw FontError("a symlink whose target cannot be reached (\(lastError())); refusing to replace the link", path: path)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` itself when it is not a symlink (a name FontShell derived: a link there was planted).
    static func refusingSymlink(_ path: String) throws -> String {
        try FontBytes.checkPath(path)
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw FontError(
                "a symlink is where FontShell would write a file it names itself; refusing to write through it (remove the link or choose the output name)",
                path: path)
        }
        return path
    }

    /// Marks `path` as an input of this process, so no write replaces it unless asked (fonts
    /// register themselves when opened; scripts, XML, text files and a batch's fonts call this).
    /// A path that cannot be stat'ed is ignored: there is nothing there to lose.
    public static func protectInput(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { OpenFontFiles.add(info) }
    }

    /// Whether a write to `path` would replace an input of this process (for commands that
    /// want to refuse before any work).
    public static func isInput(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && OpenFontFiles.contains(info)
    }

    /// An unnamed file in `directory` (Linux O_TMPFILE), or -1 where that is not available.
    private static func anonymousFile(in directory: String) -> Int32 {
        #if os(Linux)
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY; Glibc's macro is not imported into Swift.
        return open(directory, 0o2000_0000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o666)
        #else
        return -1
        #endif
    }

    /// Gives the anonymous file a temporary name in `directory`, for the rename.
    private static func link(_ fd: Int32, in directory: String, for path: String) throws -> String {
        #if os(Linux)
        for _ in 0..<16 {
            let name = directory + "/.fontshell-save-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 { return name }
            if errno != EEXIST { break }
        }
        #endif
        throw FontError("cannot name the written file: \(lastError())", path: path)
    }

    /// Removes `.fontshell-save-<pid>-…` files whose process no longer exists.
    private static func removeAbandoned(in directory: String) {
        let prefix = ".fontshell-save-"
        for name in listFolder(directory) {
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }),
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(directory + "/" + name)
        }
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}

/// File names in a folder ("." and ".." left out), sorted; empty when it cannot be read.
public func listFolder(_ path: String) -> [String] {
    guard let d = opendir(path) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let entry = readdir(d) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Files opened as fonts in this process (and other inputs, `AtomicFile.protectInput`), so no
/// writer replaces an input by accident. `FontBytes` adds a file when it maps it. Files stay
/// listed after the font is released:
/// Swift may release an object before the end of its scope, and an input read moments ago is
/// still the user's input (`dump -o INPUT` must not replace it). A file is known by device,
/// inode, size and modification time, so a new file that reuses a deleted input's inode is not
/// mistaken for it. The files are kept by inode (a dictionary keyed by a type of our own would
/// cost every process start a scan of the runtime's conformance records).
enum OpenFontFiles {
    private static let lock = PosixLock()
    nonisolated(unsafe) private static var opened: [Int: [FileID]] = [:]

    struct FileID: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        init(_ s: stat) {
            device = UInt64(s.st_dev); inode = UInt64(s.st_ino); size = Int64(s.st_size)
            #if canImport(Darwin)
            seconds = s.st_mtimespec.tv_sec; nanoseconds = s.st_mtimespec.tv_nsec
            #else
            seconds = s.st_mtim.tv_sec; nanoseconds = s.st_mtim.tv_nsec
            #endif
        }
    }

    static func add(_ info: stat) {
        let file = FileID(info), key = Int(truncatingIfNeeded: file.inode)
        lock.withLock {
            if opened[key]?.contains(file) != true { opened[key, default: []].append(file) }
        }
    }

    static func contains(_ info: stat) -> Bool {
        let file = FileID(info)
        return lock.withLock { opened[Int(truncatingIfNeeded: file.inode)]?.contains(file) ?? false }
    }
}
